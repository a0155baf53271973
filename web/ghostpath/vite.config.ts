/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import tailwindcss from "@tailwindcss/vite";

// The UI is served by `paige serve` at /ghostpath/ and embedded from
// internal/ideate/web/dist (committed; `make web` rebuilds it). JSX is
// compiled by esbuild directly, so no React plugin is needed.
export default defineConfig({
  base: "/ghostpath/",
  plugins: [tailwindcss()],
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "../../internal/ideate/web/dist",
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:3000" },
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
