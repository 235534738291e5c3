#!/usr/bin/env node
// Compaction benchmark runner. Build first (`npm run build -w @ctxprune/core`), then:
//   node packages/core/bench/compaction/run.mjs [--cases /work/data/dev-cases.jsonl] [--pools /work/data/pools]
//        [--limit N] [--split all|even|odd] [--ratio 4] [--json]
// (Tool outputs are cut line by line by the LaMR pipeline in every scored strategy. The benchmark
// the README reports is val.mjs: transcripts from repositories outside the dev cases.)
// CTXPRUNE_DIST points at another build output (default: packages/core/dist).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.env.CTXPRUNE_DIST ?? join(here, '..', '..', 'dist'));
const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const has = (name) => args.includes(`--${name}`);

const casesPath = flag('cases', '/work/data/dev-cases.jsonl');
const poolsDir = flag('pools', '/work/data/pools');
const limit = Number(flag('limit', '0'));
const split = flag('split', 'all');
const ratio = Number(flag('ratio', '4'));

const bench = await import(pathToFileURL(join(dist, 'compaction', 'bench.js')).href);
const { loadDefaultTokenCounter } = await import(pathToFileURL(join(dist, 'text', 'tokens.js')).href);

let cases = bench.loadCases(casesPath);
const all = cases;
if (split === 'even') cases = cases.filter((_, i) => i % 2 === 0);
else if (split === 'odd') cases = cases.filter((_, i) => i % 2 === 1);
if (limit > 0) cases = cases.slice(0, limit);
// Other files come from every case of the repository, whatever the split.
const transcripts = bench.buildTranscripts(all, { poolsDir: existsSync(poolsDir) ? poolsDir : undefined })
  .filter((t) => cases.some((c) => c.id === t.id));

const variants = [
  { name: 'reactive', strategy: 'reactive' },
  { name: 'task_aware', strategy: 'task_aware' },
  { name: 'mig', strategy: 'mig' },
  { name: 'task_aware_mig', strategy: 'task_aware_mig' },
];
for (const extra of (flag('variants', '') || '').split(';').filter(Boolean)) {
  // --variants 'name:strategy:{json options};…', for tuning runs
  const [name, strategy, ...rest] = extra.split(':');
  variants.push({ name, strategy, options: JSON.parse(rest.join(':') || '{}') });
}

const counter = await loadDefaultTokenCounter();
const rows = await bench.runCompactionBench(transcripts, variants, counter, { ratio });
if (has('json')) console.log(JSON.stringify(rows, null, 2));
else {
  console.log(`cases: ${casesPath} (${split}${limit ? `, first ${limit}` : ''}), budget = 1/${ratio} of each transcript's tokens (${counter.name})\n`);
  console.log(bench.formatRows(rows));
}
