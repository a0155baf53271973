/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import tailwindcss from "@tailwindcss/vite";
import { paigePage } from "../shared/page";

// The workbench is served by `paige serve` at / and embedded from
// internal/coach/workbench/dist (committed; `make web` rebuilds it). JSX is
// compiled by esbuild directly, so no React plugin is needed. Monaco and
// xterm are dynamic imports: they load when the Work view opens, from the
// binary (Monaco's worker is bundled with `?worker`, never a CDN).
function proxy() {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
  const http = env.PAIGE_URL ?? "http://127.0.0.1:3000";
  const target = http.replace(/^http/, "ws");
  return { "/ws": { target, ws: true }, "/pty": { target, ws: true }, "/api": { target: http } };
}

export default defineConfig({
  base: "/",
  // index.html holds the entry script; ../shared/page.ts the page around it.
  plugins: [tailwindcss(), paigePage({ title: "Paige", icon: "/favicon.svg" })],
  esbuild: { jsx: "automatic" },
  // ../shared holds what both UIs use (the Nav, history routing); its
  // imports of React resolve to this UI's node_modules: one React per app.
  resolve: { dedupe: ["react", "react-dom"] },
  worker: { format: "es" },
  build: {
    outDir: "../../internal/coach/workbench/dist",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 6000,
  },
  // `npm run dev` (or `vite preview`) against a running `paige serve`
  // (PAIGE_URL, default http://127.0.0.1:3000).
  server: { proxy: proxy() },
  preview: { proxy: proxy() },
  test: {
    environment: "jsdom",
    globals: true,
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test-setup.ts"],
    // The machine is shared; generous limits keep slow runs from flaking.
    testTimeout: 30_000,
  },
});
