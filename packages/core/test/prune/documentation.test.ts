/**
 * Documentation against code (prune/documentation.ts): which lines are docstrings and comments,
 * which queries are about them, and that lowering or raising them leaves every other emission as it was.
 */
import { describe, expect, it } from 'vitest';
import type { RubricEmissions } from '../../src/crf/rubrics.js';
import {
  documentationLines,
  docstringLines,
  queryAboutDocs,
  weighDocumentation,
  withDocstringsLowered,
  withDocumentationRaised,
} from '../../src/prune/documentation.js';
import { prune } from '../../src/prune/pipeline.js';
import { analyze, splitLines } from '../../src/syntax/index.js';

const SOURCE = [
  '"""Module docstring."""', // 1
  'import os', // 2
  '', // 3
  'class Cache:', // 4
  "    '''Holds entries.", // 5
  '', // 6
  '    Evicts the oldest first.', // 7
  "    '''", // 8
  '    size = 3', // 9
  '    "Number of entries kept."', // 10
  '', // 11
  '    def get(self, key):', // 12
  '        r"""Return the entry for ``key``."""', // 13
  '        return ", ".join(self.keys)', // 14
  '', // 15
  '    def put(self, key, value):', // 16
  '        "%s=%s" % (key, value)', // 17
  '        "".join(self.keys)', // 18
  '        self.log(f"""put {key}""")', // 19
  '        """Not first, still a bare string.', // 20
  '        """', // 21
  '        return b"ok"', // 22
].join('\n');

const docLines = (marks: Uint8Array) => [...marks].flatMap((m, i) => (m ? [i + 1] : []));

function emissions(n: number, margin: (t: number) => number): RubricEmissions {
  const head = () => {
    const E = new Float64Array(2 * n);
    for (let t = 0; t < n; t++) E[2 * t + 1] = margin(t);
    return E;
  };
  const crf = { transitions: [0, 0, 0, 0], start: [0, 0], end: [0, 0] };
  return { n, heads: [head(), head()], gate: new Float64Array(2 * n).fill(0.5), headCrfs: [crf, crf], fusedCrf: crf };
}

describe('docstringLines', () => {
  it('marks statements that are only a string literal, single- or multi-line, any prefix or quote', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    expect(docLines(docstringLines(lines, st))).toEqual([1, 5, 6, 7, 8, 10, 13, 20, 21]);
  });

  it('marks nothing in a file without string statements', async () => {
    const text = 'def f(x):\n    return "a" + x\n';
    expect(docLines(docstringLines(splitLines(text), await analyze(text, 'python')))).toEqual([]);
  });
});

describe('withDocstringsLowered', () => {
  it('lowers the keep emission of docstring lines by weight × the spread of each head, nothing else', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    const r = emissions(lines.length, (t) => (t % 2 ? 1 : -1)); // margins ±1: spread 1 (22 lines)
    const lowered = withDocstringsLowered(r, lines, st, 'python', 2);
    const doc = docstringLines(lines, st);
    for (const [k, E] of lowered.heads.entries()) {
      for (let t = 0; t < lines.length; t++) {
        expect(E[2 * t], `head ${k} line ${t + 1} prune`).toBe(r.heads[k][2 * t]);
        expect(E[2 * t + 1], `head ${k} line ${t + 1} keep`).toBeCloseTo(r.heads[k][2 * t + 1] - (doc[t] ? 2 : 0), 12);
      }
    }
    // The input is not modified (a scorer's output may be shared by several budgets).
    expect(r.heads[0][1]).toBe(-1);
  });

  it('returns its input for other languages, a weight of 0 and a file without docstrings', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    const r = emissions(lines.length, () => 0);
    expect(withDocstringsLowered(r, lines, st, 'typescript')).toBe(r);
    expect(withDocstringsLowered(r, lines, st, 'python', 0)).toBe(r);
    const plain = 'x = 1\n';
    expect(
      withDocstringsLowered(
        emissions(2, () => 0),
        splitLines(plain),
        await analyze(plain, 'python'),
        'python',
      ).heads[0][1],
    ).toBe(0);
  });
});

describe('queryAboutDocs', () => {
  it('is true when the subject line speaks of documentation', () => {
    for (const q of [
      'Correct parameter types for Nested field in docs',
      'Fix typo in docstring of Session.send',
      'Documentation: explain the retry policy',
      '  \n\nDocument the `timeout` argument',
      'Spelling fixes',
      'fix(rst): broken sphinx reference',
    ])
      expect(queryAboutDocs(q), q).toBe(true);
  });

  it('is false for a subject about code, even when the body or a word inside a name mentions docs', () => {
    for (const q of [
      'Retry on connection reset',
      'Handle negative radius\n\nAlso updated the docs.',
      'Crash in doc_string parser',
      'Add a comment explaining the cache',
      'Set the field description from the schema',
      'Parse documents lazily',
      'Move focus back to document.body when the element is removed',
      'Parse XML into a :class:`~xml.dom.minidom.Document` object',
      '',
    ])
      expect(queryAboutDocs(q), q).toBe(false);
  });
});

