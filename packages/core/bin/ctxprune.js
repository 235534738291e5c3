#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` via prepare).
// CommonJS (bin/package.json): an ES-module entry would start Node's ESM loader in every process,
// ~450 page faults and ~13 M instructions before `prune` begins (#15); the other commands still
// load dist/cli's ES modules, with import().
'use strict';

// This process runs one command and exits: `prune` may tune V8 for that (commands/prune.ts), and
// the CLI writes to file descriptors 1 and 2 directly (src/cli/stdio.ts).
process.env.CTXPRUNE_ONE_SHOT = '1';
// A reader that stops early (`ctxprune mcp … | head`) closes the pipe: exit quietly, as Unix tools
// do. Not for `prune`, whose process never makes process.stdout (stdio.ts does this when it must).
if (process.argv[2] !== 'prune') {
  process.stdout.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

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

Promise.resolve()
  .then(entry)
  .then(async (m) => {
    process.exitCode = (await m.main(process.argv.slice(2))) ?? 0;
    // `prune` is done once main returns: exit now rather than after tearing down the heap (~6 ms of
    // a ~0.35 s run), once what it wrote is out. Its writes to the descriptors block until they
    // are; what went through a stream (a non-blocking pipe: stdio.ts) may still be queued, and
    // exiting then would cut it short (a 170 KB `--json` to a slow reader once lost all but 64 KB).
    if (process.argv[2] === 'prune') m.flushed().then(() => process.exit());
  })
  .catch((err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
      console.error('ctxprune: the library is not built; run `npm run build` at the repository root.');
    } else {
      console.error(`ctxprune: ${err && err.message ? err.message : err}`);
    }
    process.exitCode = 1;
  });
