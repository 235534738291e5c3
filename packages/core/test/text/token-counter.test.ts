/** #16 items 2 and 10: special-token strings are text; a caller's bad token counter is a typed error. */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import type { Message } from '../../src/compaction/types.js';
import { CtxpruneError } from '../../src/errors.js';
import { prune } from '../../src/prune/pipeline.js';
import { checkedCounter, type TokenCounter } from '../../src/text/tokens.js';

const ref = new Tiktoken(o200kRanks);
const refCount = (s: string) => ref.encode(s, [], []).length;

const PY = [
  'import os',
  '',
  'EOT = "<|endoftext|>"',
  'PROMPT_END = "<|endofprompt|>"',
  '',
  'def strip_markers(text):',
  '    # remove <|endoftext|> and <|endofprompt|> from model output',
  '    return text.replace(EOT, "").replace(PROMPT_END, "")',
  '',
  'def size(path):',
  '    return os.path.getsize(path)',
  '',
].join('\n');

async function rejection(p: Promise<unknown>): Promise<CtxpruneError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CtxpruneError);
    return e as CtxpruneError;
  }
  throw new Error('expected a CtxpruneError');
}

describe('special-token strings are ordinary text (#16 item 6)', () => {
  for (const scorer of ['lexical', 'neural'] as const) {
    it(`prune with the ${scorer} scorer keeps and counts them`, async () => {
      const r = await prune(PY, { query: 'strip the endoftext marker', ratio: 2, scorer, language: 'python' });
      expect(r.stats.outputTokens).toBe(refCount(r.text));
      expect(r.stats.originalTokens).toBe(refCount(PY));
      expect(refCount(r.text)).toBeLessThanOrEqual(r.stats.budgetTokens);
      const lines = PY.split('\n');
      for (const k of r.keptLines) expect(r.text.split('\n')).toContain(lines[k - 1]);
    }, 60_000);
  }
  it('compact counts them with the default counter', async () => {
    const messages: Message[] = [
      { id: 'u', role: 'user', content: 'Why does the output end in <|endoftext|>?' },
      { id: 't', role: 'tool', toolName: 'read_file', content: PY.repeat(6) },
      { id: 'a', role: 'assistant', content: 'The model emits <|endofprompt|> too.' },
    ];
    const r = await compact(messages, { tokens: 200 });
    expect(r.messages.reduce((a, m) => a + refCount(m.content), 0)).toBeLessThanOrEqual(200);
  }, 60_000);
});

describe('a custom tokenCounter is checked (#16 item 10)', () => {
  const bad: [string, TokenCounter][] = [
    ['NaN', { name: 'nan', count: () => NaN }],
    ['negative', { name: 'neg', count: (t) => -t.length }],
    ['non-integer', { name: 'half', count: (t) => t.length / 3 + 0.5 }],
    ['Infinity', { name: 'inf', count: () => Infinity }],
    ['a string', { name: 'str', count: () => '12' as never }],
    [
      'throwing',
      {
        name: 'boom',
        count: () => {
          throw new Error('tokenizer crashed');
        },
      },
    ],
    [
      'throwing a non-Error',
      {
        name: 'boom2',
        count: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- a caller's counter may throw anything
          throw 'nope';
        },
      },
    ],
  ];
  for (const [what, c] of bad) {
    it(`prune: ${what} → INVALID_OPTION`, async () => {
      const e = await rejection(prune(PY, { query: 'size', ratio: 2, scorer: 'lexical', tokenCounter: c }));
      expect(e.code).toBe('INVALID_OPTION');
      expect(e.message).toContain(`tokenCounter ${c.name}`);
    }, 60_000);
    it(`compact: ${what} → INVALID_OPTION`, async () => {
      const ms: Message[] = [
        { id: 'u', role: 'user', content: 'hello there' },
        { id: 't', role: 'tool', content: PY },
      ];
      const e = await rejection(compact(ms, { tokens: 10, tokenCounter: c }));
      expect(e.code).toBe('INVALID_OPTION');
    }, 60_000);
  }
  it('a counter whose count fails only on some texts still fails typed', async () => {
    const sometimes: TokenCounter = { name: 'late', count: (t) => (t.includes('# …') || t.length < 40 ? NaN : Math.ceil(t.length / 4)) };
    const e = await rejection(prune(PY, { query: 'size', ratio: 3, scorer: 'lexical', tokenCounter: sometimes }));
    expect(e.code).toBe('INVALID_OPTION');
  }, 60_000);
  it('bad lineCosts output is INVALID_OPTION', async () => {
    const c: TokenCounter = {
      name: 'lc',
      count: (t) => Math.ceil(t.length / 4),
      lineCosts: (_t, lines) => ({ total: NaN, costs: new Float64Array(lines.length) }),
    };
    expect((await rejection(prune(PY, { query: 'size', ratio: 2, scorer: 'lexical', tokenCounter: c }))).code).toBe('INVALID_OPTION');
    const short: TokenCounter = { name: 'lc2', count: (t) => Math.ceil(t.length / 4), lineCosts: () => ({ total: 3, costs: new Float64Array(1) }) };
    expect((await rejection(prune(PY, { query: 'size', ratio: 2, scorer: 'lexical', tokenCounter: short }))).code).toBe('INVALID_OPTION');
  }, 60_000);
  it('not a counter at all', async () => {
    for (const c of [null, {}, { count: 3 }, 'o200k']) {
      expect((await rejection(prune(PY, { query: 'size', tokenCounter: c as never }))).code).toBe('INVALID_OPTION');
      expect(() => checkedCounter(c)).toThrow(CtxpruneError);
    }
  }, 60_000);
  it('a good counter passes through unchanged', async () => {
    const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
    const r = await prune(PY, { query: 'size', ratio: 2, scorer: 'lexical', tokenCounter: words });
    expect(r.stats.outputTokens).toBe(words.count(r.text));
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(checkedCounter(words).count('a b c')).toBe(3);
    expect(checkedCounter(words).count('')).toBe(0);
  }, 60_000);
});
