// Writes V8's code cache of the prune bundle (dist/cli-bundle/prune.cjs.cache; bin/prune-bundle.js
// reads it): compiles the bundle, prunes a few files of this package as `ctxprune prune` would (the
// lexical and the neural scorer, TypeScript and Python), then serialises every function compiled so
// far. Run by scripts/bundle-cli.mjs in a process of its own, so that the V8 flags the cache is
// stamped with are a fresh `node`'s; the prunes keep V8's defaults (CTXPRUNE_V8_DEFAULTS), since
// flags changed while running would stamp the cache with other flags and V8 would reject it.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPruneBundle } from '../bin/prune-bundle.js';

const pkg = new URL('..', import.meta.url);
process.env.CTXPRUNE_ONE_SHOT = '1';
process.env.CTXPRUNE_V8_DEFAULTS = '1';

const { exports, script } = loadPruneBundle({ useCache: false });
const quiet = { out: () => {}, err: () => {} };
const inputs = ['src/prune/pipeline.ts', 'src/text/elision.ts', 'test/fixtures/samples/rate_limiter.py']
  .map((path) => new URL(path, pkg))
  .filter((url) => existsSync(url));
for (const url of inputs) {
  for (const scorer of ['lexical', 'auto']) {
    // A warm-up that fails only leaves its functions out of the cache: say so, go on.
    const code = await exports
      .main(['prune', fileURLToPath(url), '--query', 'how is the token budget counted', '--ratio', '4', '--scorer', scorer], quiet)
      .catch((err) => err);
    if (code !== 0) console.warn(`cli-code-cache: warm-up prune ${fileURLToPath(url)} --scorer ${scorer} failed (${code}); its functions compile at run time`);
  }
}
const out = new URL('dist/cli-bundle/prune.cjs.cache', pkg);
const tmp = new URL(`prune.cjs.cache.${process.pid}`, out);
writeFileSync(tmp, script.createCachedData());
renameSync(tmp, out);
