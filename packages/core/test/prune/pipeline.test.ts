import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CtxpruneError } from '../../src/errors.js';
import { preparePrune, prune } from '../../src/prune/pipeline.js';
import type { PruneResult } from '../../src/prune/types.js';
import type { ScorerInput } from '../../src/scorers/types.js';
import { lineCommentPrefix } from '../../src/syntax/languages.js';
import { type ElisionStyle, renderKept } from '../../src/text/elision.js';
import { dominantCarriageReturn, lineCount, splitLines } from '../../src/text/lines.js';
import { loadDefaultTokenCounter, type TokenCounter } from '../../src/text/tokens.js';

const SAMPLES = join(import.meta.dirname, '../fixtures/samples');
const sample = (name: string) => readFileSync(join(SAMPLES, name), 'utf8');

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadDefaultTokenCounter();
});

/** The original lines the result keeps, in order. */
function keptLinesOf(input: string, r: PruneResult): string[] {
  const lines = splitLines(input);
  return r.keptLines.map((l) => lines[l - 1]);
}

/** The result's text is exactly the kept original lines with one marker per elided run. */
function expectFaithful(input: string, r: PruneResult, style: ElisionStyle = 'bare') {
  const lines = splitLines(input);
  const keep = new Uint8Array(lines.length);
  for (const l of r.keptLines) keep[l - 1] = 1;
  const expected = renderKept(lines, keep, lineCommentPrefix(r.stats.language), dominantCarriageReturn(lines), style).text;
  if (r.text !== '') expect(r.text).toBe(expected);
  expect(r.stats.outputTokens).toBe(counter.count(r.text));
  expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
  expect(r.lines.length).toBe(lineCount(lines));
  expect(r.lines.filter((l) => l.kept).map((l) => l.line)).toEqual(r.keptLines);
  for (const info of r.lines) {
    expect(info.kept ? info.reason : null).toBe(info.reason);
    for (const v of [info.semantic, info.dependency, info.gate, info.keep]) expect(v >= 0 && v <= 1).toBe(true);
  }
}

const QUERIES: Record<string, string[]> = {
  'rate_limiter.py': ['Retry-After header with a negative value should not be returned', 'acquire times out too late when the bucket refills slowly'],
  'cache.ts': ['expired entries are returned by get after the ttl', 'withCache swallows load errors'],
  'Toolbar.tsx': ['keyboard shortcut with shift does not trigger onSelect', 'arrow keys wrap focus'],
  'debounce.js': ['maxWait is ignored by debounce', 'retry delay grows too fast'],
  'server.go': ['expired keys are still returned by Store.Get', 'PUT with invalid JSON body returns 500'],
  'ring.rs': ['pop on an empty ring panics', 'histogram counts case-sensitively'],
  'Inventory.java': ['transfer loses stock when add fails', 'remove throws when quantity equals available'],
  'buffer.c': ['buffer_grow overflows when capacity is zero', 'count_lines ignores the last line'],
  'matrix.cpp': ['matrix multiplication with incompatible shapes', 'trace of a non-square matrix'],
  'OrderService.cs': ['PayAsync marks an order paid twice', 'TotalAsync throws for unknown order id'],
  'slugger.rb': ['unique slug counter starts at 2', 'reserve! accepts empty slugs'],
  'Cart.php': ['discount applied before price rules', 'subtotal fails when a price is missing'],
};

