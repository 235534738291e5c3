import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { documentEvidence, GOAL_TERM_WEIGHTS, goalTermScores, namedScores, namesBase, namesPath, taskNamed, testReads } from '../../src/compaction/evidence.js';
import { pairsOf } from '../../src/compaction/pairs.js';
import { minMax } from '../../src/compaction/relevance.js';
import type { Message } from '../../src/compaction/types.js';
import type { Scorer, ScorerOutput } from '../../src/scorers/types.js';
import type { TokenCounter } from '../../src/text/tokens.js';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

// Two reads of 30 words; the goal names the parser, so BM25 of the goal prefers t1.
const messages: Message[] = [
  { id: 'sys', role: 'system', content: 'You are a coding agent.' },
  { id: 'u1', role: 'user', content: 'Please look at the repository layout.' },
  { id: 'a1', role: 'assistant', content: 'Reading the parser.' },
  {
    id: 't1',
    role: 'tool',
    toolName: 'read_file',
    content:
      'def parseHeader(raw):\n    name, value = raw.split(":", 1)\n    header = Header(name.strip(), value.strip())\n    if not header.name: raise HeaderError("empty header name")\n    return the header parser result for the header value and its name',
  },
  { id: 'a2', role: 'assistant', content: 'Reading the renderer.' },
  {
    id: 't2',
    role: 'tool',
    toolName: 'read_file',
    content:
      'def renderTemplate(tpl, ctx):\n    html = tpl.render(ctx)\n    escaped = escapeHtml(html) if ctx.autoescape else html\n    layout = Layout(body=escaped, title=ctx.title, footer=ctx.footer)\n    return layout.page() and the rendered template page html markup output text now',
  },
  { id: 'u2', role: 'user', content: 'Fix the header parser bug in parseHeader' },
  { id: 'a3', role: 'assistant', content: 'Running tests.' },
  { id: 't3', role: 'tool', toolName: 'run_tests', content: 'FAILED test_header - AssertionError' },
];

/** A scorer whose document score is 0.9 for the renderer and 0.1 for everything else; it records the queries. */
function renderLover(queries: string[]): Scorer {
  return {
    name: 'stub',
    score: (input) => {
      queries.push(input.query);
      return { documentScore: input.lines.join('\n').includes('renderTemplate') ? 0.9 : 0.1 } as ScorerOutput;
    },
  };
}

/** A tool call (an assistant message) and its result, paired by `call_<id>`. */
const call = (id: string, name: string, args: unknown, content = ''): Message => ({
  id,
  role: 'assistant',
  content,
  toolCalls: [{ id: `call_${id}`, name, arguments: JSON.stringify(args) }],
});
const result = (id: string, name: string, content: string): Message => ({ id: `t-${id}`, role: 'tool', toolName: name, toolCallId: `call_${id}`, content });

const relevance = (r: Awaited<ReturnType<typeof compact>>) => Object.fromEntries(r.dump.blocks.map((b) => [b.messageId, b.relevance]));

