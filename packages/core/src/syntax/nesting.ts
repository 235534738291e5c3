/**
 * Bracket nesting inside statements, so that a long statement can be kept in part and still
 * parse: a kept line deep in a 200-line object literal needs the lines that open and close each
 * bracket around it (`retry: {` … `},`), not the whole literal. Pure over the tree; one walk
 * that enters only nodes spanning several lines.
 */
import type { Node } from 'web-tree-sitter';
import type { GrammarTable } from './grammars.js';

export interface Nesting {
  /** CSR: the lines that keeping line i in part needs are nestTargets[nestOffsets[i] .. nestOffsets[i+1]). */
  nestOffsets: Int32Array;
  nestTargets: Int32Array;
}

/** No nesting known (no parse tree): long statements are then kept whole. */
export function emptyNesting(lineCount: number): Nesting {
  return { nestOffsets: new Int32Array(lineCount + 1), nestTargets: new Int32Array(0) };
}

function leadingWidth(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/**
 * For each line: the first and last line of the innermost multi-line expression that holds it
 * and starts on an earlier line (a bracketed literal, argument or parameter list, string,
 * comment, type literal), and the last line of every multi-line expression that starts on it.
 * Statements with bodies (definitions, control statements, closures) are not expressions here:
 * their headers, closers and bodies are the repair's own structure, and the lines of a body are
 * outside every expression around it.
 */
export function buildNesting(root: Node, table: GrammarTable, lines: string[], spanStart: Int32Array): Nesting {
  const n = lines.length;
  const innerStart = new Int32Array(n).fill(-1);
  const innerEnd = new Int32Array(n).fill(-1);
  const endsAt = new Map<number, number[]>();
  const structural = (type: string) =>
    table.defs.has(type) || table.controls.has(type) || table.clauses.has(type) || table.cases.has(type) ||
    table.wrappers.has(type) || table.transparent.has(type) || table.inner.has(type);
  const cursor = root.walk();
  try {
    // Per open ancestor: whether it is a statement container (a block under it may be a
    // body), and its first row.
    const containers: boolean[] = [true];
    const starts: number[] = [root.startPosition.row];
    if (cursor.gotoFirstChild()) {
      for (;;) {
        let descend = false;
        let container = false;
        let s = -1;
        if (cursor.nodeIsNamed) {
          const sp = cursor.startPosition;
          s = sp.row;
          const e = cursor.endPosition.row;
          if (e > s && s < n) {
            const type = cursor.nodeType;
            const last = Math.min(e, n - 1);
            descend = true;
            // A block that begins its line (Python) is body from that line on; one that opens
            // after a header (`) {`), from the next.
            const from = table.blocks.has(type) ? (sp.column <= leadingWidth(lines[s]) ? s : s + 1) : -1;
            if (from >= 0 && from <= last && containers[containers.length - 1] &&
              spanStart[from] !== spanStart[starts[starts.length - 1]]) {
              // A body the structure analysis walked: its statements have their own spans.
              // (A method's body in an object literal is not walked: it is one more bracket.)
              for (let r = from; r <= last; r++) innerStart[r] = -1;
              container = true;
            } else if (structural(type)) {
              container = true;
            } else {
              for (let r = s + 1; r <= last; r++) { innerStart[r] = s; innerEnd[r] = last; }
              let list = endsAt.get(s);
              if (!list) endsAt.set(s, (list = []));
              if (!list.includes(last)) list.push(last);
            }
          }
        }
        if (descend && cursor.gotoFirstChild()) { containers.push(container); starts.push(s); continue; }
        let done = false;
        while (!cursor.gotoNextSibling()) {
          if (containers.length === 1 || !cursor.gotoParent()) { done = true; break; }
          containers.pop();
          starts.pop();
        }
        if (done) break;
      }
    }
  } finally {
    cursor.delete();
  }
  const nestOffsets = new Int32Array(n + 1);
  const targets: number[] = [];
  for (let r = 0; r < n; r++) {
    nestOffsets[r] = targets.length;
    if (innerStart[r] >= 0) targets.push(innerStart[r], innerEnd[r]);
    const ends = endsAt.get(r);
    if (ends) for (const e of ends) if (e !== r && e !== innerEnd[r]) targets.push(e);
  }
  nestOffsets[n] = targets.length;
  return { nestOffsets, nestTargets: Int32Array.from(targets) };
}
