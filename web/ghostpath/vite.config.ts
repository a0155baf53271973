/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import tailwindcss from "@tailwindcss/vite";
import { paigePage } from "../shared/page";

// The UI is served by `paige serve` at /ghostpath/ and embedded from
// internal/ideate/web/dist (committed; `make web` rebuilds it). JSX is
// compiled by esbuild directly, so no React plugin is needed.
export default defineConfig({
  base: "/ghostpath/",
  // index.html holds the entry script; ../shared/page.ts the page around it.
  plugins: [tailwindcss(), paigePage({ title: "GhostPath", icon: "/favicon.svg" })],
  esbuild: { jsx: "automatic" },
  // ../shared holds what both UIs use (the Nav, history routing); its
  // imports of React resolve to this UI's node_modules: one React per app.
  resolve: { dedupe: ["react", "react-dom"] },
  build: {
    outDir: "../../internal/ideate/web/dist",
    emptyOutDir: true,
    sourcemap: false,
  },
  // The dev server proxies the API to `paige serve`. changeOrigin sends
  // Paige's own Host (its origin policy refuses any other); the page's
  // Origin stays http://localhost:5173, so run paige serve with
  // PAIGE_ALLOWED_ORIGINS=http://localhost:5173 (docs/security.md).
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:3000", changeOrigin: true } },
  },
  test: {
    environment: "jsdom",
    globals: true,
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test-setup.ts"],
    // The machine is shared; generous limits keep slow runs from flaking.
    testTimeout: 30_000,
  },
});