describe('prune on real multi-language samples', () => {
  const files = readdirSync(SAMPLES).filter((f) => f in QUERIES);
  it('has a sample for each of the 12 languages', () => {
    expect(files.length).toBe(12);
  });
  for (const file of files) {
    for (const ratio of [2, 4, 8]) {
      it(`${file} at ${ratio}×: output parses, fits the budget, keeps lines byte for byte`, async () => {
        const text = sample(file);
        for (const query of QUERIES[file]) {
          const r = await prune(text, { query, ratio, fileName: file, tokenCounter: counter });
          expect(r.stats.inputParseOk).toBe(true);
          expectFaithful(text, r);
          expect(r.stats.repair).toBe('ok');
          expect(r.stats.outputParseOk).toBe(true);
          expect(r.keptLines.length).toBeGreaterThan(0);
        }
      });
    }
  }

  it('keeps the lines that answer the query and their enclosing scope', async () => {
    const text = sample('rate_limiter.py');
    const r = await prune(text, { query: 'parse_retry_after negative seconds', ratio: 4, fileName: 'rate_limiter.py', tokenCounter: counter });
    const lines = splitLines(text);
    const kept = new Set(r.keptLines.map((l) => lines[l - 1].trim()));
    expect(kept.has('def parse_retry_after(value: str) -> float:')).toBe(true);
    expect(kept.has('if seconds < 0:')).toBe(true);
    const info = r.lines[lines.findIndex((l) => l.trim() === 'if seconds < 0:')];
    expect(info.reason).toBe('evidence');
  });

  it('reports why lines were kept: evidence, dependency and repair', async () => {
    const text = sample('cache.ts');
    const r = await prune(text, { query: 'expired entry returned by get after ttl', ratio: 4, fileName: 'cache.ts', tokenCounter: counter });
    const reasons = new Set(r.lines.filter((l) => l.kept).map((l) => l.reason));
    expect(reasons.has('evidence')).toBe(true);
    expect(reasons.has('repair') || reasons.has('dependency')).toBe(true);
  });

  it('a line deep in a long literal keeps the brackets around it, not the whole literal', async () => {
    const entries = Array.from({ length: 120 }, (_, i) => `    option${i}: ${i},`);
    const text = [
      'export const defaults = {',
      '  timeouts: {',
      ...entries.slice(0, 60),
      '  },',
      '  retry: {',
      '    methods: [',
      "      'GET',",
      "      'PUT',",
      '    ],',
      '    statusCodes: [408, 413, 429],',
      ...entries.slice(60),
      '  },',
      '};',
      '',
    ].join('\n');
    const r = await prune(text, { query: 'retry statusCodes 429', ratio: 8, language: 'typescript', tokenCounter: counter });
    expectFaithful(text, r);
    const kept = keptLinesOf(text, r);
    expect(kept).toContain('    statusCodes: [408, 413, 429],');
    // The brackets that hold it: the literal's, retry's; a kept `methods: [` brings its `],`.
    for (const l of ['export const defaults = {', '  retry: {', '};']) expect(kept).toContain(l);
    expect(kept.includes('    methods: [')).toBe(kept.includes('    ],'));
    expect(r.stats.outputParseOk).toBe(true);
    expect(r.keptLines.length).toBeLessThan(splitLines(text).length / 4);
  });

  it("a line deep in a long Go raw string keeps the string's first and last lines, and the output parses", async () => {
    const columns = Array.from({ length: 40 }, (_, i) => `  column_${i} text not null,`);
    columns[25] = '  retry_after_seconds integer not null,';
    const text = [
      'package schema',
      '',
      'const createTable = `create table jobs (',
      ...columns,
      '  id integer primary key',
      ');`',
      '',
      'func Table() string {',
      '\treturn createTable',
      '}',
      '',
    ].join('\n');
    const r = await prune(text, { query: 'retry after seconds column', ratio: 4, language: 'go', tokenCounter: counter });
    expectFaithful(text, r);
    const kept = keptLinesOf(text, r);
    for (const l of ['const createTable = `create table jobs (', '  retry_after_seconds integer not null,', ');`']) expect(kept).toContain(l);
    expect(r.keptLines.length).toBeLessThan(splitLines(text).length / 2);
    expect(r.stats.outputParseOk).toBe(true);
  });
});

