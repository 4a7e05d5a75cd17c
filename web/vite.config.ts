import { defineConfig } from "vite";

// JSX goes through the bundler's own transform with Preact as the runtime (no plugin needed).
export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 300 },
  server: { proxy: { "/api": "http://127.0.0.1:8000", "/ws": { target: "ws://127.0.0.1:8000", ws: true } } },
  test: { include: ["tests/**/*.test.ts"] },
});
