/** Issue 16 (hardening): option tables, scorer names. */
import { describe, expect, it } from 'vitest';
import { CtxpruneError } from '../../src/errors.js';
import { prune } from '../../src/prune/pipeline.js';
import { resolveScorer } from '../../src/scorers/registry.js';
import type { Scorer } from '../../src/scorers/types.js';
import { detectLanguage, parseLanguageName } from '../../src/syntax/index.js';
import { grammarFileFor } from '../../src/syntax/languages.js';
import { grammarTable } from '../../src/syntax/grammars.js';

const PY = [
  'import os',
  '',
  'def read(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  'def size(path):',
  '    return os.path.getsize(path)',
  '',
].join('\n');

describe("Object.prototype's names are not languages, scorers or extensions (#16 item 9)", { timeout: 60_000 }, () => {
  const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  it('parseLanguageName / detectLanguage return null for them', () => {
    for (const n of names) {
      expect(parseLanguageName(n)).toBeNull();
      expect(detectLanguage(`a.${n}`, 'x y z')).toBeNull();
      expect(detectLanguage(n, 'x y z')).toBeNull();
    }
  });
  it('prune says "unknown language" for language: "constructor" and a file named a.constructor', async () => {
    for (const n of names) {
      const r = await prune(PY, { query: 'file size', ratio: 2, language: n });
      expect(r.stats.language).toBeNull();
      expect(r.stats.degraded).toContainEqual({ code: 'UNKNOWN_LANGUAGE', message: `unknown language "${n}": pruned line by line without syntax repair` });
      expect(r.stats.degraded.map((d) => d.message).join(' ')).not.toMatch(/function Object|native code/);
    }
    const byName = await prune('a b c\nd e f\n', { query: 'a', ratio: 1, fileName: 'a.constructor' });
    expect(byName.stats.language).toBeNull();
    expect(byName.stats.degraded).toContainEqual({
      code: 'LANGUAGE_NOT_DETECTED',
      message: 'language not detected: pruned line by line without syntax repair',
    });
  });
  it('resolveScorer and the table getters give typed errors', async () => {
    for (const n of names) {
      await expect(resolveScorer(n)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
      expect(() => grammarFileFor(n as never)).toThrow(CtxpruneError);
      expect(() => grammarTable(n as never)).toThrow(CtxpruneError);
    }
  });
});

describe('scorer names passed to prune (#16 item 14)', { timeout: 60_000 }, () => {
  it("'lexical' and 'auto' are resolved, not called as objects", async () => {
    const lex = await prune(PY, { query: 'file size', ratio: 2, scorer: 'lexical' });
    expect(lex.stats.scorer).toBe('lexical');
    const auto = await prune(PY, { query: 'file size', ratio: 2, scorer: 'auto' });
    // 'auto' is the model when it loads (python is modelled), else lexical with the reason.
    expect(['neural', 'lexical']).toContain(auto.stats.scorer);
    if (auto.stats.scorer === 'lexical') expect(auto.stats.fallbackReason).toMatch(/^neural unavailable/);
  }, 60_000);
  it('an unknown name or a non-scorer object is INVALID_OPTION', async () => {
    await expect(prune(PY, { query: 'x', scorer: 'bm25' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('unknown scorer "bm25"'),
    });
    await expect(prune(PY, { query: 'x', scorer: 'constructor' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(prune(PY, { query: 'x', scorer: {} as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(prune(PY, { query: 'x', scorer: 42 as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});

describe('abort during a long prune (#16 item 5)', { timeout: 120_000 }, () => {
  /** ~1 MB of Python: many small functions and classes. */
  const big = (() => {
    const parts: string[] = ['import os\nimport sys\n\n'];
    for (let i = 0; parts.join('').length < 1_000_000; i++) {
      const chunk: string[] = [];
      for (let k = 0; k < 50; k++, i++) {
        chunk.push(
          `class Handler${i}:\n    """Handles case ${i}."""\n\n    def __init__(self, value_${i}):\n        self.value = value_${i}\n        self.count = ${i}\n\n    def run(self, items):\n        total = 0\n        for item in items:\n            if item > ${i}:\n                total += item * self.count\n        return total + len(os.environ)\n\n\n`,
        );
      }
      parts.push(chunk.join(''));
    }
    return parts.join('');
  })();

  it('a signal already aborted rejects before any work', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(prune(PY, { query: 'x', signal: ac.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  /**
   * A signal that counts its reads and, at the k-th, asks for the abort from a macrotask (as a
   * timer, a message or a cancelled request would): honouring it needs the pipeline to yield
   * after that read and check again, whatever stage it is in.
   */
  function abortAtRead(k: number): { signal: AbortSignal; reads: () => number } {
    const ac = new AbortController();
    let reads = 0;
    const signal = {
      get aborted() {
        if (++reads === k) setImmediate(() => ac.abort());
        return ac.signal.aborted;
      },
      get reason() {
        return ac.signal.reason as unknown;
      },
      throwIfAborted: () => ac.signal.throwIfAborted(),
      addEventListener: ac.signal.addEventListener.bind(ac.signal),
      removeEventListener: ac.signal.removeEventListener.bind(ac.signal),
    } as unknown as AbortSignal;
    return { signal, reads: () => reads };
  }

  it('an abort asked for at any point of a 1 MB prune rejects with ABORTED (every stage yields and checks)', async () => {
    expect(big.length).toBeGreaterThan(1_000_000);
    const opts = { query: 'count of items', ratio: 8, fileName: 'big.py' };
    // How often a whole prune checks the signal.
    const probe = abortAtRead(0);
    const full = await prune(big, { ...opts, signal: probe.signal });
    const total = probe.reads();
    expect(full.stats.inputParseOk).toBe(true);
    // At least one check per few hundred lines in each of parse, structure, scoring, measuring, fitting.
    expect(total).toBeGreaterThan(full.stats.totalLines / 100);
    // Aborts asked for across the prune, up to 80% of its checks (the rest takes far longer than
    // the ~10 ms between two yields): each one is honoured, with the typed error.
    for (const at of [0.02, 0.2, 0.4, 0.6, 0.8]) {
      const { signal } = abortAtRead(Math.max(1, Math.round(at * total)));
      const err = await prune(big, { ...opts, signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, `abort at ${at} of the checks`).toBeInstanceOf(CtxpruneError);
      expect((err as CtxpruneError).code).toBe('ABORTED');
    }
  }, 300_000);

  it('an abort asked for while the syntax is analysed or the lines scored is honoured before that stage ends', async () => {
    const { LexicalScorer } = await import('../../src/scorers/lexical.js');
    const lexical = new LexicalScorer();
    /** The lexical scorer, noting the signal's reads when it starts and ends; `onStart` runs as it starts. */
    const spy = (reads: () => number, onStart = () => {}) => {
      const seen = { start: -1, end: -1 };
      const scorer: Scorer = {
        name: 'lexical',
        score: async (input) => {
          seen.start = reads();
          onStart();
          const out = await lexical.scoreAsync(input);
          seen.end = reads();
          return out;
        },
      };
      return { scorer, seen };
    };
    const opts = { query: 'count of items', ratio: 8, fileName: 'big.py' };
    const probe = abortAtRead(0);
    const p = spy(probe.reads);
    await prune(big, { ...opts, signal: probe.signal, scorer: p.scorer });
    // Parse and structure analysis check before the scorer starts; scoring checks as it goes.
    expect(p.seen.start).toBeGreaterThan(20);
    expect(p.seen.end - p.seen.start).toBeGreaterThan(20);

    // Asked for half way through the syntax stage: the scorer never starts.
    const a = abortAtRead(Math.round(p.seen.start / 2));
    const q = spy(a.reads);
    const err = await prune(big, { ...opts, signal: a.signal, scorer: q.scorer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as CtxpruneError | null)?.code).toBe('ABORTED');
    expect(q.seen.start).toBe(-1);

    // Asked for as scoring starts: scoring (hundreds of ms on 1 MB) never finishes.
    const ac = new AbortController();
    const r = spy(
      () => 0,
      () => setImmediate(() => ac.abort()),
    );
    const err2 = await prune(big, { ...opts, signal: ac.signal, scorer: r.scorer }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err2 as CtxpruneError | null)?.code).toBe('ABORTED');
    expect(r.seen.start).toBe(0);
    expect(r.seen.end).toBe(-1);
  }, 300_000);

  it('a real AbortController fired by a timer during a 1 MB prune rejects with ABORTED', async () => {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 50);
    const err = await prune(big, { query: 'count of items', ratio: 8, fileName: 'big.py', signal: ac.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    clearTimeout(timer);
    expect(err).toBeInstanceOf(CtxpruneError);
    expect((err as CtxpruneError).code).toBe('ABORTED');
  }, 120_000);
});

describe('work run as steps gives the result of the work run in one go', () => {
  it('measureTokensAsync, the lexical scorer and o200k counting, interleaved with other counting', async () => {
    const { measureTokens, measureTokensAsync, loadDefaultTokenCounter, countSteps } = await import('../../src/text/tokens.js');
    const { LexicalScorer } = await import('../../src/scorers/lexical.js');
    const { analyze } = await import('../../src/syntax/index.js');
    const { splitLines } = await import('../../src/text/lines.js');
    const counter = await loadDefaultTokenCounter();
    const text = Array.from({ length: 2_000 }, (_, i) => PY.replaceAll('size', `size_${i}`)).join('') + '\u0085 x\r\n\t\u00a0y\n';
    const lines = splitLines(text);
    // Each pause counts other text with the same (shared) pre-tokenizer regexes.
    const other = 'def other(x):\n    return [x] * 3  # ünïcode\n'.repeat(50);
    const expectedOther = counter.count(other);
    let pauses = 0;
    const pause = async () => {
      pauses++;
      expect(counter.count(other)).toBe(expectedOther);
      await new Promise((r) => setImmediate(r));
    };
    const sync = measureTokens(text, lines, counter);
    expect(await measureTokensAsync(text, lines, counter, pause)).toEqual(sync);
    expect(pauses).toBeGreaterThan(10);
    let counted = 0;
    const steps = countSteps(counter, text);
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) {
        counted = r.value;
        break;
      }
      await pause();
    }
    expect(counted).toBe(sync.total);
    const st = await analyze(lines, 'python');
    const scorer = new LexicalScorer();
    const input = { query: 'count of items handler', lines, structure: st, language: 'python' as const };
    expect(await scorer.scoreAsync({ ...input, pause })).toEqual(scorer.score(input));
  }, 120_000);
});

describe('the sliced parse and the yielding analysis give the synchronous result', () => {
  it('on every sample and syntax fixture, and on decorated TypeScript', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const { parse } = await import('../../src/syntax/loader.js');
    const { analyzeTree, analyzeTreeAsync } = await import('../../src/syntax/structure.js');
    const { splitLines } = await import('../../src/text/lines.js');
    const dirs = ['../fixtures/samples/', '../fixtures/syntax/'].map((d) => fileURLToPath(new URL(d, import.meta.url)));
    const files = dirs.flatMap((d) => readdirSync(d).map((f) => [f, readFileSync(d + f, 'utf8')] as const));
    const decorated = Array.from(
      { length: 40 },
      (_, i) => `@Component({ id: ${i} })\n@Other()\nexport class C${i} {\n  @Input() x${i} = ${i};\n  run() { return this.x${i}; }\n}\n`,
    ).join('\n');
    files.push(['decorated.ts', decorated]);
    let compared = 0;
    for (const [name, text] of files) {
      const lang = detectLanguage(name, text);
      if (!lang) continue;
      const lines = splitLines(text);
      const a = await parse(lang, text);
      const b = await parse(lang, text, async () => {
        await new Promise((r) => setImmediate(r));
      });
      try {
        expect(b.rootNode.toString(), name).toBe(a.rootNode.toString());
        const sync = analyzeTree(a, lang, lines.length, lines);
        const async_ = await analyzeTreeAsync(b, lang, lines.length, lines, async () => {
          await new Promise((r) => setImmediate(r));
        });
        expect(async_, name).toEqual(sync);
        compared++;
      } finally {
        a.delete();
        b.delete();
      }
    }
    expect(compared).toBeGreaterThan(12);
  }, 60_000);
});

describe('the budget fit pauses between its decoding passes', () => {
  it("fitBudgetAsync gives fitBudget's result, and a pause that throws stops it", async () => {
    const { crfParams } = await import('../../src/crf/chain.js');
    const { fitBudget, fitBudgetAsync } = await import('../../src/prune/budget.js');
    const { buildRepairIndex } = await import('../../src/prune/repair.js');
    const { LineKind: K } = await import('../../src/syntax/types.js');
    const { handStructure } = await import('./structure-fixture.js');
    const LINES = ['def a():', '    x = 1', '    y = 2', 'def b():', '    z = 3'];
    const st = handStructure(5, {
      kind: [K.DefHeader, K.Code, K.Code, K.DefHeader, K.Code],
      parent: [-1, 0, 0, -1, 3],
      blockEnd: { 0: 2, 3: 4 },
      firstBodyLine: { 0: 1, 3: 4 },
    });
    const ctx = () => ({
      lines: LINES,
      structure: st,
      fused: Float64Array.from([0, 1, 0, 2, 0, -1, 0, 0.5, 0, 3]),
      fusedCrf: crfParams([0, 0, 0, 0]),
      value: Float64Array.from([1, 2, -1, 0.5, 3]),
      evidenceLed: new Uint8Array(5).fill(1),
      costs: new Float64Array(5).fill(4),
      counter: { name: 'words', count: (t: string) => t.split(/\s+/).filter(Boolean).length },
      commentPrefix: '#',
      cr: '',
      elision: 'compact' as const,
      repair: { syntactic: true, dependencies: true, language: 'python' as const, maxWholeSpan: 8, wholeSpans: null },
      repairIndex: buildRepairIndex(st, LINES, 'python'),
      units: new Map(),
    });
    for (const budget of [3, 6, 9, 14, 40]) {
      let pauses = 0;
      const a = fitBudget(ctx(), budget, new Map());
      const b = await fitBudgetAsync(ctx(), budget, new Map(), async () => {
        pauses++;
      });
      expect(b, `budget ${budget}`).toEqual(a);
      expect(pauses).toBeGreaterThan(0);
    }
    let n = 0;
    await expect(
      fitBudgetAsync(ctx(), 9, new Map(), async () => {
        if (++n === 2) throw new CtxpruneError('ABORTED', 'stop');
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(n).toBe(2);
  });
});

describe('PHP keeps its open tag (#16 item 12)', { timeout: 120_000 }, () => {
  // Without `<?php` the rest is inline HTML text: it parses, but no longer as PHP code.
  const fixtures = ['../fixtures/samples/Cart.php', '../fixtures/syntax/sample.php'];
  it('kept, as repair, whenever a line after it is kept, with either scorer and any ratio', async () => {
    const { readFileSync } = await import('node:fs');
    for (const f of fixtures) {
      const text = readFileSync(new URL(f, import.meta.url), 'utf8');
      expect(text.startsWith('<?php\n')).toBe(true);
      for (const scorer of ['lexical', 'neural'] as const) {
        for (const ratio of [2, 4, 8]) {
          for (const query of ['discount applied before price rules', 'subtotal fails when a price is missing']) {
            const r = await prune(text, { query, ratio, fileName: f.split('/').pop(), scorer });
            expect(r.stats.scorer).toBe(scorer);
            expect(r.keptLines[0], `${f} ${scorer} ${ratio}× "${query}"`).toBe(1);
            expect(r.text.startsWith('<?php\n')).toBe(true);
            expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
          }
        }
      }
    }
  });
  it('the tag before each PHP region of a template, not an HTML line', async () => {
    const { analyze, splitLines } = await import('../../src/syntax/index.js');
    const { buildRepairIndex, repairKeepSet } = await import('../../src/prune/repair.js');
    const text = '<html>\n<?php\n$a = 1;\n?>\n<p>x</p>\n<?= $a ?>\n<?php\n$b = 2;\necho $b;\n';
    const lines = splitLines(text);
    const st = await analyze(text, 'php');
    const index = buildRepairIndex(st, lines, 'php');
    const repaired = (line: number) => {
      const keep = new Uint8Array(st.lineCount);
      keep[line] = 1;
      repairKeepSet(
        keep,
        new Uint8Array(st.lineCount),
        st,
        { syntactic: true, dependencies: false, language: 'php', maxWholeSpan: 8, wholeSpans: null },
        index,
      );
      return [...keep.keys()].filter((t) => keep[t]);
    };
    expect(index.openTag.slice(0, 9)).toEqual(Int32Array.from([-1, 1, 1, 1, 1, 5, 6, 6, 6]));
    // `$b = 2;` needs the second `<?php`; `$a = 1;` the first; neither needs `<html>`.
    expect(repaired(7)).toContain(6);
    expect(repaired(2)).toContain(1);
    expect(repaired(2)).not.toContain(0);
  });
});

describe('a budget no line fits: the same degradations with either scorer (#16)', { timeout: 120_000 }, () => {
  // One line of 256 K characters at 8×: the line costs 8× the budget, so nothing is kept. The
  // model's document score is never 0, the lexical scorer's is 0 where no query term occurs: both
  // now say BUDGET_TOO_SMALL (before, only the model did).
  const budgetTooSmall = (budget: number) => ({
    code: 'BUDGET_TOO_SMALL',
    message: `budget of ${budget} tokens is too small for one evidence unit (its lines plus their repair): returned what fits`,
  });
  const notDetected = { code: 'LANGUAGE_NOT_DETECTED', message: 'language not detected: pruned line by line without syntax repair' };
  it.each([
    ['A', 'A'.repeat(1 << 18)],
    ['spaces', ' '.repeat(1 << 18)],
    ['=', '='.repeat(1 << 18)],
    ['CJK', '漢'.repeat(1 << 16)],
  ])('one line of %s', async (_name, text) => {
    for (const scorer of ['lexical', 'neural'] as const) {
      const r = await prune(text, { query: 'where is the fetch request init declared', ratio: 8, scorer });
      expect(r.stats.scorer).toBe(scorer);
      expect(r.keptLines).toEqual([]);
      expect(r.stats.degraded, scorer).toEqual([notDetected, budgetTooSmall(r.stats.budgetTokens)]);
    }
  });
  it('empty lines only: nothing to fit, not said (either scorer; the model runs under 50,000 lines)', async () => {
    for (const scorer of ['lexical', 'neural'] as const) {
      const r = await prune('\n'.repeat(20_000), { query: 'where is the fetch request init declared', ratio: 8, scorer });
      expect(r.stats.scorer).toBe(scorer);
      expect(r.stats.degraded, scorer).toEqual([notDetected]);
    }
  });
});
