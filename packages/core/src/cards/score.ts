/**
 * Scoring candidates: features, the four components (proxy, or a judge with proxy fallback),
 * the fixed aggregation, and optionally a trained ranker for the ordering.
 */
import type { ContextGraph, RetrievedUnit } from './graph.js';
import { judgeAll, judgmentComponents, type JudgeFn, type JudgeRunOptions, type JudgeStats } from './judge.js';
import type { Ranker } from './rankers.js';
import type { CiclTask, ContextUnit, Judgment, UtilityComponents } from './types.js';
import { proxyComponents, rankerFeatures, utilityScore, type UnitSignals, type UtilityBreakdown } from './utility.js';

export interface ScoredUnit {
  unit: ContextUnit;
  retrieval: number;
  via: RetrievedUnit['via'];
  features: Float64Array;
  components: UtilityComponents;
  utility: UtilityBreakdown;
  /** The fixed-aggregation utility s. */
  score: number;
  /** Ordering key: the ranker's score when one is given, else `score`. */
  rank: number;
  /** Where the components came from. */
  origin: 'proxy' | 'judge' | 'proxy-fallback';
  judgment?: Judgment;
}

export interface ScoreOptions {
  judge?: JudgeFn;
  judgeOptions?: JudgeRunOptions;
  ranker?: Ranker;
}

export async function scoreCandidates(
  task: CiclTask,
  graph: ContextGraph,
  retrieved: readonly RetrievedUnit[],
  opts: ScoreOptions = {},
): Promise<{ scored: ScoredUnit[]; judgeStats?: JudgeStats }> {
  let maxConf = 0;
  for (const r of retrieved) maxConf = Math.max(maxConf, graph.conflictDegree(r.unit.id));
  const signals = (r: RetrievedUnit): UnitSignals => ({
    retrievalScore: r.score,
    conflictDegree: graph.conflictDegree(r.unit.id),
    maxConflictDegree: maxConf,
  });
  const judged = opts.judge
    ? await judgeAll(
        opts.judge,
        task,
        retrieved.map((r) => r.unit),
        opts.judgeOptions,
      )
    : null;
  const scored = retrieved.map((r, i): ScoredUnit => {
    const sig = signals(r);
    const features = rankerFeatures(task, r.unit, sig);
    const o = judged?.outcomes[i];
    const components = o?.ok ? judgmentComponents(o.judgment) : proxyComponents(task, r.unit, sig);
    const utility = utilityScore(components, r.unit.tokens);
    return {
      unit: r.unit,
      retrieval: r.score,
      via: r.via,
      features,
      components,
      utility,
      score: utility.score,
      rank: opts.ranker ? opts.ranker.score(features) : utility.score,
      origin: !judged ? 'proxy' : o?.ok ? 'judge' : 'proxy-fallback',
      ...(o?.ok ? { judgment: o.judgment } : {}),
    };
  });
  return { scored, ...(judged ? { judgeStats: judged.stats } : {}) };
}
