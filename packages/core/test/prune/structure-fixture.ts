/** Hand-built FileStructure values for testing repair and budget without a parser. */
import type { FileStructure, LanguageId } from '../../src/syntax/types.js';
import { emptyNesting } from '../../src/syntax/nesting.js';

export function handStructure(
  lines: number,
  spec: {
    kind: number[];
    parent: number[];
    blockEnd?: Record<number, number>;
    closer?: Record<number, number>;
    firstBodyLine?: Record<number, number>;
    companionGroup?: Record<number, number>;
    uses?: Record<number, number[]>;
    spans?: [number, number][];
    /** Rows of class-like headers (FileStructure.classLike). */
    classLike?: number[];
    language?: LanguageId;
  },
): FileStructure {
  const fill = (rec: Record<number, number> | undefined) => {
    const a = new Int32Array(lines).fill(-1);
    for (const [k, v] of Object.entries(rec ?? {})) a[Number(k)] = v;
    return a;
  };
  const spanStart = Int32Array.from({ length: lines }, (_, i) => i);
  const spanEnd = Int32Array.from({ length: lines }, (_, i) => i);
  for (const [a, b] of spec.spans ?? [])
    for (let i = a; i <= b; i++) {
      spanStart[i] = a;
      spanEnd[i] = b;
    }
  const useOffsets = new Int32Array(lines + 1);
  const targets: number[] = [];
  for (let i = 0; i < lines; i++) {
    useOffsets[i] = targets.length;
    targets.push(...(spec.uses?.[i] ?? []));
  }
  useOffsets[lines] = targets.length;
  return {
    language: spec.language ?? 'python',
    source: 'tree-sitter',
    lineCount: lines,
    errorCount: 0,
    kind: Uint8Array.from(spec.kind),
    parent: Int32Array.from(spec.parent),
    spanStart,
    spanEnd,
    blockEnd: fill(spec.blockEnd),
    closer: fill(spec.closer),
    firstBodyLine: fill(spec.firstBodyLine),
    ...(spec.classLike ? { classLike: Uint8Array.from({ length: lines }, (_, i) => (spec.classLike!.includes(i) ? 1 : 0)) } : {}),
    companionGroup: fill(spec.companionGroup),
    useOffsets,
    useTargets: Int32Array.from(targets),
    definedNames: new Map(),
    ...emptyNesting(lines),
  };
}
