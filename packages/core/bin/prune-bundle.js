// Runs `ctxprune prune` from its one-file bundle (dist/cli-bundle/prune.cjs, made by `npm run build`:
// scripts/bundle-cli.mjs) with V8's code cache (prune.cjs.cache, written at build time by
// scripts/cli-code-cache.mjs): a process started once per read then skips compiling the functions
// a prune runs (#15). The cache is an optimisation only: V8 rejects one made by another Node
// version or with other V8 flags, and the bundle then compiles as any script does.
//
// The bundle is a script, not a module (V8 caches scripts, and Node 20 has no module compile
// cache), so its `import()` of packages (onnxruntime-web, js-tiktoken) and of the other commands'
// modules come here: a script compiled from cached data cannot call Node's import() itself.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const BUNDLE = new URL('../dist/cli-bundle/prune.cjs', import.meta.url);
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __ctxprune_import) {';

/** The bundle's mtime is at least dist/cli's: built after the last compile (else it is stale). */
export function bundleIsCurrent() {
  try {
    return statSync(BUNDLE).mtimeMs >= statSync(new URL('../dist/cli/main.js', import.meta.url)).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Compiles and runs the bundle; returns its exports ({ main, version }) and the compiled script
 * (for createCachedData). `useCache: false` compiles from source.
 */
export function loadPruneBundle({ useCache = true } = {}) {
  const file = fileURLToPath(BUNDLE);
  const source = readFileSync(BUNDLE, 'utf8');
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(new URL('prune.cjs.cache', BUNDLE));
    } catch {
      /* no cache: compile from source */
    }
  }
  const script = new Script(`${WRAPPER_HEAD}${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} };
  const importFromBundle = (specifier) => import(specifier.startsWith('.') ? new URL(specifier, BUNDLE).href : specifier);
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, file, fileURLToPath(new URL('.', BUNDLE)), importFromBundle);
  return { exports: module.exports, script, cacheRejected: cachedData ? script.cachedDataRejected === true : null };
}