describe('budget', () => {
  it('an absolute token budget is never exceeded', async () => {
    const text = sample('Inventory.java');
    for (const tokens of [20, 40, 80, 160, 320]) {
      const r = await prune(text, { query: 'transfer between inventories', tokens, fileName: 'Inventory.java', tokenCounter: counter });
      expect(r.stats.budgetTokens).toBe(tokens);
      expectFaithful(text, r);
    }
  });

  it('ratio 1 keeps everything', async () => {
    const text = sample('server.go');
    const r = await prune(text, { query: 'store', ratio: 1, fileName: 'server.go', tokenCounter: counter });
    expect(r.text).toBe(text);
    expect(r.keptLines.length).toBe(lineCount(splitLines(text)));
  });

  it('a budget below the elision marker returns empty text and says so', async () => {
    const r = await prune(sample('ring.rs'), { query: 'pop', tokens: 1, fileName: 'ring.rs', tokenCounter: counter });
    expect(r.text).toBe('');
    expect(r.stats.outputTokens).toBe(0);
    expect(r.stats.degraded).toEqual([{ code: 'BUDGET_BELOW_MARKER', message: 'budget of 1 tokens is below even the elision marker: returned empty text' }]);
  });

  it('a budget too small for one evidence unit returns what fits and says so', async () => {
    const text = sample('rate_limiter.py');
    const r = await prune(text, { query: 'parse_retry_after negative seconds', tokens: 14, fileName: 'rate_limiter.py', tokenCounter: counter });
    expect(r.stats.outputTokens).toBeLessThanOrEqual(14);
    expect(r.stats.degraded).toEqual([
      { code: 'BUDGET_TOO_SMALL', message: 'budget of 14 tokens is too small for one evidence unit (its lines plus their repair): returned what fits' },
    ]);
  });

  it('a log of thousands of alike lines fills the budget it is given (it kept a tenth of it)', async () => {
    // Every PASSED line scores alike: the decode keeps all of them or none, and the packer spends the rest.
    const lines = Array.from({ length: 6000 }, (_, i) => `tests/test_money.py::test_case_${i} PASSED [${Math.floor(i / 60)}%]`);
    lines.splice(
      3000,
      0,
      'tests/test_money.py::test_rounded FAILED',
      'E   AssertionError: assert Money(1.005).rounded() == Money(1.01)',
      'money/core.py:88: in rounded',
      '    return self.quantize(2)',
    );
    const text = lines.join('\n');
    const r = await prune(text, { query: 'Money.rounded returns the wrong value for 1.005', ratio: 2, tokenCounter: counter });
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(r.stats.outputTokens).toBeGreaterThan(0.98 * r.stats.budgetTokens);
    expect(r.keptLines).toContain(3001);
    expect(r.keptLines).toContain(3002);
    expect(keptLinesOf(text, r)).toEqual(r.keptLines.map((n) => lines[n - 1]));
  });
});

describe('elision style', () => {
  const text = () => sample('server.go');
  const run = (elision?: ElisionStyle) =>
    prune(text(), { query: 'expired keys', ratio: 4, fileName: 'server.go', tokenCounter: counter, ...(elision ? { elision } : {}) });
  it('bare markers by default: one `// …` per elided run', async () => {
    const r = await run();
    expectFaithful(text(), r, 'bare');
    const markers = r.text.split('\n').filter((l) => l.trim().startsWith('// …'));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) expect(m.trim()).toBe('// …');
  });
  it('compact markers carry the line range of the run they replace', async () => {
    const r = await run('compact');
    expectFaithful(text(), r, 'compact');
    const kept = new Set(r.keptLines);
    for (const m of r.text.matchAll(/\/\/ … lines? (\d+)(?:–(\d+))?/g)) {
      const from = Number(m[1]);
      const to = Number(m[2] ?? m[1]);
      expect(kept.has(from - 1) || from === 1).toBe(true);
      for (let l = from; l <= to; l++) expect(kept.has(l)).toBe(false);
      expect(kept.has(to + 1) || to === r.stats.totalLines).toBe(true);
    }
  });
  it('verbose markers count the lines and still fit the budget', async () => {
    const r = await run('verbose');
    expectFaithful(text(), r, 'verbose');
    expect(r.text).toMatch(/\/\/ … \d+ lines omitted \(\d+–\d+\)/);
  });
  it('an unknown style is a typed error', async () => {
    await expect(prune(text(), { query: 'x', ratio: 4, fileName: 'server.go', tokenCounter: counter, elision: 'tiny' as ElisionStyle })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
    });
  });
});

