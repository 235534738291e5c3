/** compact()'s hooks cannot hang it, and bad relevance scores do not pass silently (#16 item 11). */
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { checkedScores, DEFAULT_HOOK_TIMEOUT_MS, hookTimeout, withTimeout } from '../../src/compaction/hooks.js';
import { scoreRelevance } from '../../src/compaction/relevance.js';
import type { CompactOptions, Message } from '../../src/compaction/types.js';
import type { TokenCounter } from '../../src/text/tokens.js';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const never = () => new Promise<never>(() => undefined);

function transcript(): Message[] {
  return [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' },
    { id: 'u1', role: 'user', content: 'Please look at the repository layout.' },
    {
      id: 't1',
      role: 'tool',
      toolName: 'read_file',
      content: Array.from({ length: 20 }, (_, i) => `def parse_header_${i}(raw): return raw.split(":")`).join('\n'),
    },
    {
      id: 't2',
      role: 'tool',
      toolName: 'read_file',
      content: Array.from({ length: 20 }, (_, i) => `def render_template_${i}(tpl): return tpl.render()`).join('\n'),
    },
    { id: 'u2', role: 'user', content: 'Fix the header parser bug in parse_header' },
    { id: 'a3', role: 'assistant', content: 'Running tests.' },
  ];
}
const opts = (o: Partial<CompactOptions>): CompactOptions => ({ tokens: 80, tokenCounter: words, ...o });

describe('hook guards', () => {
  it('withTimeout passes answers through and rejects after the limit', async () => {
    expect(await withTimeout(Promise.resolve(3), 50, 'x')).toBe(3);
    expect(await withTimeout(5, Number.POSITIVE_INFINITY, 'x')).toBe(5);
    await expect(withTimeout(never(), 20, 'goal callback')).rejects.toThrow('goal callback gave no answer in 20 ms');
  });

  it('hookTimeout: 30 s by default, a positive number, else INVALID_OPTION', () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(30_000);
    expect(hookTimeout(undefined)).toBe(30_000);
    expect(hookTimeout(250)).toBe(250);
    expect(hookTimeout(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    for (const bad of [0, -1, Number.NaN, '5']) expect(() => hookTimeout(bad)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });

  it('checkedScores rejects NaN, infinite, non-number and missing scores', () => {
    expect(checkedScores([1, 0, 2.5], 3)).toEqual([1, 0, 2.5]);
    expect(() => checkedScores([1, Number.NaN], 2)).toThrow('relevance hook returned NaN for text 2 of 2');
    expect(() => checkedScores([Number.POSITIVE_INFINITY, 1], 2)).toThrow('relevance hook returned Infinity for text 1 of 2');
    expect(() => checkedScores([1, '2'], 2)).toThrow('relevance hook returned string for text 2 of 2');
    expect(() => checkedScores([1], 2)).toThrow('relevance hook returned 1 scores for 2 texts');
  });

  it('scoreRelevance gives up on a relevance hook past its limit', async () => {
    await expect(scoreRelevance('goal', ['a', 'b'], never, 30)).rejects.toThrow('relevance hook gave no answer in 30 ms');
  });
});

describe('compact with misbehaving hooks', { timeout: 60_000 }, () => {
  it('a summarizeGoal that never resolves: the latest user message is the goal, said in degraded', async () => {
    const t0 = performance.now();
    const r = await compact(transcript(), opts({ strategy: 'task_aware', summarizeGoal: never, hookTimeoutMs: 50 }));
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(r.dump.goalSource).toBe('latest_user');
    expect(r.dump.goal).toBe('Fix the header parser bug in parse_header');
    expect(r.degraded).toEqual([
      { code: 'GOAL_CALLBACK_FAILED', message: 'goal callback failed (goal callback gave no answer in 50 ms): scored against the latest user message' },
    ]);
  });

  it('NaN relevance from the hook: the lexical scorer, said in degraded', async () => {
    const r = await compact(transcript(), opts({ strategy: 'task_aware', relevance: async (_g, texts) => texts.map(() => Number.NaN) }));
    expect(r.dump.relevanceBackend).toBe('lexical-bm25');
    expect(r.degraded).toEqual([
      { code: 'RELEVANCE_HOOK_FAILED', message: 'relevance hook failed (relevance hook returned NaN for text 1 of 4): used the lexical scorer' },
    ]);
  });

  it('a bad hookTimeoutMs is INVALID_OPTION', async () => {
    await expect(compact(transcript(), opts({ strategy: 'task_aware', summarizeGoal: async () => 'x', hookTimeoutMs: -5 }))).rejects.toMatchObject({
      code: 'INVALID_OPTION',
    });
  });
});
