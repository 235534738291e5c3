#!/usr/bin/env node
// Abort latency on 1 MB inputs: now `ctxprune bench abort` (packages/core/src/bench/abort.ts). This
// wrapper keeps `node packages/core/bench/abort.mjs [--points 24] [--scorer lexical|neural] [--ratio 8]
// [--json]` working. Build the core first (`npm run build -w @ctxprune/core`). CTXPRUNE_DIST points at
// another build output (default: packages/core/dist), e.g. an older build to measure before/after.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = resolve(process.env.CTXPRUNE_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '../dist'));
const { main } = await import(pathToFileURL(join(dist, 'cli/main.js')).href);
process.exitCode = await main(['bench', 'abort', ...process.argv.slice(2)]);