describe('byte identity', () => {
  it('preserves CRLF, tabs and non-ASCII in kept lines', async () => {
    const src = [
      'def greet(name):\r',
      '\t"""Grüß dich — 你好 👋"""\r',
      '\tprint(f"héllo {name}")\r',
      '\treturn name\r',
      '\r',
      ...Array.from({ length: 40 }, (_, i) => `def other_${i}(x):\r\n\treturn x * ${i}\r`),
      '',
    ].join('\n');
    const r = await prune(src, { query: 'greet prints héllo', ratio: 4, language: 'python', tokenCounter: counter });
    expectFaithful(src, r);
    expect(r.text).toContain('\t"""Grüß dich — 你好 👋"""\r\n');
    expect(r.text).toMatch(/# …\r(\n|$)/);
  });
});

describe('bad input', () => {
  const expectCode = async (p: Promise<unknown>, code: string) => {
    await expect(p).rejects.toBeInstanceOf(CtxpruneError);
    await expect(p).rejects.toMatchObject({ code });
  };
  it('empty text → EMPTY_INPUT', () => expectCode(prune('', { query: 'x' }), 'EMPTY_INPUT'));
  it('NUL bytes → BINARY_INPUT', () => expectCode(prune('abc\u0000def', { query: 'x' }), 'BINARY_INPUT'));
  it('ratio < 1, NaN, Infinity → INVALID_BUDGET', async () => {
    for (const ratio of [0.5, 0, -2, NaN, Infinity]) await expectCode(prune('a = 1\n', { query: 'x', ratio }), 'INVALID_BUDGET');
  });
  it('tokens ≤ 0 or not finite → INVALID_BUDGET', async () => {
    for (const tokens of [0, -1, NaN, Infinity]) await expectCode(prune('a = 1\n', { query: 'x', tokens }), 'INVALID_BUDGET');
  });
  it('a non-string query → INVALID_OPTION', () => expectCode(prune('a = 1\n', { query: 42 as unknown as string }), 'INVALID_OPTION'));
  it('an unknown option → INVALID_OPTION naming it (`budget` is not `tokens`); an undefined one is no option', async () => {
    await expect(prune('a = 1\n', { query: 'x', budget: 100 } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: 'unknown option "budget" (options: query, ratio, tokens, language, fileName, scorer, tokenCounter, ablation, elision, signal, tuning)',
    });
    const r = await prune('a = 1\n', { query: 'x', tokens: 100, budget: undefined } as never);
    expect(r.text).toBe('a = 1\n');
  });
  it('an aborted signal → ABORTED', () => {
    const ac = new AbortController();
    ac.abort();
    return expectCode(prune('a = 1\n', { query: 'x', signal: ac.signal }), 'ABORTED');
  });

  it('a 1 MB single-line minified file degrades to line pruning and stays within budget', async () => {
    const line = 'var a=' + Array.from({ length: 80_000 }, (_, i) => `f${i}(${i})`).join(',') + ';';
    expect(line.length).toBeGreaterThan(1_000_000);
    const r = await prune(line, { query: 'f123', ratio: 4, fileName: 'app.min.js', tokenCounter: counter });
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(r.stats.syntax).toBe('indent');
    // One line of ~1 MB: it cannot fit a quarter of itself, so what fits (nothing) is returned too.
    expect(r.stats.degraded).toEqual([
      { code: 'TOO_LARGE_TO_PARSE', message: 'input too large or minified to parse: structure from indentation, no syntax repair' },
      {
        code: 'BUDGET_TOO_SMALL',
        message: `budget of ${r.stats.budgetTokens} tokens is too small for one evidence unit (its lines plus their repair): returned what fits`,
      },
    ]);
  }, 60_000);

  it('a 50,000-line file is pruned within budget', async () => {
    const text = Array.from({ length: 12_500 }, (_, i) => `def handler_${i}(request):\n    value = request.get("k${i}")\n    return value\n`).join('\n');
    expect(splitLines(text).length).toBeGreaterThanOrEqual(50_000);
    const r = await prune(text, { query: 'handler_777 request value', ratio: 8, fileName: 'big.py', tokenCounter: counter });
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(r.keptLines).toContain(777 * 4 + 1);
    expect(r.stats.outputParseOk).toBe(true);
  }, 60_000);

  it('a file with syntax errors is pruned and its parse status reported', async () => {
    const text = sample('rate_limiter.py').replace('def parse_retry_after(value: str) -> float:', 'def parse_retry_after(value: str -> float:');
    const r = await prune(text, { query: 'retry after', ratio: 4, fileName: 'x.py', tokenCounter: counter });
    expect(r.stats.inputParseOk).toBe(false);
    expectFaithful(text, r);
  });

  it('an unknown language prunes by lines without repair', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `PERFORM STEP-${i} THRU STEP-${i}-END.`).join('\n');
    const r = await prune(text, { query: 'STEP-42', ratio: 4, language: 'cobol', tokenCounter: counter });
    expect(r.stats.language).toBe(null);
    expect(r.stats.repair).toBe('skipped');
    expect(r.stats.degraded).toEqual([{ code: 'UNKNOWN_LANGUAGE', message: 'unknown language "cobol": pruned line by line without syntax repair' }]);
    expect(r.keptLines).toContain(43);
    expectFaithful(text, r);
  });

  it('an empty query keeps the outline and says so', async () => {
    const r = await prune(sample('rate_limiter.py'), { query: '', ratio: 4, fileName: 'a.py', tokenCounter: counter });
    expect(r.stats.degraded).toEqual([
      {
        code: 'EMPTY_QUERY',
        message: 'empty query: kept the outline (imports, definitions, their comments) first, then the lines around it, up to the budget',
      },
    ]);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(r.keptLines.length).toBeGreaterThan(0);
  });

  it('a query nothing in the input matches keeps the outline an empty query keeps, and says so', async () => {
    const text = sample('rate_limiter.py');
    const unmatched = await prune(text, { query: 'zebra giraffe okapi', ratio: 4, fileName: 'a.py', tokenCounter: counter });
    const empty = await prune(text, { query: '', ratio: 4, fileName: 'a.py', tokenCounter: counter });
    expect(unmatched.stats.degraded).toEqual([
      {
        code: 'QUERY_UNMATCHED',
        message:
          'nothing in the input matches the query (no word of it of two or more letters that is not a stopword, no name or location of it occurs): kept the outline (imports, definitions, their comments) first, then the lines around it, up to the budget',
      },
    ]);
    expect(unmatched.keptLines).toEqual(empty.keptLines);
    expectFaithful(text, unmatched);
  });

  it('a query matched only by a location (a traceback frame of this file) is not unmatched', async () => {
    const text = sample('rate_limiter.py');
    const query = 'Traceback (most recent call last):\n  File "a.py", line 12, in <module>\nZeroDivisionError';
    const r = await prune(text, { query, ratio: 4, fileName: 'a.py', tokenCounter: counter });
    expect(r.stats.degraded.map((d) => d.code)).not.toContain('QUERY_UNMATCHED');
  });

  it('a huge query is truncated with a note, not rejected', async () => {
    const query = 'bucket refill rate '.repeat(60_000);
    const r = await prune(sample('rate_limiter.py'), { query, ratio: 4, fileName: 'a.py', tokenCounter: counter });
    expect(r.stats.degraded).toEqual([{ code: 'QUERY_TRUNCATED', message: `query of ${query.length} characters: only its first 20,000 were used` }]);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
  });
});

