import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { createPreparationCache } from '../../src/compaction/preparations.js';
import type { Message } from '../../src/compaction/types.js';
import type { PreparedPrune } from '../../src/prune/pipeline.js';
import { LexicalScorer } from '../../src/scorers/lexical.js';
import type { ScorerInput } from '../../src/scorers/types.js';
import type { TokenCounter } from '../../src/text/tokens.js';
import { readOf, TWO_READS } from './two-reads.js';

/** One token per whitespace-separated word. */
const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

/** A stand-in preparation: the cache only holds and hands back the promise. */
const fake = (tag: string) => ({ tag }) as unknown as PreparedPrune;

describe('PreparationCache', () => {
  it('hands back the held preparation for the same key and content, and prepares again for new content', async () => {
    const cache = createPreparationCache({ maxLines: 100 });
    let made = 0;
    const prepare = (tag: string) => () => (made++, Promise.resolve(fake(tag)));
    const a = cache.obtain('k', 'text a', 10, prepare('a'));
    expect(cache.obtain('k', 'text a', 10, prepare('a2'))).toBe(a);
    expect(made).toBe(1);
    // Same key, other content (a key is a hash and may collide): prepared again, the old one dropped.
    const b = cache.obtain('k', 'text b', 20, prepare('b'));
    expect(b).not.toBe(a);
    expect(await b).toEqual({ tag: 'b' });
    expect(made).toBe(2);
    expect(cache.size).toBe(1);
    expect(cache.lines).toBe(20);
  });

  it('holds at most maxLines, dropping the least recently used first, and never an input above it', async () => {
    const cache = createPreparationCache({ maxLines: 100 });
    const p = (tag: string) => () => Promise.resolve(fake(tag));
    void cache.obtain('a', 'a', 40, p('a'));
    void cache.obtain('b', 'b', 40, p('b'));
    void cache.obtain('a', 'a', 40, p('a again')); // a is now the most recent
    void cache.obtain('c', 'c', 40, p('c')); // 120 lines: b goes
    expect(cache.size).toBe(2);
    expect(cache.lines).toBe(80);
    let made = 0;
    void cache.obtain('a', 'a', 40, () => (made++, Promise.resolve(fake('x'))));
    void cache.obtain('c', 'c', 40, () => (made++, Promise.resolve(fake('x'))));
    expect(made).toBe(0);
    void cache.obtain('huge', 'huge', 101, p('huge'));
    expect(cache.size).toBe(2);
    expect(cache.lines).toBe(80);
    cache.clear();
    expect([cache.size, cache.lines]).toEqual([0, 0]);
  });

  it("keeps a message's latest 16 cuts with its preparation, and none for a message it does not hold", () => {
    const cache = createPreparationCache();
    void cache.obtain('k', 'text', 5, () => Promise.resolve(fake('k')));
    const cut = (allot: number) => ({ cut: { content: `cut at ${allot}`, tokens: allot, keptLines: [1] }, by: 'lexical' });
    for (let allot = 1; allot <= 20; allot++) cache.keepCut('k', 'text', allot, cut(allot));
    expect([1, 2, 3, 4].map((a) => cache.heldCut('k', 'text', a))).toEqual([undefined, undefined, undefined, undefined]);
    expect(cache.heldCut('k', 'text', 5)).toEqual(cut(5));
    expect(cache.heldCut('k', 'text', 20)).toEqual(cut(20));
    // Another content under the same key, or a key not held: nothing.
    expect(cache.heldCut('k', 'other text', 20)).toBeUndefined();
    cache.keepCut('nope', 'text', 3, cut(3));
    expect(cache.heldCut('nope', 'text', 3)).toBeUndefined();
    // Evicted with its preparation.
    cache.clear();
    expect(cache.heldCut('k', 'text', 20)).toBeUndefined();
  });

  it('does not keep a preparation that failed', async () => {
    const cache = createPreparationCache();
    const failed = cache.obtain('k', 'x', 3, () => Promise.reject(new Error('model did not load')));
    await expect(failed).rejects.toThrow('model did not load');
    expect(cache.size).toBe(0);
    expect(await cache.obtain('k', 'x', 3, () => Promise.resolve(fake('ok')))).toEqual({ tag: 'ok' });
  });

  it('refuses a bound that is not a number >= 0', () => {
    expect(() => createPreparationCache({ maxLines: -1 })).toThrow(/maxLines must be a number >= 0/);
    expect(() => createPreparationCache({ maxLines: Number.NaN })).toThrow(/maxLines must be a number >= 0/);
  });
});