describe('compaction: which read gets the budget (documentScorer)', () => {
  const parserTerms = goalTermScores('Fix the header parser bug in parseHeader', messages, pairsOf(messages), [3])[0];
  it("by default ('bm25') whole messages are rated by BM25 of the goal: the parser stays, the renderer goes", async () => {
    const r = await compact(messages, { strategy: 'task_aware', tokens: 70, tokenCounter: words });
    // The parser: half its text's BM25 (1), half its message's (1, plus the goal's words in it).
    expect(relevance(r).t1).toBeCloseTo(0.5 + 0.5 * (1 + parserTerms), 4);
    expect(relevance(r).t2).toBe(0);
    expect(r.evicted).toEqual(['t2']);
  });

  it("a scorer's document score (goal as the query, min-max over the messages) replaces BM25 for the whole message", async () => {
    const queries: string[] = [];
    const r = await compact(messages, { strategy: 'task_aware', tokens: 70, tokenCounter: words, documentScorer: renderLover(queries) });
    // Each unit: half its own text's BM25, half its message's document score (renderer 1, the rest
    // 0) plus the goal's words in it (the parser's; the renderer holds none).
    expect(relevance(r).t1).toBeCloseTo(0.5 + 0.5 * parserTerms, 4);
    expect(relevance(r).t2).toBe(0.5);
    expect(queries.length).toBeGreaterThan(0);
    expect(new Set(queries)).toEqual(new Set(['Fix the header parser bug in parseHeader']));
    // The renderer is rated best as a whole (1 against the parser's goal words alone), so it keeps its place (floor.ts).
    expect(r.evicted).toEqual(['t1']);
  });

  it('a relevance hook wins over the document scorer, and plain MIG (no goal) never asks it', async () => {
    const queries: string[] = [];
    await compact(messages, {
      strategy: 'task_aware',
      tokens: 70,
      tokenCounter: words,
      documentScorer: renderLover(queries),
      relevance: async (_g, ts) => ts.map(() => 1),
    });
    await compact(messages, { strategy: 'mig', tokens: 70, tokenCounter: words, documentScorer: renderLover(queries) });
    expect(queries).toEqual([]);
  });

  it("documentEvidence: 'bm25' and undefined give none, an unknown name falls back to none, an instance is used", async () => {
    expect(await documentEvidence(undefined)).toBeNull();
    expect(await documentEvidence('bm25')).toBeNull();
    expect(await documentEvidence('no-such-scorer')).toBeNull();
    const fn = await documentEvidence(renderLover([]));
    expect(await fn!('goal', ['def renderTemplate(): pass', 'x = 1'])).toEqual([0.9, 0.1]);
  });

  it('minMax maps onto 0..1; equal or non-finite input gives zeros where it must', () => {
    expect(minMax([0, 4, 1, 2])).toEqual([0, 1, 0.25, 0.5]);
    expect(minMax([0.3, 0.3])).toEqual([0, 0]);
    expect(minMax([NaN, 2])).toEqual([0, 1]);
  });

  it('documentScorer must be a name or a scorer', async () => {
    await expect(compact(messages, { strategy: 'task_aware', tokens: 70, tokenCounter: words, documentScorer: 42 as never })).rejects.toThrow(
      'documentScorer must be a scorer name, "bm25" or an object with a score() method',
    );
  });
});

describe('compaction: the files the transcript names (mentionWeight)', () => {
  // Two reads that share the goal's words equally (neither path holds one); only the grep names one of them.
  const body = (fn: string) => `def ${fn}(raw):\n    value = raw.strip()\n    return convert the value and check the value again here for the caller`;
  const transcript: Message[] = [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' },
    { id: 'u1', role: 'user', content: 'The value conversion is wrong' },
    call('grep', 'grep', { pattern: 'convert' }),
    result('grep', 'grep', 'pkg/first.py:3:    return convert the value\npkg/first.py:9:def convert(x):\ntests/test_first.py:4:convert(1)'),
    call('r1', 'read_file', { path: 'pkg/first.py' }, 'Reading pkg/first.py.'),
    result('r1', 'read_file', body('first')),
    call('r2', 'read_file', { path: './pkg/other.py' }, 'Reading pkg/other.py.'),
    result('r2', 'read_file', body('other')),
    { id: 'u2', role: 'user', content: 'The value conversion is wrong: convert the value' },
    call('test', 'run_tests', {}),
    result('test', 'run_tests', '1 failed'),
  ];

  it('namesPath: the path whole, after a directory or a non-path character, not inside a longer name', () => {
    expect(namesPath('lib/a.js:12: x = 1', 'lib/a.js')).toBe(true);
    expect(namesPath('  File "/home/u/repo/lib/a.js", line 3', 'lib/a.js')).toBe(true);
    expect(namesPath('See lib/a.js.', 'lib/a.js')).toBe(true);
    expect(namesPath('mylib/a.js:1:', 'lib/a.js')).toBe(false);
    expect(namesPath('lib/a.jsx:1:', 'lib/a.js')).toBe(false);
    expect(namesPath('lib/a.js.map', 'lib/a.js')).toBe(false);
  });

  it('namedScores: lines of the other messages naming the read file (log-scaled, 0..1); its own call does not count', () => {
    const pairs = pairsOf(transcript);
    // t-r1 (index 5) is named by two grep lines; t-r2 (index 7, "./pkg/other.py") only by its own call.
    expect(namedScores(transcript, pairs, [3, 5, 7])).toEqual([0, 1, 0]);
    const none = transcript.map((m) => (m.id === 't-grep' ? { ...m, content: '(no matches)' } : m));
    expect(namedScores(none, pairsOf(none), [3, 5, 7])).toEqual([0, 0, 0]);
  });

  it('the read the grep names gets the budget; mentionWeight 0 leaves the tie to recency', async () => {
    const named = await compact(transcript, { strategy: 'task_aware', tokens: 62, tokenCounter: words });
    expect(named.evicted).toContain('t-r2');
    expect(named.evicted).not.toContain('t-r1');
    const off = await compact(transcript, { strategy: 'task_aware', tokens: 62, tokenCounter: words, mentionWeight: 0 });
    expect(off.evicted).toContain('t-r1');
    expect(off.evicted).not.toContain('t-r2');
  });

  it('mentionWeight is a number from 0 to 1', async () => {
    await expect(compact(transcript, { strategy: 'task_aware', tokens: 62, tokenCounter: words, mentionWeight: 2 })).rejects.toThrow(
      'mentionWeight must be a number from 0 to 1, got 2',
    );
  });
});