describe('result.lines', () => {
  it('is computed on its first read, then a plain property in its place among the keys', async () => {
    const r = await prune(sample('rate_limiter.py'), { query: 'retry after', ratio: 4, fileName: 'a.py', tokenCounter: counter });
    expect(typeof Object.getOwnPropertyDescriptor(r, 'lines')?.get).toBe('function');
    expect(Object.keys(r)).toEqual(['text', 'keptLines', 'lines', 'stats']);
    const lines = r.lines;
    expect(Object.getOwnPropertyDescriptor(r, 'lines')).toMatchObject({ value: lines, writable: true, enumerable: true });
    expect(r.lines).toBe(lines);
    expect(lines).toHaveLength(r.stats.totalLines);
    expect(lines.filter((l) => l.kept).map((l) => l.line)).toEqual(r.keptLines);
    for (const l of lines) for (const p of [l.semantic, l.dependency, l.gate, l.keep]) expect(p >= 0 && p <= 1).toBe(true);
    expect(JSON.parse(JSON.stringify(r)).lines).toEqual(lines);
    // Assignable like any property, read or not.
    const other = await prune(sample('rate_limiter.py'), { query: 'retry after', ratio: 4, fileName: 'a.py', tokenCounter: counter });
    other.lines = [];
    expect(other.lines).toEqual([]);
    expect({ ...other }.lines).toEqual([]);
  });
});

