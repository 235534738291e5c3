/**
 * Which messages are protected, and why: pinned ones (inviolable), system messages, the latest
 * user message and the last `tail` messages (kept whole while the budget allows). A result in the
 * tail brings its call along.
 */
import { latestUserIndex } from './goal.js';
import type { Pairs } from './pairs.js';
import type { Message } from './types.js';

export function protection(messages: Message[], tail: number, pairs: Pairs): (string | null)[] {
  const u = latestUserIndex(messages);
  const p = messages.map((m, i) => {
    if (m.pinned) return 'pinned';
    if (m.role === 'system') return 'system';
    if (i === u) return 'latest-user';
    if (i >= messages.length - tail) return 'tail';
    return null;
  });
  // A result in the tail brings its call along (a call without its result, or the reverse, is rejected by chat APIs).
  for (const [r, c] of pairs.callOf) if (p[r] && !p[c]) p[c] = 'tail';
  return p;
}
