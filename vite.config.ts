/**
 * The playground's Vite config (kept at the repository root so that `vite`, `vite build` and
 * `vite preview` work from there). The core library is consumed from its TypeScript sources, so no
 * core build is needed to develop or build the playground.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Cross-origin isolation: lets WASM use threads (SharedArrayBuffer). Everything the page loads is
// same-origin, so require-corp costs nothing.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * `virtual:ort-wasm`: the URL of onnxruntime-web's plain SIMD wasm (the WASM engine's runtime). In
 * a build it is a gzipped copy (14 MB → 3.7 MB: static servers, `vite preview` included, rarely
 * compress .wasm), which the worker gunzips; `.gzip`, not `.gz`, so that no server labels it
 * Content-Encoding (the progress bar then counts the bytes its Content-Length announces). In dev,
 * the file itself.
 */
function ortWasm(): Plugin {
  const id = 'virtual:ort-wasm';
  let build = false;
  return {
    name: 'ctxprune-ort-wasm',
    configResolved(c) {
      build = c.command === 'build';
    },
    resolveId: (s) => (s === id ? '\0' + id : null),
    load(s) {
      if (s !== '\0' + id) return null;
      if (!build) return `export { default } from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';`;
      const file = createRequire(import.meta.url).resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm');
      const ref = this.emitFile({ type: 'asset', name: 'ort-wasm-simd-threaded.wasm.gzip', source: gzipSync(readFileSync(file), { level: 9 }) });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}

type ExportTarget = string | { default?: string; [condition: string]: unknown };

/**
 * The core from its sources, for the app and for the unit tests of its modules (vitest.config.ts):
 * each entry point of the package's `exports` map (dist/X.js) maps to its source (src/X.ts), and
 * nothing else does, so the playground can only import what an embedder can. A query after the
 * name (`?worker`) is kept.
 */
export const coreAlias = Object.entries(
  (JSON.parse(readFileSync(here('./packages/core/package.json'), 'utf8')) as { exports: Record<string, ExportTarget> }).exports,
).flatMap(([sub, target]) => {
  const dist = typeof target === 'string' ? target : target.default;
  if (!dist?.startsWith('./dist/') || !dist.endsWith('.js')) return [];
  const name = `@ctxprune/core${sub.slice(1)}`.replace(/[/.]/g, (c) => `\\${c}`);
  return [{ find: new RegExp(`^${name}(\\?.*)?$`), replacement: here(`./packages/core/src/${dist.slice(7, -3)}.ts`) + '$1' }];
});

export default defineConfig({
  root: here('./apps/playground'),
  publicDir: here('./public'),
  base: './',
  plugins: [react(), ortWasm()],
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
