#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` via prepare).

// A reader that stops early (`ctxprune prune … | head`) closes the pipe: exit quietly, as Unix tools do.
process.stdout.on('error', (err) => {
  if (err && err.code === 'EPIPE') process.exit(0);
  throw err;
});
// This process runs one command and exits: `prune` may tune V8 for that (commands/prune.ts).
process.env.CTXPRUNE_ONE_SHOT = '1';

/**
 * `prune` runs from its bundle (bin/prune-bundle.js: one script with V8's code cache, instead of
 * dist/cli's ~60 modules, for a process started once per read) when the build made one after the
 * last compile of dist/cli; every other command, and `prune` without a current bundle, from dist/cli.
 */
async function entry() {
  if (process.argv[2] === 'prune') {
    const bundle = await import('./prune-bundle.js');
    if (bundle.bundleIsCurrent()) return bundle.loadPruneBundle({ useCache: process.env.CTXPRUNE_CODE_CACHE !== '0' }).exports;
  }
  return import('../dist/cli/main.js');
}

entry()
  .then((m) => m.main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code ?? 0;
    // `prune` is done once main returns, and on Linux its writes to a file, a pipe or a terminal
    // were synchronous: exit now rather than after tearing down the heap (~6 ms of a ~0.37 s run).
    if (process.argv[2] === 'prune' && process.platform === 'linux') process.exit();
  })
  .catch((err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
      console.error('ctxprune: the library is not built; run `npm run build` at the repository root.');
    } else {
      console.error(`ctxprune: ${err && err.message ? err.message : err}`);
    }
    process.exitCode = 1;
  });
