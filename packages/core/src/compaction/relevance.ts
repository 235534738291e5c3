/**
 * Relevance of blocks to a goal: lexical BM25 over identifier-split terms by default, or the
 * caller's backbone. Text scores are normalised to 0..1 so they can be set against redundancy; the
 * task-aware strategies add evidence about whole messages on top (rateUnits).
 */
import { degradation, type CompactionDegradation } from '../degradations.js';
import { bm25Scores, buildBm25Index } from '../retrieval/bm25.js';
import { termsOf } from '../text/identifiers.js';
import { checkedScores, DEFAULT_HOOK_TIMEOUT_MS, withTimeout } from './hooks.js';
import type { DocumentScoreFn } from '../locate/document-score.js';
import type { RelevanceFn } from './types.js';

export function lexicalRelevance(goal: string, texts: string[]): number[] {
  const q = termsOf(goal);
  if (q.length === 0 || texts.length === 0) return texts.map(() => 0);
  const index = buildBm25Index(texts.map((t) => termsOf(t)));
  return [...bm25Scores(index, q)];
}

/** x / max when all ≥ 0, else min-max; all-equal or non-finite input gives zeros. */
export function normalizeScores(raw: readonly number[]): number[] {
  const xs = raw.map((x) => (Number.isFinite(x) ? x : 0));
  if (xs.length === 0) return [];
  const min = Math.min(...xs),
    max = Math.max(...xs);
  if (min >= 0) return max > 0 ? xs.map((x) => x / max) : xs.map(() => 0);
  return max > min ? xs.map((x) => (x - min) / (max - min)) : xs.map(() => 0);
}

/**
 * Relevance by the caller's hook (within `timeoutMs`; NaN, infinite or missing scores are an
 * error the caller turns into a degradation), else lexical BM25.
 */
export async function scoreRelevance(goal: string, texts: string[], custom?: RelevanceFn, timeoutMs = DEFAULT_HOOK_TIMEOUT_MS): Promise<number[]> {
  if (!custom) return normalizeScores(lexicalRelevance(goal, texts));
  const raw = await withTimeout(custom(goal, texts), timeoutMs, 'relevance hook');
  return normalizeScores(checkedScores(raw, texts.length));
}

/** (x − min) / (max − min); all-equal or non-finite input gives zeros. */
export function minMax(raw: readonly number[]): number[] {
  const xs = raw.map((x) => (Number.isFinite(x) ? x : 0));
  const min = Math.min(...xs),
    max = Math.max(...xs);
  return max > min ? xs.map((x) => (x - min) / (max - min)) : xs.map(() => 0);
}

/**
 * The least whole-message relevance of a read whose file the task names (`Update rendering.ts`, `fix:
 * … in switcher`): a task that names the file often has no other word in common with it. Chosen on
 * 280 transcripts of the validation corpus that neither compaction set holds (task_aware_mig, ¼ /
 * ⅛: 1 → +0.014 / +0.005, 0.6 → +0.014 / +0.009) and checked on both sets (val unchanged, wide ¼
 * +0.028).
 */
const TASK_NAMED_FLOOR = 0.6;

/**
 * The factor on the whole-message relevance of a read of a test, docs or fixture file that no user
 * message names (`testReads`). Chosen on the tuning transcripts by how often the fixed file's read
 * is rated first among the reads (196 → 210 of 280 at 0.3; 0.5: 207, 0.1: 210), and on 480
 * transcripts built the same way from 16 training repositories (350 → 368).
 */
const TEST_READ_FACTOR = 0.3;

/** Weight of the whole message's relevance in each of its cuts' relevance. */
const DOC_WEIGHT = 0.5;

/** What the task-aware strategies know of each message beyond its text's score (evidence.ts). */
export interface TaskEvidence {
  /** How strongly the rest of the transcript names each message's file, 0..1. */
  scores: (msgs: number[]) => number[];
  /** Weight of `scores` in the whole message's relevance (`mentionWeight`). */
  weight: number;
  /** Whether a user message names each message's file. */
  taskNamed?: (msgs: number[]) => boolean[];
  /** How much of the goal's vocabulary each message carries beyond BM25 (0..0.7), added. */
  goalTerms?: (msgs: number[]) => number[];
  /** Whether each message reads a test, docs or fixture file: rated TEST_READ_FACTOR lower unless `taskNamed`. */
  testReads?: (msgs: number[]) => boolean[];
}

