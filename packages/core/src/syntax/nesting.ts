/**
 * Bracket nesting inside statements, so that a long statement can be kept in part and still
 * parse: a kept line deep in a 200-line object literal needs the lines that open and close each
 * bracket around it (`retry: {` … `},`), not the whole literal.
 *
 * The model: a bracketed list (object, array, arguments, parameters, an unwalked block), a
 * string and a comment are containers whose inner lines may be dropped; each child of a
 * container is an element, and the lines that hold an element's own tokens (outside the
 * containers nested in it) are its skeleton, kept all or none: `cond` / `? a` / `: b` of a
 * ternary, the `{` and `}` lines of an object. A line of an element needs its skeleton and the
 * line that opens its container, whose element needs its own, up to the statement.
 * Bodies the structure analysis walked are not containers here: their statements are elements
 * of their own, and a header's body, closers and clauses are the repair's structure.
 * Pure over the tree; it descends only into nodes that span several lines.
 */
import type { Node } from 'web-tree-sitter';
import type { GrammarTable } from './grammars.js';
import { indentOf } from '../text/lines.js';
import { endOf, typeOf } from './nodecache.js';
import { runSteps, STEP_LINES, type Steps } from '../util/steps.js';

export interface Nesting {
  /** CSR: the lines that keeping line i in part needs are nestTargets[nestOffsets[i] .. nestOffsets[i+1]). */
  nestOffsets: Int32Array;
  nestTargets: Int32Array;
}

/** No nesting known (no parse tree): long statements are then kept whole. */
export function emptyNesting(lineCount: number): Nesting {
  return { nestOffsets: new Int32Array(lineCount + 1), nestTargets: new Int32Array(0) };
}

/** Past this depth of nested multi-line nodes a subtree is one element (no runaway recursion). */
const MAX_DEPTH = 400;
/** Tokens that open and close a list whose elements may be dropped. */
const OPEN_TOKENS = new Set(['(', '[', '{', '<']);
const CLOSE_TOKENS = new Set([')', ']', '}', '>']);
/** Bracketed nodes that cannot be empty (`if ()`, `f<>()`): their content is skeleton. */
const NOT_EMPTY = new Set(['parenthesized_expression', 'type_arguments', 'type_parameters']);

/**
 * For each line, the lines keeping it needs: the next line of its skeleton (a cycle through the
 * skeleton, so that closing over it reaches every line) and the line that opens its container.
 */
export function buildNesting(root: Node, table: GrammarTable, lines: string[], spanStart: Int32Array, parent: Int32Array): Nesting {
  return runSteps(nestingSteps(root, table, lines, spanStart, parent));
}