describe('compaction: the files the task names (a floor of relevance)', () => {
  const read = (id: string, path: string, content: string) => [call(id, 'read_file', { path }, 'Reading.'), result(id, 'read_file', content)];
  // Two reads that share no word with the task: only the task's naming sets them apart.
  const body = (fn: string) =>
    `export function ${fn}(kind) {\n  const table = lookup(kind);\n  return table.entries.filter((e) => e.key).join(",") + " done";\n}`;
  const transcript = (task: string): Message[] => [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' },
    { id: 'u1', role: 'user', content: task },
    ...read('r1', 'src/switcher.ts', body('pick')),
    ...read('r2', 'src/parser.ts', body('other')),
    ...read('r3', 'lib/app.js', body('third')),
    { id: 'a9', role: 'assistant', content: 'Done reading.' },
    { id: 'a10', role: 'assistant', content: 'Next.' },
  ];

  it('namesBase: the base name alone, not the end of a longer path or name', () => {
    const lines = ['Update rendering.ts (#1966)', 'see `rendering.ts`.', 'src/server/rendering.ts:12:', 'prerendering.ts', 'rendering.tsx'];
    expect(lines.map((line) => namesBase(line, 'rendering.ts'))).toEqual([true, true, false, false, false]);
  });

  it('taskNamed: a user message names a read by path, base name or stem (4+ characters) as a word', () => {
    const named = (task: string) => {
      const t = transcript(task);
      return taskNamed(t, pairsOf(t), [3, 5, 7]);
    };
    expect(named('Add set to ZodTypes.map in switcher')).toEqual([true, false, false]);
    expect(named('Update parser.ts')).toEqual([false, true, false]);
    expect(named('Fix lib/app.js and the Switcher')).toEqual([true, false, true]);
    // `app` is too short a stem to name a file, `switchers` is another word, `parsers/x.ts` another path.
    expect(named('The app breaks: switchers fail in parsers/x.ts')).toEqual([false, false, false]);
  });

  it('the read the task names is rated at least 0.6 as a whole; with mentionWeight 0 only the word its path shares is left', async () => {
    // 65 words in all; 55 leave room for one of the three 20-word reads beside the placeholders.
    const t = transcript('Add set to ZodTypes.map in switcher');
    const half = GOAL_TERM_WEIGHTS.path / 2; // "switcher": 1 of the path's 2 words that count
    const named = await compact(t, { strategy: 'task_aware', tokens: 55, tokenCounter: words });
    expect(named.evicted).toEqual(['t-r2', 't-r3']);
    // Half the read's text's BM25 (0: no word in common), half its message's (the floor, plus the path word).
    expect(relevance(named)['t-r1']).toBeCloseTo(0.5 * (0.6 + half), 4);
    const off = await compact(t, { strategy: 'task_aware', tokens: 55, tokenCounter: words, mentionWeight: 0 });
    expect(relevance(off)['t-r1']).toBeCloseTo(0.5 * half, 4);
    expect(off.evicted).toEqual(['t-r2', 't-r3']);
  });
});

