/**
 * Rubric-guided labeling (LaMR §3): from a binary teacher mask (the lines that matter: here the
 * lines a real fix edited) and a document relevance score, derive per-line labels for the two
 * rubrics, using the file's structure (syntax/types.ts):
 *
 * - semantic: the teacher's kept lines scored by the document score (multi-line statements
 *   they belong to are completed when short);
 * - dependency: the semantic lines' scores propagated to what makes them readable — enclosing
 *   headers (whole header spans) up the scope chain, those headers' closing delimiters, the
 *   control-flow companions of every header on the chain (if/elif/else, try/except/finally), and
 *   the definitions and imports the semantic lines use. Dependency labels include the semantic
 *   lines themselves (support is defined around evidence).
 *
 * Pure; used by the training data builder through Node (training/build_dataset.mjs).
 */
import type { FileStructure } from '../syntax/types.js';

export interface RubricLabelOptions {
  /** Multi-line statements up to this many lines are completed around a teacher line. */
  maxSpanCompletion?: number;
  /** Score decay per step up the scope chain (dependency rubric). */
  chainDecay?: number;
  /** Share of a line's score given to the definitions and imports it uses. */
  useShare?: number;
  /** Hard-label threshold on the soft scores. */
  threshold?: number;
}

export interface RubricLabels {
  n: number;
  /** Soft scores in [0,1] per line. */
  semanticScore: Float32Array;
  dependencyScore: Float32Array;
  /** Hard 0/1 labels (score ≥ threshold). */
  semantic: Uint8Array;
  dependency: Uint8Array;
  documentScore: number;
}

const DEFAULTS: Required<RubricLabelOptions> = { maxSpanCompletion: 6, chainDecay: 0.95, useShare: 0.9, threshold: 0.5 };

export function rubricLabels(mask: ArrayLike<number>, documentScore: number, st: FileStructure, options: RubricLabelOptions = {}): RubricLabels {
  const o = { ...DEFAULTS, ...options };
  const n = st.lineCount;
  const doc = Math.max(0, Math.min(1, Number.isFinite(documentScore) ? documentScore : 0));
  const sem = new Float32Array(n);
  const dep = new Float32Array(n);
  const raise = (arr: Float32Array, i: number, v: number) => {
    if (i >= 0 && i < n && v > arr[i]) arr[i] = v;
  };

  // Semantic: teacher lines × document score, completing short multi-line statements.
  for (let t = 0; t < n; t++) {
    if (!mask[t]) continue;
    raise(sem, t, doc);
    const a = st.spanStart[t],
      b = st.spanEnd[t];
    if (a >= 0 && b >= a && b - a + 1 <= o.maxSpanCompletion) for (let l = a; l <= b; l++) raise(sem, l, doc);
  }

  // Companion groups: group id → member lines.
  const groups = new Map<number, number[]>();
  for (let t = 0; t < n; t++) {
    const g = st.companionGroup[t];
    if (g < 0) continue;
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(t);
  }
  const keepHeader = (h: number, v: number) => {
    const a = st.spanStart[h] >= 0 ? Math.min(st.spanStart[h], h) : h;
    const b = Math.max(h, st.spanEnd[h]);
    for (let l = a; l <= b && l - a < 12; l++) raise(dep, l, v);
    if (st.closer[h] >= 0) raise(dep, st.closer[h], v);
    const g = st.companionGroup[h];
    if (g >= 0)
      for (const m of groups.get(g) ?? []) {
        raise(dep, m, v);
        if (st.closer[m] >= 0) raise(dep, st.closer[m], v);
      }
  };

  for (let t = 0; t < n; t++) {
    const s = sem[t];
    if (s <= 0) continue;
    raise(dep, t, s);
    // The line itself may be a header or clause: its companions and closer come with it.
    if (st.blockEnd[t] >= 0) keepHeader(t, s);
    // Up the scope chain.
    let v = s;
    let guard = 0;
    for (let p = st.parent[t]; p >= 0 && p < n && guard < 64; p = st.parent[p], guard++) {
      v *= o.chainDecay;
      keepHeader(p, v);
    }
    // Definitions and imports the line uses.
    for (let j = st.useOffsets[t]; j < st.useOffsets[t + 1]; j++) {
      const d = st.useTargets[j];
      if (d < 0 || d >= n) continue;
      const a = st.spanStart[d] >= 0 ? Math.min(st.spanStart[d], d) : d;
      raise(dep, d, s * o.useShare);
      if (a < d && d - a < 6) for (let l = a; l < d; l++) raise(dep, l, s * o.useShare);
    }
  }

  const semantic = new Uint8Array(n),
    dependency = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    semantic[t] = sem[t] >= o.threshold ? 1 : 0;
    dependency[t] = dep[t] >= o.threshold ? 1 : 0;
  }
  return { n, semanticScore: sem, dependencyScore: dep, semantic, dependency, documentScore: doc };
}
