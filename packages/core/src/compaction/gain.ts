/**
 * What each cut is expected to add to what the task needs, for task_aware_mig's packing
 * (select/gain.ts): P(message) × (r(x_k) − r(x_{k−1})), where
 *
 * - P(message) is how likely the message holds what the task needs: a softmax of the whole-message
 *   relevance (`docRel`, relevance.ts) over the messages that offer cuts, at `temperature`;
 * - r(x) is the share of a message's evidence that its LaMR cut to a fraction x of its tokens keeps,
 *   and x_k the fraction cut k keeps (the whole message: 1; evicted: 0).
 *
 * r(x) = x^0.35 is measured: on the 280 tuning transcripts (`--transcripts tune`), the cut of the
 * read that holds the fix, at 1/32, 1/16, 1/8, 3/16, 1/4, 3/8, 1/2 and 3/4 of its tokens, kept 0.25,
 * 0.34, 0.50, 0.59, 0.65, 0.73, 0.80 and 0.92 of the lines the fix edited (x^0.35: 0.30, 0.38, 0.48,
 * 0.56, 0.62, 0.71, 0.78, 0.90). Because r is concave, the second quarter of the likeliest read is
 * worth less than the first quarter of the next one unless that one is far less likely, which the
 * softmax allocation over groups did not know (it gave the read rated best most of the budget).
 */
import type { Offer } from './offers.js';
import type { Unit } from './plan.js';

/** Exponent of the evidence a cut keeps at a fraction of its message's tokens (see above). */
export const CUT_EVIDENCE_EXPONENT = 0.35;

/**
 * Default softmax temperature of P(message) on the whole-message relevance. On the tuning
 * transcripts, task_aware_mig ¼ / ⅛: 0.15 → 0.733 / 0.549, 0.25 → 0.729 / 0.541 (0.05 → 0.725 /
 * 0.536 and 0.1 → 0.731 / 0.550 with an earlier, three-segment cut curve): a plateau. 0.25 is also
 * what fits the tuning transcripts best as a probability (the likelihood of the read that holds the
 * fix, among the reads, peaks between 0.2 and 0.3), and it does not let a test log that quotes the
 * goal take the whole budget from the reads (the playground's demo at 800 tokens evicts
 * ledger/invoice.py at 0.15, not at 0.25).
 */
export const MESSAGE_TEMPERATURE = 0.25;

export function cutEvidence(fraction: number): number {
  return Math.min(1, Math.max(0, fraction)) ** CUT_EVIDENCE_EXPONENT;
}

/**
 * Each unit's expected gain. `isQuery` messages (the latest user turn) count as likely as the
 * likeliest message; a message with no `docRel` as relevance 0.
 */
export function unitGains(
  units: readonly Unit[],
  offers: ReadonlyMap<number, Offer>,
  sizes: readonly number[],
  docRel: ReadonlyMap<number, number>,
  isQuery: (u: { msg: number }) => boolean,
  temperature: number,
): Map<string, number> {
  const msgs = [...new Set(units.map((u) => u.msg))];
  const top = Math.max(0, ...docRel.values());
  const rel = msgs.map((i) => (isQuery({ msg: i }) ? top : (docRel.get(i) ?? 0)));
  const max = Math.max(...rel);
  const t = temperature > 0 ? temperature : 1e-6;
  const w = rel.map((r) => Math.exp((r - max) / t));
  const sum = w.reduce((a, b) => a + b, 0);
  const p = new Map(msgs.map((i, k) => [i, w[k] / sum]));
  const gains = new Map<string, number>();
  for (const u of units) {
    const cuts = offers.get(u.msg)!.cuts;
    const size = Math.max(1, sizes[u.msg]);
    const before = u.level > 0 ? cutEvidence(cuts[u.level - 1].tokens / size) : 0;
    const after = u.level === cuts.length - 1 ? 1 : cutEvidence(cuts[u.level].tokens / size);
    gains.set(u.id, p.get(u.msg)! * Math.max(0, after - before));
  }
  return gains;
}