describe('compact() with preparations across calls', () => {
  const transcript = TWO_READS;

  function counting() {
    const lexical = new LexicalScorer();
    const seen: string[] = [];
    return { seen, scorer: { name: 'counting', score: (input: ScorerInput) => (seen.push(input.lines[0]), lexical.score(input)) } };
  }

  it('gives the results a fresh call gives, at every budget, and scores each read once over all the calls', async () => {
    const { seen, scorer } = counting();
    const preparations = createPreparationCache();
    let first = true;
    for (const tokens of [200, 120, 300, 200]) {
      const o = { strategy: 'task_aware_mig', tokens, tokenCounter: words, scorer } as const;
      const fresh = await compact(transcript, o);
      const before = seen.length;
      const reused = await compact(transcript, { ...o, preparations });
      expect(reused.messages).toEqual(fresh.messages);
      expect(reused.dump).toEqual(fresh.dump);
      expect([...reused.store.keys()]).toEqual([...fresh.store.keys()]);
      // The first call with the cache prepares each read; later ones score nothing.
      expect(seen.length - before).toBe(first ? 2 : 0);
      first = false;
    }
    // A growing transcript (the next turn) reuses the reads it already held.
    const { seen: seen2, scorer: scorer2 } = counting();
    const o2 = { strategy: 'task_aware_mig', tokens: 200, tokenCounter: words, scorer: scorer2, preparations } as const;
    await compact(transcript, o2);
    expect(seen2.length).toBe(2); // another scorer: its own preparations
    const next: Message[] = [...transcript, { id: 't3', role: 'tool', toolName: 'read_file', content: readOf('parse_value') }];
    await compact(next, o2);
    expect(seen2.slice(2)).toEqual(['def parse_value_0(value): return parse_value(value, 0)']);
  });

  it('keeps apart what another tokenizer or goal prepared', async () => {
    const { seen, scorer } = counting();
    const preparations = createPreparationCache();
    const o = { strategy: 'task_aware_mig', tokens: 200, tokenCounter: words, scorer, preparations } as const;
    await compact(transcript, o);
    expect(seen.length).toBe(2);
    const otherWords: TokenCounter = { name: 'words', count: (t) => words.count(t) };
    await compact(transcript, { ...o, tokenCounter: otherWords });
    expect(seen.length).toBe(4);
    await compact(transcript, { ...o, goal: 'render_page escapes html' });
    expect(seen.length).toBe(6);
  });

  it("keeps what a named scorer's fallback prepared apart from what the scorer itself prepares", async () => {
    const { registerScorer } = await import('../../src/scorers/registry.js');
    const lexical = new LexicalScorer();
    const seen: string[] = [];
    // The first resolution fails over to the lexical scorer (as 'auto' does when its model does not load), the next ones do not.
    let resolutions = 0;
    registerScorer('flaky-model', async () =>
      resolutions++ === 0
        ? { name: 'flaky-model', fallbackReason: 'model did not load', score: (input: ScorerInput) => lexical.score(input) }
        : { name: 'flaky-model', score: (input: ScorerInput) => (seen.push(input.lines[0]), lexical.score(input)) },
    );
    const preparations = createPreparationCache();
    const o = { strategy: 'task_aware_mig', tokens: 200, tokenCounter: words, scorer: 'flaky-model', preparations } as const;
    await compact(transcript, o);
    expect(seen).toEqual([]);
    await compact(transcript, o);
    expect(seen.length).toBe(2); // prepared by the scorer itself, not served from the fallback's entries
    await compact(transcript, o);
    expect(seen.length).toBe(2);
  });

  it('is refused when it is not a cache', async () => {
    await expect(compact(transcript, { tokens: 100, preparations: {} as never })).rejects.toThrow(/preparations must be a cache from createPreparationCache/);
  });
});
