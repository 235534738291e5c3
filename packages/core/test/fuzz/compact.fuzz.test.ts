/**
 * Property-based fuzz of compact (#16 item 6 and the budget promise): transcripts built from the
 * committed fixtures and odd content (special-token strings, runs of one character, odd Unicode,
 * CR-only text, binary bytes) under every strategy and budgets from tiny to roomy. Every case either
 * throws a typed CtxpruneError or returns messages that fit the budget as js-tiktoken counts them
 * (unless the pinned messages alone exceed it, which the result says), with tokensAfter never
 * under the reference. CTXPRUNE_FUZZ_RUNS / CTXPRUNE_FUZZ_SEED as in prune.fuzz.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { COMPACTION_STRATEGIES, type Message } from '../../src/compaction/types.js';
import { CtxpruneError } from '../../src/errors.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SAMPLES = join(HERE, '../fixtures/samples');
const FILES = readdirSync(SAMPLES)
  .sort()
  .map((f) => ({ name: f, text: readFileSync(join(SAMPLES, f), 'utf8') }));
const RUNS = Number(process.env.CTXPRUNE_FUZZ_RUNS) || 24;
const SEED = Number(process.env.CTXPRUNE_FUZZ_SEED) || 16;

const ref = new Tiktoken(o200kRanks);
const REF_SPLIT = new RegExp(o200kRanks.pat_str, 'gu');
function refCount(text: string): number | null {
  for (const m of text.matchAll(REF_SPLIT)) if (m[0].length > 800) return null;
  return ref.encode(text, [], []).length;
}

const ODD = [
  '<|endoftext|>',
  '<|endofprompt|>',
  '\u0085',
  '\ufeff',
  '\u2028',
  '\ud800',
  '😀',
  ' \u0085x',
  'A'.repeat(5000),
  ' '.repeat(3000) + 'x',
  '='.repeat(2000),
  '\r'.repeat(500),
  '\x00\x01\x02',
];

const content = fc.oneof(
  fc
    .record({
      file: fc.nat({ max: FILES.length - 1 }),
      cut: fc.double({ min: 0.05, max: 1, noNaN: true }),
      odd: fc.option(fc.constantFrom(...ODD)),
      crOnly: fc.boolean(),
    })
    .map(({ file, cut, odd, crOnly }) => {
      let t = FILES[file].text.slice(0, Math.ceil(FILES[file].text.length * cut));
      if (odd) t = t.slice(0, t.length >> 1) + odd + t.slice(t.length >> 1);
      return crOnly ? t.replaceAll('\n', '\r') : t;
    }),
  fc.constantFrom('Please fix the crash in parse()', 'ok', 'Running tests. <|endoftext|>', 'FAILED test_size - AssertionError', ...ODD),
);
const transcript = fc
  .array(fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'tool', 'tool'), content }), { minLength: 2, maxLength: 9 })
  .map((ms) => ms.map((m, i): Message => ({ id: `m${i}`, role: m.role, content: m.content, ...(m.role === 'tool' ? { toolName: 'read_file' } : {}) })));

const tally = { cases: 0, errors: {} as Record<string, number>, overBudget: 0, refChecked: 0 };

afterAll(() => {
  console.log(
    `compact fuzz: ${tally.cases} cases, typed errors ${JSON.stringify(tally.errors)}, pinned over budget ${tally.overBudget}, budgets checked by js-tiktoken ${tally.refChecked}`,
  );
});

describe(`compact fuzz (seed ${SEED})`, () => {
  it(`${RUNS} transcripts × strategies × budgets`, async () => {
    await fc.assert(
      fc.asyncProperty(transcript, fc.constantFrom(...COMPACTION_STRATEGIES), fc.constantFrom(5, 40, 300, 2000, 20000), async (messages, strategy, tokens) => {
        tally.cases++;
        let r;
        try {
          r = await compact(messages, { tokens, strategy });
        } catch (e) {
          if (!(e instanceof CtxpruneError)) throw new Error(`untyped error from compact (${strategy}, ${tokens}): ${String(e)}`, { cause: e });
          tally.errors[e.code] = (tally.errors[e.code] ?? 0) + 1;
          return;
        }
        if (r.overBudget) {
          tally.overBudget++;
          expect(r.pinnedOverBudget).not.toBeNull();
          return;
        }
        expect(r.tokensAfter).toBeLessThanOrEqual(tokens);
        const counts = r.messages.map((m) => refCount(m.content));
        if (counts.every((c) => c !== null)) {
          tally.refChecked++;
          const sum = counts.reduce((a, c) => a + c, 0);
          expect(sum).toBeLessThanOrEqual(tokens);
          expect(r.tokensAfter).toBeGreaterThanOrEqual(sum);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(tally.cases).toBeGreaterThanOrEqual(RUNS);
  }, 600_000);
});
