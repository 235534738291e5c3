// Runs `ctxprune prune` from its one-file bundle (dist/cli-bundle/prune.cjs, made by `npm run build`:
// scripts/bundle-cli.mjs) with V8's code cache (prune.cjs.cache, written at build time by
// scripts/cli-code-cache.mjs): a process started once per read then skips compiling the functions
// a prune runs (#15). The cache is an optimisation only: V8 rejects one made by another Node
// version or with other V8 flags, and the bundle then compiles as any script does.
//
// The bundle is a script, not a module (V8 caches scripts, and Node 20 has no module compile
// cache), so its `import()` of packages (onnxruntime-web, js-tiktoken) and of the other commands'
// modules come here: a script compiled from cached data cannot call Node's import() itself. Node's
// built-ins are required, not imported: a process that imports nothing starts no ESM loader.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { createRequire, isBuiltin } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

const BUNDLE = path.join(__dirname, '../dist/cli-bundle/prune.cjs');

// The bundle file is one function expression (scripts/bundle-cli.mjs writes it with wrapBundle), so
// that it compiles as read: wrapping it here made V8 copy the ~0.5 MB source once more (~110 page
// faults, each ~15 µs on a small VM). Its parameters are what CommonJS gives a module, the loader's
// import(), and the clock.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __ctxprune_import, performance) {';
const WRAPPER_TAIL = '\n})';

/** The bundle's code as the function expression the loader compiles. */
function wrapBundle(code) {
  return `${WRAPPER_HEAD}${code}${WRAPPER_TAIL}`;
}

/**
 * The bundle's `performance`: Node's global one is a getter that loads perf_hooks and ~10 other
 * modules (~2 ms) on first use, and the bundle only ever calls performance.now() (bundle-cli.mjs
 * checks). process.uptime() counts from the same origin, the process's start.
 */
const clock = { now: () => process.uptime() * 1000 };

/** The bundle's mtime is at least dist/cli's: built after the last compile (else it is stale). */
function bundleIsCurrent() {
  try {
    return statSync(BUNDLE).mtimeMs >= statSync(path.join(__dirname, '../dist/cli/main.js')).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Compiles and runs the bundle; returns its exports ({ main, version }) and the compiled script
 * (for createCachedData). `useCache: false` compiles from source.
 */
function loadPruneBundle({ useCache = true } = {}) {
  const source = readFileSync(BUNDLE, 'utf8');
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(`${BUNDLE}.cache`);
    } catch {
      /* no cache: compile from source */
    }
  }
  const script = new Script(source, { filename: BUNDLE, cachedData });
  const bundleModule = { exports: {} };
  const importFromBundle = (specifier) =>
    isBuiltin(specifier)
      ? Promise.resolve().then(() => require(specifier))
      : import(specifier.startsWith('.') ? pathToFileURL(path.join(path.dirname(BUNDLE), specifier)).href : specifier);
  script.runInThisContext()(bundleModule.exports, createRequire(BUNDLE), bundleModule, BUNDLE, path.dirname(BUNDLE), importFromBundle, clock);
  return { exports: bundleModule.exports, script, cacheRejected: cachedData ? script.cachedDataRejected === true : null };
}

module.exports = { bundleIsCurrent, loadPruneBundle, wrapBundle };