describe('shallow repair under tight budgets', () => {
  const filler = Array.from({ length: 14 }, (_, i) => `  const option${i} = options.value${i} ?? ${i};`).join('\n');
  const text = `export function createStore(reducer, options) {\n  let state = options.initial;\n  const listeners = new Set();\n${filler}\n\n  function dispatch(action) {\n    state = reducer(state, action);\n    listeners.forEach((listener) => listener(state));\n  }\n\n  return { dispatch };\n}\n`;
  const query = 'listeners are not notified after reducer runs in dispatch';

  it('keeps the inner function whole without the outer header, where full repair had room for no line of it', async () => {
    // Shallow alone: without the flat and bare repair of deep compression (next describe).
    const r = await prune(text, { query, tokens: 31, language: 'javascript', tuning: { flatBelow: 0, bareBelow: 0 } });
    expect(r.keptLines).toEqual([19, 20, 21, 22]);
    expect(r.text).toBe(
      '// …\n  function dispatch(action) {\n    state = reducer(state, action);\n    listeners.forEach((listener) => listener(state));\n  }\n// …\n',
    );
    expect(r.stats.outputParseOk).toBe(true);
    expectFaithful(text, r);
    const full = await prune(text, { query, tokens: 31, language: 'javascript', tuning: { shallowBelow: 0, flatBelow: 0, bareBelow: 0 } });
    expect(full.keptLines).toEqual([1, 2, 3, 25]);
  });
});

describe('flat and bare repair under deep compression', () => {
  // The `if` around the evidence closes on a three-line `} else if (`: full or shallow repair
  // pays for it and the `if` around that, and at 8× nothing of the evidence fits.
  const filler = Array.from({ length: 30 }, (_, i) => `  const header${i} = options.headers?.get("x-${i}") ?? defaults[${i}];`).join('\n');
  const text = `export function createFetch(defaults) {\n  return async function send(request, options) {\n${filler}\n    if (options.body && isPayloadMethod(options.method)) {\n      if (isJSONSerializable(options.body)) {\n        options.body = JSON.stringify(options.body);\n      } else if (\n        ("pipeTo" in options.body && typeof options.body.pipeTo === "function") ||\n        typeof options.body.pipe === "function"\n      ) {\n        options.duplex = "half";\n      }\n    }\n    return fetch(request, options);\n  };\n}\n`;
  const query = 'stringify JSON serializable request bodies';

  it('flat: keeps the evidence with its innermost definition, not the control headers around it, and still parses', async () => {
    const r = await prune(text, { query, ratio: 8, language: 'javascript', scorer: 'lexical', tuning: { bareBelow: 0 } });
    expect(r.stats.budgetTokens).toBe(84);
    expect(r.keptLines).toEqual([2, 34, 35, 36, 37, 38, 39, 41, 44]);
    expect(r.stats.outputParseOk).toBe(true);
    expectFaithful(text, r);
    const shallow = await prune(text, { query, ratio: 8, language: 'javascript', scorer: 'lexical', tuning: { flatBelow: 0, bareBelow: 0 } });
    expect(shallow.keptLines).toEqual([1, 2, 32, 33, 42, 43, 44, 45]);
  });

  it('bare (the default there): statements without the function around them, still parsing', async () => {
    const r = await prune(text, { query, ratio: 8, language: 'javascript', scorer: 'lexical' });
    expect(r.keptLines).toEqual([33, 34, 35, 36, 37, 38, 39, 40, 41, 42]);
    expect(r.text.startsWith('// …\n    if (options.body && isPayloadMethod(options.method)) {\n')).toBe(true);
    expect(r.stats.outputParseOk).toBe(true);
    expectFaithful(text, r);
  });

  it('bare repair falls back to the headers where a statement alone does not parse (a `case` without its `switch`)', async () => {
    const cases = Array.from({ length: 24 }, (_, i) => `    case "k${i}":\n      return handle${i}(value);`).join('\n');
    const src = `export function route(kind, value) {\n  switch (kind) {\n${cases}\n    case "refund":\n      return refundPayment(value.amount, value.currency);\n    default:\n      throw new Error(kind);\n  }\n}\n`;
    const r = await prune(src, { query: 'refund payment amount currency', ratio: 8, language: 'javascript', scorer: 'lexical' });
    expect(r.stats.outputParseOk).toBe(true);
    expect(r.keptLines).toContain(51);
    expect(r.keptLines).toContain(2);
    expectFaithful(src, r);
  });

  it('is not used at 4× (a fix often edits the `if` line that full repair keeps)', async () => {
    const at4 = await prune(text, { query, ratio: 4, language: 'javascript', scorer: 'lexical' });
    const unflat = await prune(text, { query, ratio: 4, language: 'javascript', scorer: 'lexical', tuning: { flatBelow: 0 } });
    expect(at4.keptLines).toEqual(unflat.keptLines);
  });
});