/** buildNesting as steps (util/steps.ts): a yield every 16 top-level nodes and every STEP_LINES lines. */
export function* nestingSteps(root: Node, table: GrammarTable, lines: string[], spanStart: Int32Array, parent: Int32Array): Steps<Nesting> {
  const n = lines.length;
  const group = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (group[x] !== x) {
      group[x] = group[group[x]];
      x = group[x];
    }
    return x;
  };
  const union = (a: number, b: number) => {
    if (a >= n || b >= n) return;
    const ra = find(a),
      rb = find(b);
    if (ra !== rb) group[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const opens = new Array<number[] | undefined>(n);
  const need = (r: number, opener: number) => {
    if (opener < 0 || r === opener || r >= n) return;
    const list = opens[r];
    if (!list) opens[r] = [opener];
    else if (!list.includes(opener)) list.push(opener);
  };

  // A line of an import list, like one of a string, needs only the first and last lines.
  const isText = (type: string) =>
    table.comments.has(type) || type === 'string' || type === 'template_string' || table.texts?.has(type) === true || table.imports.has(type);
  const bracketed = (type: string, kids: (Node | null)[]) => {
    const a = kids[0],
      b = kids[kids.length - 1];
    return kids.length >= 2 && a !== null && b !== null && !NOT_EMPTY.has(type) && OPEN_TOKENS.has(typeOf(a)) && CLOSE_TOKENS.has(typeOf(b));
  };
  /**
   * A body the structure analysis walked: its first line has a span of its own, not the header's,
   * and its header (at or below the owner's first row) is that line's parent. A block-typed node
   * the analysis did not walk, such as the object type in `let x: {` … `} = {` m() {…} `}` whose
   * statement it cut around the method, has lines with spans of their own too, but no header:
   * its lines need its `{` line like any bracketed list's.
   */
  const walkedBody = (y: Node, sy: number, ey: number, ownerRow: number) => {
    const from = y.startPosition.column <= indentOf(lines[sy] ?? '').length ? sy : sy + 1;
    return from <= ey && from < n && spanStart[from] !== spanStart[ownerRow] && parent[from] >= ownerRow;
  };

  /** A new element `z` of a container opened on line `opener` (-1: a walked body, none). */
  const element = (z: Node, opener: number, walked: boolean, depth: number) => {
    const anchor = z.startPosition.row;
    if (anchor >= n) return;
    need(anchor, opener);
    // A bare block statement `{ ... }` in a walked body is walked too (its own line is the owner).
    visit(z, anchor, walked, depth, walked ? anchor : -1);
  };

  /** Node `y`, part of the element whose skeleton holds line `anchor`. */
  const visit = (y: Node, anchor: number, walked: boolean, depth: number, ownerRow: number): void => {
    const sy = y.startPosition.row;
    const ey = Math.min(endOf(y).row, n - 1);
    if (sy >= n) return;
    if (sy !== anchor && table.comments.has(typeOf(y))) {
      // A comment on lines of its own inside an element (Ruby's doc comments between `module Rack`
      // and its first statement) is no part of the element's skeleton: it can go, and keeping it
      // needs only its scope (repair's). One of several lines keeps its first and last.
      if (sy !== ey) element(y, -1, walked, depth + 1);
      return;
    }
    if (depth > MAX_DEPTH || (sy === ey && (sy === anchor || ownerRow < 0))) {
      union(sy, anchor);
      union(ey, anchor);
      return;
    }
    const type = typeOf(y);
    if (ownerRow >= 0 && table.blocks.has(type) && walkedBody(y, sy, ey, ownerRow)) {
      // (A one-line body on its own line, too: Python's `if x:` / `    return x`.)
      for (const z of y.children) if (z) element(z, -1, true, depth + 1);
      return;
    }
    if (sy === ey) {
      union(sy, anchor);
      return;
    }
    // Text: a string, a comment, an import list, a grammar's `texts`, or any token over several
    // lines (no children: JSX text runs from the tag before it to the tag after, so `Search docs`
    // between `</svg>` and `<span>` needs them; a Go raw string keeps its ends around the kept
    // lines). A node that ends with its newline (PHP's `<html>\n` before `<?php`) ends on the line
    // before.
    if (isText(type) || y.childCount === 0) {
      const last = endOf(y).column === 0 ? Math.max(sy, ey - 1) : ey;
      union(sy, anchor);
      union(last, anchor);
      let r = sy + 1;
      // Code in a `${…}` of a template string that spans lines is nested as in brackets (its
      // `${` and `}` lines are the string's), not text: a ternary there is kept all or none.
      for (const sub of type === 'template_string' ? y.namedChildren : []) {
        if (!sub || typeOf(sub) !== 'template_substitution') continue;
        const s1 = sub.startPosition.row;
        const e1 = Math.min(endOf(sub).row, n - 1);
        if (s1 === e1 || s1 + 1 < r) continue;
        for (; r < s1; r++) need(r, sy);
        union(s1, anchor);
        union(e1, anchor);
        for (const z of sub.namedChildren) if (z) element(z, s1, false, depth + 1);
        r = e1 + 1;
      }
      for (; r < last; r++) need(r, sy);
      return;
    }
    const kids = y.children;
    if (bracketed(type, kids)) {
      union(sy, anchor);
      union(ey, anchor);
      for (let i = 1; i < kids.length - 1; i++) {
        const z = kids[i];
        if (z) element(z, sy, false, depth + 1);
      }
      return;
    }
    if (walked && (table.clauses.has(type) || table.cases.has(type)) && sy !== anchor) {
      // else / except / case: the repair's companions, not one skeleton with their head.
      element(y, -1, true, depth + 1);
      return;
    }
    for (const z of kids) if (z) visit(z, anchor, walked, depth + 1, sy);
  };

  const top = root.children;
  for (let i = 0; i < top.length; i++) {
    const z = top[i];
    if (z) element(z, -1, true, 0);
    if (i % 16 === 15) yield;
  }

  // Each skeleton as a cycle in line order, then the container openers.
  const next = new Int32Array(n).fill(-1);
  const first = new Int32Array(n).fill(-1);
  const last = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    if (r % STEP_LINES === STEP_LINES - 1) yield;
    const g = find(r);
    if (first[g] < 0) first[g] = r;
    else next[last[g]] = r;
    last[g] = r;
  }
  for (let r = 0; r < n; r++) if (next[r] < 0 && first[find(r)] !== r) next[r] = first[find(r)];
  const nestOffsets = new Int32Array(n + 1);
  const targets: number[] = [];
  for (let r = 0; r < n; r++) {
    nestOffsets[r] = targets.length;
    if (next[r] >= 0) targets.push(next[r]);
    const o = opens[r];
    if (o) for (const x of o) targets.push(x);
  }
  nestOffsets[n] = targets.length;
  return { nestOffsets, nestTargets: Int32Array.from(targets) };
}

/** `base` with more lines needed per line (`extra[i]`: what keeping line i needs besides). */
export function withTargets(base: Nesting, extra: readonly (readonly number[])[]): Nesting {
  const n = base.nestOffsets.length - 1;
  const nestOffsets = new Int32Array(n + 1);
  const targets: number[] = [];
  for (let r = 0; r < n; r++) {
    nestOffsets[r] = targets.length;
    for (let j = base.nestOffsets[r]; j < base.nestOffsets[r + 1]; j++) targets.push(base.nestTargets[j]);
    for (const x of extra[r] ?? []) if (!targets.includes(x, nestOffsets[r])) targets.push(x);
  }
  nestOffsets[n] = targets.length;
  return { nestOffsets, nestTargets: Int32Array.from(targets) };
}
