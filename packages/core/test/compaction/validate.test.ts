import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { CtxpruneError } from '../../src/errors.js';
import type { TokenCounter } from '../../src/text/tokens.js';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const ok = [{ id: 'u', role: 'user', content: 'hello there' }] as const;

async function error(p: Promise<unknown>): Promise<CtxpruneError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(CtxpruneError);
    return e as CtxpruneError;
  }
  throw new Error('expected an error');
}

describe('compact: config validation', () => {
  it('unknown strategy lists the valid ones', async () => {
    const e = await error(compact([...ok], { tokens: 10, strategy: 'oldest' as never, tokenCounter: words }));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toBe('unknown compaction strategy "oldest" (valid: reactive, task_aware, mig, task_aware_mig)');
  });

  it('tokens must be a positive finite number', async () => {
    for (const t of [0, -5, NaN, Infinity, '100', undefined]) {
      const e = await error(compact([...ok], { tokens: t as never, tokenCounter: words }));
      expect(e.code).toBe('INVALID_BUDGET');
      expect(e.message).toBe(`tokens must be a positive finite number, got ${String(t)}`);
    }
  });

  it('messages are checked for shape', async () => {
    const cases: [unknown, string][] = [
      [null, 'messages must be an array of {id, role, content}, got null'],
      [[1], 'messages[0] must be an object {id, role, content}'],
      [[{ role: 'user', content: '' }], 'messages[0].id must be a non-empty string'],
      [
        [
          { id: 'a', role: 'user', content: '' },
          { id: 'a', role: 'user', content: '' },
        ],
        'messages[1].id "a" is used by an earlier message; ids must be unique',
      ],
      [[{ id: 'a', role: 'human', content: '' }], 'messages[0].role must be one of system, user, assistant, tool (got "human")'],
      [[{ id: 'a', role: 'user', content: 3 }], 'messages[0].content must be a string (got number)'],
      [[{ id: 'a', role: 'tool', content: '', toolName: 1 }], 'messages[0].toolName must be a string when present'],
      [[{ id: 'a', role: 'user', content: '', pinned: 'yes' }], 'messages[0].pinned must be a boolean when present'],
    ];
    for (const [ms, msg] of cases) {
      const e = await error(compact(ms as never, { tokens: 10, tokenCounter: words }));
      expect(e.code).toBe('INVALID_OPTION');
      expect(e.message).toBe(msg);
    }
  });

  it('other options', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ protectedTail: -1 }, 'protectedTail must be an integer ≥ 0, got -1'],
      [{ groupBy: 'file' }, 'groupBy must be "role" or "turn", got "file"'],
      [{ similarity: 'embedding' }, 'similarity must be "shingles" or "terms", got "embedding"'],
      [{ redundancyWeight: -1 }, 'redundancyWeight must be a non-negative finite number, got -1'],
      [{ temperature: 0 }, 'temperature must be a positive finite number, got 0'],
      [{ summarizeGoal: 'gpt' }, 'summarizeGoal must be a function when given'],
      [{ goal: 5 }, 'goal must be a string, got number'],
    ];
    for (const [o, msg] of bad) {
      const e = await error(compact([...ok], { tokens: 10, tokenCounter: words, ...o }));
      expect(e.message).toBe(msg);
    }
    await expect(compact([...ok], null as never)).rejects.toThrow('options must be an object with at least { tokens }');
  });

  it('an unknown option is refused by name (a typo would change nothing); an undefined one is no option', async () => {
    const e = await error(compact([...ok], { tokens: 10, tokenCounter: words, lambda: 0.5 } as never));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toBe(
      'unknown option "lambda" (options: strategy, tokens, protectedTail, goal, summarizeGoal, relevance, hookTimeoutMs, scorer, documentScorer, mentionWeight, tokenCounter, preparations, groupBy, turnWindow, redundancyWeight, similarity, temperature, levels)',
    );
    const r = await compact([...ok], { tokens: 10, tokenCounter: words, lambda: undefined } as never);
    expect(r.tokensAfter).toBeLessThanOrEqual(10);
  });
});
