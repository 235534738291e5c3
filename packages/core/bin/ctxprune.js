#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` via prepare).
// CommonJS (bin/package.json): an ES-module entry would start Node's ESM loader in every process,
// ~450 page faults and ~13 M instructions before `prune` begins (#15); the other commands still
// load dist/cli's ES modules, with import().
'use strict';

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
function entry() {
  if (process.argv[2] === 'prune') {
    const bundle = require('./prune-bundle.js');
    if (bundle.bundleIsCurrent()) return bundle.loadPruneBundle({ useCache: process.env.CTXPRUNE_CODE_CACHE !== '0' }).exports;
  }
  return import('../dist/cli/main.js');
}

/** Exits once stdout and stderr hold no queued writes (at once when, as usual, they hold none). */
function exitWhenFlushed() {
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  if (pending.length === 0) return process.exit();
  let left = pending.length;
  // A write's callback runs once every write queued before it is out.
  for (const s of pending) s.write('', () => --left === 0 && process.exit());
}

Promise.resolve()
  .then(entry)
  .then((m) => m.main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code ?? 0;
    // `prune` is done once main returns: exit now rather than after tearing down the heap (~6 ms of
    // a ~0.35 s run), once what it wrote is out. A pipe whose reader is slower than this process
    // takes 64 KB and queues the rest (a `--json` of a 1,000-line file is ~170 KB): exiting then
    // cut the output short, so wait for the queue to drain first.
    if (process.argv[2] === 'prune') exitWhenFlushed();
  })
  .catch((err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
      console.error('ctxprune: the library is not built; run `npm run build` at the repository root.');
    } else {
      console.error(`ctxprune: ${err && err.message ? err.message : err}`);
    }
    process.exitCode = 1;
  });
