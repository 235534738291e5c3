// After tsc: `ctxprune prune` as one script (dist/cli-bundle/prune.cjs), which bin/ctxprune.js runs
// for `prune` (bin/prune-bundle.js): agents and editor hooks start one process per read, and Node's
// per-module resolve, load and link of the ~60 modules of dist/cli cost that process ~0.1 G
// instructions of its ~1.9 G (#15). A script rather than an ES module because V8 caches compiled
// scripts (Node 20 has no module compile cache): scripts/cli-code-cache.mjs writes that cache.
// Only `prune` is bundled; the other commands stay the modules of dist/cli, loaded from there
// (bin/ctxprune.js sends them to dist/cli/main.js), so that no process holds two copies of a
// module (`mcp` reaches the core through @ctxprune/mcp, i.e. dist/index.js).
// The bundle sits one folder below dist/, as every module does, so `new URL('../…', import.meta.url)`
// finds the same assets, package.json and models.
import { build } from 'vite';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const { wrapBundle } = createRequire(import.meta.url)('../bin/prune-bundle.js');
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

/**
 * A script compiled from V8's code cache cannot call Node's import() (no loader is attached to
 * it), so the import() expressions left in the bundle (packages it loads lazily: onnxruntime-web,
 * js-tiktoken; the other commands' modules) call the loader's `__ctxprune_import` instead.
 */
const importsThroughLoader = {
  name: 'ctxprune:imports-through-loader',
  renderChunk(code) {
    const starts = [];
    (function walk(node) {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node.type !== 'string') return;
      if (node.type === 'ImportExpression') starts.push(node.start);
      for (const key in node) if (key !== 'type' && node[key] && typeof node[key] === 'object') walk(node[key]);
    })(this.parse(code));
    let out = code;
    for (const at of starts.sort((a, b) => b - a)) {
      if (out.slice(at, at + 6) !== 'import') throw new Error(`bundle-cli: no import() at offset ${at}`);
      out = `${out.slice(0, at)}__ctxprune_import${out.slice(at + 6)}`;
    }
    return out;
  },
};

await build({
  configFile: false,
  ssr: { noExternal: ['web-tree-sitter'] },
  root: pkg,
  logLevel: 'warn',
  publicDir: false,
  plugins: [onlyPrune, importsThroughLoader],
  build: {
    // A Node build: dependencies (onnxruntime-web, js-tiktoken) stay imports, but for
    // web-tree-sitter, which every prune runs: in the script, its ~150 KB of JavaScript is in
    // the code cache and needs no package resolution (it is given its .wasm as bytes).
    ssr: true,
    outDir: join(pkg, 'dist/cli-bundle'),
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    rolldownOptions: {
      input: { main: join(cli, 'main.js') },
      // The prune command imports the scorer registry that the pipeline also imports lazily: one chunk either way.
      checks: { ineffectiveDynamicImport: false },
      // Emscripten's loader in web-tree-sitter evals a side module's EM_JS code (grammars have none).
      onLog(level, log, handler) {
        if (log.code === 'EVAL' && /web-tree-sitter/.test(String(log.id ?? log.message))) return;
        handler(level, log);
      },
      output: { format: 'cjs', codeSplitting: false, entryFileNames: 'prune.cjs' },
    },
  },
});

// One function expression, as bin/prune-bundle.js compiles it. The loader passes the bundle a clock
// with only now(), in place of Node's lazily loaded `performance`: nothing else of it may be used.
const bundleFile = join(pkg, 'dist/cli-bundle/prune.cjs');
const code = readFileSync(bundleFile, 'utf8');
const otherUse = /\bperformance\s*(?:\.(?!now\()|\[)/.exec(code);
if (otherUse) throw new Error(`bundle-cli: the bundle uses \`performance\` other than performance.now() at offset ${otherUse.index}`);
writeFileSync(bundleFile, wrapBundle(code));

// The code cache, from a child process: its V8 flags are a fresh `node`'s, as bin/ctxprune.js's are.
const cache = spawnSync(process.execPath, [join(pkg, 'scripts/cli-code-cache.mjs')], { stdio: 'inherit' });
if (cache.status !== 0) throw new Error(`bundle-cli: scripts/cli-code-cache.mjs failed (${cache.status ?? cache.signal})`);