describe("compaction: the goal's words in a read (goalTermScores)", () => {
  const transcript = (task: string): Message[] => [
    { id: 'u1', role: 'user', content: task },
    call('r1', 'read_file', { path: 'falcon/response_helpers.py' }, 'Reading.'),
    result('r1', 'read_file', 'def format_header_value_list(values):\n    return ", ".join(values)\n\ndef is_ascii(text):\n    return True'),
    call('r2', 'read_file', { path: 'falcon/util/misc.py' }, 'Reading.'),
    result('r2', 'read_file', 'class Timer:\n    def start(self):\n        self.value = 0\n\nif ready(x):\n    pass'),
    result('r3', 'run_tests', 'FAILED test_headers'),
  ];

  it("path words, defined names and the share of the goal's words, stemmed", () => {
    // Goal words (stems): fix, respons, convert, header, valu ("to" and "str" are stopwords).
    const t = transcript('fix(Response): convert header values to str');
    const [helpers, misc, log] = goalTermScores(t[0].content, t, pairsOf(t), [2, 4, 5]);
    const w = GOAL_TERM_WEIGHTS;
    // response_helpers: "respons" in the path (1 of 2), header and valu defined (2 of 3), 2 of 5 words held.
    expect(helpers).toBeCloseTo(w.path / 2 + (w.defined * 2) / 3 + (w.share * 2) / 5, 10);
    // misc: `self.value` holds "valu"; `start` is defined, `if ready(x):` is no definition.
    expect(misc).toBeCloseTo((w.share * 1) / 5, 10);
    // A result without a path: its words only ("header" in test_headers).
    expect(log).toBeCloseTo((w.share * 1) / 5, 10);
  });

  it('a goal with no words gives zeros', () => {
    const t = transcript('to the of');
    expect(goalTermScores(t[0].content, t, pairsOf(t), [2, 4])).toEqual([0, 0]);
  });
});

describe('compaction: reads of tests, docs and fixtures (testReads)', () => {
  // The source and its test hold the same words; the test holds them more often. 20 more words each.
  const filler = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\nconst e = 5;\n';
  const transcript = (task: string): Message[] => [
    { id: 'u1', role: 'user', content: task },
    call('r1', 'read_file', { path: 'src/parser.ts' }, 'Reading.'),
    result('r1', 'read_file', 'export function parseHeader(raw: string) {\n  return raw.split(":");\n}\n' + filler),
    call('r2', 'read_file', { path: 'src/__tests__/parser.test.ts' }, 'Reading.'),
    result(
      'r2',
      'read_file',
      'it("parseHeader splits a header", () => {\n  expect(parseHeader("a:b")).toEqual(["a", "b"]);\n  expect(parseHeader("header")).toEqual(["header"]);\n});\n' +
        filler,
    ),
    call('r3', 'run_tests', {}, 'Testing.'),
    result('r3', 'run_tests', 'ok'),
  ];

  it('says which reads are of test, docs or fixture files (locate.isTestPath); a result without a path is none', () => {
    const t = transcript('Fix parseHeader for an empty header');
    expect(testReads(t[0].content, pairsOf(t), [2, 4, 6])).toEqual([false, true, false]);
    // A goal about tests or docs needs their reads: none is marked.
    for (const goal of ['Add tests for parseHeader', 'Fix the docs of parseHeader', 'parseHeader: failing spec'])
      expect(testReads(goal, pairsOf(t), [2, 4, 6])).toEqual([false, false, false]);
  });

  it('a read of a test file is rated 0.3 as high as a whole, unless the task names it', async () => {
    const whole = async (task: string) => {
      const r = await compact(transcript(task), { strategy: 'task_aware', tokens: 50, tokenCounter: words });
      const first = Object.fromEntries(r.dump.blocks.filter((b) => b.id.endsWith('#0')).map((b) => [b.messageId, b.relevance!]));
      return { r, first };
    };
    // BM25 rates the test first (it says parseHeader and header three times each), as it does when
    // the task names it (below); the factor puts the source first and the test is evicted.
    const { r, first } = await whole('Fix parseHeader for an empty header');
    expect(first['t-r1']).toBeGreaterThan(first['t-r2']);
    expect(r.evicted).toContain('t-r2');
    expect(r.evicted).not.toContain('t-r1');
    // Named by the task, the test keeps its rating.
    const named = await whole('Fix parseHeader for an empty header in parser.test.ts');
    expect(named.first['t-r2']).toBeGreaterThan(named.first['t-r1']);
    // Also with the transcript's evidence off (mentionWeight 0, no floor): the same words said by
    // the user name the test, said by the assistant they do not; only the named read keeps its rating.
    const testRating = async (role: 'user' | 'assistant') => {
      const t: Message[] = [{ id: 'x', role, content: 'Look at parser.test.ts.' }, ...transcript('Fix parseHeader for an empty header')];
      const r = await compact(t, { strategy: 'task_aware', tokens: 60, tokenCounter: words, mentionWeight: 0, goal: 'Fix parseHeader for an empty header' });
      return r.dump.blocks.find((b) => b.id === 't-r2#0')!.relevance!;
    };
    expect(await testRating('user')).toBeGreaterThan(await testRating('assistant'));
  });
});