describe('blank lines between elided runs', () => {
  it('are left out: no two markers with only blank lines between them, at any budget (lexical scorer)', async () => {
    const methods = ['of', 'same', 'add', 'sub', 'times', 'rounded', 'is_zero', 'neg'].map(
      (m, i) => `    def ${m}(self, other):\n        self._check(other)\n        return Money(self.amount + other.amount * ${i}, self.currency)\n`,
    );
    const text = `from decimal import Decimal\n\n\nclass Money:\n    amount: Decimal\n    currency: str = "EUR"\n\n${methods.join('\n')}`;
    const query = 'Money.rounded rounds the amount with banker rounding';
    for (let tokens = 40; tokens <= 200; tokens += 5) {
      const r = await prune(text, { query, tokens, language: 'python' });
      expect(r.text).not.toMatch(/# …\n(?:[ \t]*\n)+[ \t]*# …/);
      expectFaithful(text, r);
    }
  });
});

describe('preparePrune: one preparation, many budgets', () => {
  it('at() gives what prune() gives at each budget, from one scoring', async () => {
    const text = sample('rate_limiter.py');
    const { LexicalScorer } = await import('../../src/scorers/lexical.js');
    const lexical = new LexicalScorer();
    let calls = 0;
    const counting = {
      name: 'counting',
      score: (input: ScorerInput) => {
        calls++;
        return lexical.score(input);
      },
    };
    const options = { query: 'how is Retry-After parsed?', fileName: 'rate_limiter.py', tokenCounter: counter, scorer: counting };
    const prepared = await preparePrune(text, options);
    expect(calls).toBe(1);
    for (const budget of [{ tokens: 60 }, { ratio: 8 }, { tokens: 400 }, { ratio: 2 }, { tokens: 1e6 }]) {
      const once = await prune(text, { ...options, ...budget });
      const again = await prepared.at(budget);
      expect(again.text).toBe(once.text);
      expect(again.keptLines).toEqual(once.keptLines);
      const { ms: _a, timings: _b, ...stats } = again.stats;
      const { ms: _c, timings: _d, ...expected } = once.stats;
      expect(stats).toEqual(expected);
      expect(again.lines).toEqual(once.lines);
      expectFaithful(text, again);
    }
    // One scoring for the five budgets (prune() scored once each).
    expect(calls).toBe(6);
    // Only the first result counted the preparation's syntax and scoring.
    const later = await prepared.at({ ratio: 4 });
    expect(later.stats.timings.syntax).toBe(0);
    expect(later.stats.timings.score).toBe(0);
  });

  it('validates the budget up front and at each call', async () => {
    await expect(preparePrune('a\nb', { query: 'a', tokens: -1 })).rejects.toMatchObject({ code: 'INVALID_BUDGET' });
    const prepared = await preparePrune('a\nb', { query: 'a' });
    await expect(prepared.at({ ratio: 0.5 })).rejects.toMatchObject({ code: 'INVALID_BUDGET' });
  });
});
