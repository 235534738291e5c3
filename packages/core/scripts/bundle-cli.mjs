// After tsc: `ctxprune prune` as a few files (dist/cli-bundle/main.js and its chunks), which
// bin/ctxprune.js runs for `prune`: agents and editor hooks start one process per read, and Node's
// per-module resolve, load and link of the ~60 modules of dist/cli cost that process ~0.1 G
// instructions of its ~1.9 G (#15). Only `prune` is bundled; the other commands stay the modules of
// dist/cli, loaded from there (bin/ctxprune.js sends them to dist/cli/main.js), so that no process
// holds two copies of a module (`mcp` reaches the core through @ctxprune/mcp, i.e. dist/index.js).
// The bundle sits one folder below dist/, as every module does, so `new URL('../…', import.meta.url)`
// finds the same assets, package.json and models.
import { build } from 'vite';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(pkg, 'dist/cli');

/** main.js's commands other than `prune` stay outside the bundle: imports of dist/cli/commands/*.js. */
const onlyPrune = {
  name: 'ctxprune:only-prune',
  enforce: 'pre',
  resolveId(source, importer) {
    const m = importer === join(cli, 'main.js') ? /^\.\/commands\/(\w+)\.js$/.exec(source) : null;
    return m && m[1] !== 'prune' ? { id: `../cli/commands/${m[1]}.js`, external: true } : null;
  },
};

await build({
  configFile: false,
  root: pkg,
  logLevel: 'warn',
  publicDir: false,
  plugins: [onlyPrune],
  build: {
    // A Node build: dependencies (web-tree-sitter, onnxruntime-web, js-tiktoken) stay imports.
    ssr: true,
    outDir: join(pkg, 'dist/cli-bundle'),
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    rolldownOptions: {
      input: { main: join(cli, 'main.js') },
      // The prune command imports the scorer registry that the pipeline also imports lazily: one chunk either way.
      checks: { ineffectiveDynamicImport: false },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