/**
 * Each unit's relevance to the goal: its own text's, blended with its whole message's (the goal's
 * file deserves more of its lines than a file that only shares a few words with it), normalised
 * over everything but the request itself (which would set the scale: it matches itself best).
 * The whole message's relevance is `documentScore`'s when given and no hook is (min-max over the
 * messages: see evidence.ts), else the same BM25 / hook; with `named` (how strongly the rest of
 * the transcript names each message's file, 0..1, see evidence.ts) and some file named, it is
 * (1 − namedWeight) · that + namedWeight · named, at least TASK_NAMED_FLOOR for a message whose
 * file a user message names (`taskNamed`), plus its goal-term evidence (`goalTerms`: the goal's
 * words in its path, its definitions, its vocabulary; up to 0.7 more, so a unit may rate up to
 * 1.35). The request's cuts (`isQuery`) get 1, or the top rating when a unit rates above 1.
 * A failing relevance hook falls back to lexical BM25, said in `degraded`. Returns the backend
 * that scored and each message's whole-message relevance (`docRel`).
 */
export async function rateUnits(
  goal: string,
  units: readonly { msg: number; text: string; relevance: number }[],
  docText: (msg: number) => string,
  isQuery: (u: { msg: number }) => boolean,
  custom: RelevanceFn | undefined,
  timeoutMs: number,
  degraded: CompactionDegradation[],
  documentScore?: DocumentScoreFn,
  named?: TaskEvidence,
): Promise<{ backend: 'lexical-bm25' | 'custom'; docRel: Map<number, number> }> {
  let backend: 'lexical-bm25' | 'custom' = custom ? 'custom' : 'lexical-bm25';
  const scored = units.filter((u) => !isQuery(u));
  let relevance: number[];
  try {
    relevance = await scoreRelevance(
      goal,
      scored.map((u) => u.text),
      custom,
      timeoutMs,
    );
  } catch (e) {
    if (!custom) throw e;
    degraded.push(degradation('RELEVANCE_HOOK_FAILED', `relevance hook failed (${e instanceof Error ? e.message : String(e)}): used the lexical scorer`));
    backend = 'lexical-bm25';
    relevance = await scoreRelevance(
      goal,
      scored.map((u) => u.text),
    );
  }
  const msgs = [...new Set(scored.map((u) => u.msg))];
  const docRel = new Map<number, number>();
  const docScores = await (
    documentScore && !custom ? documentScore(goal, msgs.map(docText)).then(minMax) : scoreRelevance(goal, msgs.map(docText), custom, timeoutMs)
  ).catch(() => msgs.map(() => 0));
  const byName = named && named.weight > 0 ? named.scores(msgs) : [];
  const w = byName.some((x) => x > 0) ? named!.weight : 0;
  // The reads a user names: a floor of relevance (with the transcript's evidence on) and never the test-read factor.
  const userNamed = named?.taskNamed && (named.weight > 0 || named.testReads) ? named.taskNamed(msgs) : [];
  const byTask = named && named.weight > 0 ? userNamed : [];
  const byTerms = named?.goalTerms ? named.goalTerms(msgs) : [];
  const tests = named?.testReads ? named.testReads(msgs) : [];
  msgs.forEach((i, k) => {
    const rel = (1 - w) * docScores[k] + w * (byName[k] ?? 0);
    const whole = (byTask[k] ? Math.max(TASK_NAMED_FLOOR, rel) : rel) + (byTerms[k] ?? 0);
    docRel.set(i, tests[k] && !userNamed[k] ? TEST_READ_FACTOR * whole : whole);
  });
  scored.forEach((u, k) => {
    u.relevance = (1 - DOC_WEIGHT) * relevance[k] + DOC_WEIGHT * (docRel.get(u.msg) ?? 0);
  });
  // The request itself ranks with the best of what it asks for (goal-term evidence lifts reads above 1).
  const top = Math.max(1, ...scored.map((u) => u.relevance));
  for (const u of units) if (isQuery(u)) u.relevance = top;
  return { backend, docRel };
}