describe('withDocumentationRaised and weighDocumentation', () => {
  it('marks comments in any language and Python docstrings as documentation', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    expect(docLines(documentationLines(lines, st, 'python'))).toEqual([1, 5, 6, 7, 8, 10, 13, 20, 21]);
    const ts = '/** Adds. */\nexport function add(a: number, b: number) {\n  // both\n  return a + b;\n}\n';
    expect(docLines(documentationLines(splitLines(ts), await analyze(ts, 'typescript'), 'typescript'))).toEqual([1, 3]);
  });

  it('raises the keep emission of documentation lines by weight × the spread of each head, nothing else', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    const r = emissions(lines.length, (t) => (t % 2 ? 1 : -1));
    const raised = withDocumentationRaised(r, lines, st, 'python', 0.5);
    const doc = documentationLines(lines, st, 'python');
    for (const [k, E] of raised.heads.entries())
      for (let t = 0; t < lines.length; t++) {
        expect(E[2 * t], `head ${k} line ${t + 1} prune`).toBe(r.heads[k][2 * t]);
        expect(E[2 * t + 1], `head ${k} line ${t + 1} keep`).toBeCloseTo(r.heads[k][2 * t + 1] + (doc[t] ? 0.5 : 0), 12);
      }
    expect(r.heads[0][1]).toBe(-1);
    expect(withDocumentationRaised(r, lines, st, 'python', 0)).toBe(r);
  });

  it('raises for a query about the documentation and lowers Python docstrings for any other', async () => {
    const lines = splitLines(SOURCE);
    const st = await analyze(SOURCE, 'python');
    const r = emissions(lines.length, (t) => (t % 2 ? 1 : -1));
    const keep = (x: RubricEmissions, t: number) => x.heads[0][2 * t + 1];
    // Line 7 is a docstring line (index 6, margin −1).
    expect(keep(weighDocumentation(r, 'Fix typo in docs', lines, st, 'python'), 6)).toBeCloseTo(0, 12);
    expect(keep(weighDocumentation(r, 'Retry on reset', lines, st, 'python'), 6)).toBeCloseTo(-2, 12);
    expect(keep(weighDocumentation(r, 'Retry on reset', lines, st, 'python', { docstringWeight: 2 }), 6)).toBeCloseTo(-3, 12);
    expect(weighDocumentation(r, 'Fix typo in docs', lines, st, 'python', { docsQueryWeight: 0 })).toBe(r);
  });
});

describe('prune() with docstrings lowered', () => {
  const FILE = [
    'import math',
    '',
    '',
    'def area(radius):',
    '    """Compute the area of a circle from its radius.',
    '',
    '    The radius must not be negative; a negative radius raises ValueError.',
    '    """',
    '    if radius < 0:',
    '        raise ValueError(radius)',
    '    return math.pi * radius ** 2',
    '',
    '',
    'def perimeter(radius):',
    '    """Compute the perimeter of a circle from its radius."""',
    '    return 2 * math.pi * radius',
    '',
  ].join('\n');
  const query = 'negative radius should raise ValueError';

  it('keeps the code a docstring describes before the docstring', async () => {
    const base = { query, tokens: 40, fileName: 'circle.py', scorer: 'lexical' as const };
    const lowered = await prune(FILE, base);
    const asBefore = await prune(FILE, { ...base, tuning: { docstringWeight: 0 } });
    // Without the weight the docstring's line 7 (its words are the query's) is kept; with it, the check it describes.
    expect(asBefore.keptLines).toContain(7);
    expect(lowered.keptLines).toEqual(expect.arrayContaining([9, 10]));
    expect(lowered.keptLines).not.toContain(7);
  });

  it('keeps the docstrings when the task is about the documentation', async () => {
    const docsQuery = 'Docs: a negative radius raises ValueError';
    const base = { query: docsQuery, tokens: 40, fileName: 'circle.py', scorer: 'lexical' as const };
    const about = await prune(FILE, base);
    expect(about.keptLines).toContain(7);
    // Not raised: as the scorer rates them.
    const asRated = await prune(FILE, { ...base, tuning: { docsQueryWeight: 0 } });
    expect(asRated.keptLines).toEqual((await prune(FILE, { ...base, query: 'a negative radius raises ValueError', tuning: { docstringWeight: 0 } })).keptLines);
    // The same words as a body line, under a subject about the code: the docstring is lowered.
    const body = await prune(FILE, { ...base, query: `${query}\n\nDocs: a negative radius raises ValueError` });
    expect(body.keptLines).not.toContain(7);
  });

  it('leaves an outline (empty query) as it was', async () => {
    for (const tokens of [30, 60]) {
      const base = { query: '', tokens, fileName: 'circle.py', scorer: 'lexical' as const };
      expect((await prune(FILE, base)).keptLines).toEqual((await prune(FILE, { ...base, tuning: { docstringWeight: 0 } })).keptLines);
    }
  });
});
