/**
 * AST-aware repair: close the decoder's keep set under the structure the kept lines need to be
 * read (and, for a file that parsed, to parse): whole statements, enclosing scope headers,
 * closing delimiters, control-flow companions, a body statement for Python blocks, and the
 * imports and definitions that evidence lines use. Pure: masks and structure in, masks out.
 */
import { type FileStructure, LineKind, type LanguageId } from '../syntax/types.js';
import { Reason } from './reasons.js';

export interface RepairOptions {
  /** Headers, spans, closers, companions, body lines. */
  syntactic: boolean;
  /** Imports and definitions used by evidence lines. */
  dependencies: boolean;
  language: LanguageId | null;
}

/** Lookups the closure needs, built once per structure. */
export interface RepairIndex {
  /** Lines grouped by companion group id. */
  companions: Map<number, number[]>;
  /** For a line holding a block's closing delimiter: the header that opened the block, else -1. */
  opener: Int32Array;
}

export function buildRepairIndex(st: FileStructure): RepairIndex {
  const companions = new Map<number, number[]>();
  const opener = new Int32Array(st.lineCount).fill(-1);
  for (let t = 0; t < st.lineCount; t++) {
    const g = st.companionGroup[t];
    if (g >= 0) {
      let list = companions.get(g);
      if (!list) companions.set(g, (list = []));
      list.push(t);
    }
    const c = st.closer[t];
    if (c >= 0 && c !== t && opener[c] < 0) opener[c] = t;
  }
  return { companions, opener };
}

/**
 * Extends `keep` in place (1 = kept) and records why each added line joined in `reason`.
 * Lines already kept keep their reason. Returns the number of lines added.
 */
export function repairKeepSet(
  keep: Uint8Array,
  reason: Uint8Array,
  st: FileStructure,
  opts: RepairOptions,
  index: RepairIndex,
): number {
  const n = st.lineCount;
  const stack: number[] = [];
  let added = 0;
  const add = (l: number, why: number) => {
    if (l < 0 || l >= n || keep[l]) return;
    keep[l] = 1;
    reason[l] = why;
    stack.push(l);
    added++;
  };
  const seedDeps = opts.dependencies;
  for (let t = 0; t < n; t++) if (keep[t]) stack.push(t);

  const needsBody = opts.language === 'python';
  for (;;) {
    while (stack.length) {
      const l = stack.pop()!;
      if (seedDeps && reason[l] === Reason.Evidence) {
        for (let j = st.useOffsets[l]; j < st.useOffsets[l + 1]; j++) add(st.useTargets[j], Reason.Dependency);
      }
      if (!opts.syntactic) continue;
      for (let x = st.spanStart[l]; x <= st.spanEnd[l]; x++) add(x, Reason.Repair);
      add(st.parent[l], Reason.Repair);
      if (st.blockEnd[l] >= 0) add(st.closer[l], Reason.Repair);
      add(index.opener[l], Reason.Repair);
      const g = st.companionGroup[l];
      if (g >= 0) {
        const members = index.companions.get(g);
        if (members) for (const m of members) add(m, Reason.Repair);
      }
    }
    if (!opts.syntactic || !needsBody) break;
    // A Python block needs one statement: give each kept header without a kept body its first one.
    const hasBody = new Uint8Array(n);
    for (let t = 0; t < n; t++) {
      const p = st.parent[t];
      if (keep[t] && p >= 0 && st.kind[t] !== LineKind.Blank && st.kind[t] !== LineKind.Comment) hasBody[p] = 1;
    }
    for (let t = 0; t < n; t++) {
      if (keep[t] && st.blockEnd[t] >= 0 && !hasBody[t] && st.firstBodyLine[t] >= 0) add(st.firstBodyLine[t], Reason.Repair);
    }
    if (!stack.length) break;
  }
  return added;
}

/** Lines that can fill a gap on their own without dragging structure in. */
export function isStandaloneLine(st: FileStructure, t: number): boolean {
  const k = st.kind[t];
  return (
    (k === LineKind.Blank || k === LineKind.Comment || k === LineKind.Code || k === LineKind.Import) &&
    st.blockEnd[t] < 0 &&
    st.companionGroup[t] < 0
  );
}
