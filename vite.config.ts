/**
 * The playground's Vite config (kept at the repository root so that `vite`, `vite build` and
 * `vite preview` work from there). The core library is consumed from its TypeScript sources, so no
 * core build is needed to develop or build the playground.
 */
import { existsSync, readFileSync } from 'node:fs';
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
 * A virtual module `id` whose default export is the URL of a large binary asset the worker
 * downloads itself: in dev the file itself (`devImport`, a `?url` import); in a build a gzipped
 * copy (static servers, `vite preview` included, rarely compress binary files), which the worker
 * gunzips; `.gzip`, not `.gz`, so that no server labels it Content-Encoding (the progress bar then
 * counts the bytes its Content-Length announces). A file that does not exist exports null.
 */
function gzippedAsset(id: string, file: () => string, devImport: () => string): Plugin {
  let build = false;
  return {
    name: `ctxprune-${id.replace('virtual:', '')}`,
    configResolved(c) {
      build = c.command === 'build';
    },
    resolveId: (s) => (s === id ? '\0' + id : null),
    load(s) {
      if (s !== '\0' + id) return null;
      const path = file();
      if (!existsSync(path)) return 'export default null;';
      if (!build) return `export { default } from ${JSON.stringify(devImport())};`;
      const name = `${path.split('/').pop()}.gzip`;
      const ref = this.emitFile({ type: 'asset', name, source: gzipSync(readFileSync(path), { level: 9 }) });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}

/** `virtual:ort-wasm`: onnxruntime-web's plain SIMD wasm, the WASM engine's runtime (14 MB → 3.7 MB gzipped). */
const ortWasm = () =>
  gzippedAsset(
    'virtual:ort-wasm',
    () => createRequire(import.meta.url).resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'),
    () => 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url',
  );

/**
 * `virtual:o200k-table`: the tokenizer's binary rank table (4.3 MB → 1.9 MB gzipped), written to
 * packages/core/dist/assets/ by the core's build (which `npm ci` runs); the worker loads it in place
 * instead of parsing js-tiktoken's rank module (~0.5 s on every page load). Null without a built core.
 */
const o200kTable = () => {
  const table = here('./packages/core/dist/assets/o200k_base.bin');
  return gzippedAsset(
    'virtual:o200k-table',
    () => table,
    () => `${table}?url`,
  );
};

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
  plugins: [react(), ortWasm(), o200kTable()],
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
