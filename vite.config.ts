/**
 * The playground's Vite config (kept at the repository root so that `vite`, `vite build` and
 * `vite preview` work from there). The core library is consumed from its TypeScript sources, so no
 * core build is needed to develop or build the playground.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Cross-origin isolation: lets WASM use threads (SharedArrayBuffer). Everything the page loads is
// same-origin, so require-corp costs nothing.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The core from its sources, for the app and for the unit tests of its modules (vitest.config.ts). */
export const coreAlias = [
  { find: /^@ctxprune\/core$/, replacement: here('./packages/core/src/index.ts') },
  { find: /^@ctxprune\/core\/(.*)$/, replacement: here('./packages/core/src/') + '$1' },
];

export default defineConfig({
  root: here('./apps/playground'),
  publicDir: here('./public'),
  base: './',
  plugins: [react()],
  resolve: { alias: coreAlias },
  server: { headers: isolation, fs: { allow: [here('.')] } },
  preview: { headers: isolation },
  optimizeDeps: {
    exclude: ['onnxruntime-web', 'web-tree-sitter'],
  },
  worker: { format: 'es' },
  build: {
    outDir: here('./dist/playground'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    reportCompressedSize: false,
  },
});
