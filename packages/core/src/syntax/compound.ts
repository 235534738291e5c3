/**
 * Compound statements of the structure analysis: if/elif/else, try/except/finally, do/while and
 * the like flattened into one block per header or clause line, all of them companions; switch /
 * match / case labels with the statements after their `:`.
 */
import type { Node } from 'web-tree-sitter';
import { LineKind } from './types.js';
import { BODY_FIELDS, IF_TYPES } from './grammars.js';
import { isEmptyNode, isNamedNode, typeOf } from './nodecache.js';
import { eRow, sRow, type Ctx, type Segment } from './analysis.js';
import { BlockAnalysis } from './blocks.js';

export abstract class CompoundAnalysis extends BlockAnalysis {
  /**
   * Flatten if/elif/else, try/catch/finally, ... into segments (header or clause line + body).
   * Clauses and `else if` alternatives nest one level per link of the chain, so the walk keeps its
   * own stack: a generated else-if chain thousands of links long would overflow the call stack.
   */
  private flatten(node: Node, row: number, segs: Segment[], ctx: Ctx, state: { cases: boolean }): void {
    const t = this.t;
    const stack: FlattenFrame[] = [flattenFrame(node, row, segs.length)];
    while (stack.length) {
      const f = stack[stack.length - 1];
      let descend: FlattenFrame | null = null;
      while (f.i < f.kids.length && !descend) {
        const i = f.i++;
        const c = f.kids[i];
        if (!c) continue;
        const ct = typeOf(c);
        if (!isNamedNode(c)) {
          if (ct === 'else') {
            f.cur = sRow(c);
            f.afterElse = true;
          }
          continue;
        }
        if (t.comments.has(ct)) {
          if (sRow(c) > f.row) this.comment(c, ctx);
          continue;
        }
        if (t.clauses.has(ct)) {
          if (!state.cases) descend = flattenFrame(c, sRow(c), segs.length);
          continue;
        }
        if (IF_TYPES.has(ct) && (f.afterElse || f.node.fieldNameForChild(i) === 'alternative')) {
          descend = flattenFrame(c, f.cur, segs.length);
          f.afterElse = false;
          continue;
        }
        if (t.cases.has(ct)) {
          state.cases = true;
          continue;
        }
        if (t.blocks.has(ct) || f.afterElse || BODY_FIELDS.has(f.node.fieldNameForChild(i) ?? '')) {
          segs.push({ row: f.cur, node: f.node, body: c });
          f.own = true;
          f.afterElse = false;
          continue;
        }
      }
      if (descend) {
        stack.push(descend);
        continue;
      }
      // A clause with no body of its own holds its statements directly (Ruby else, ensure): it is
      // its own segment — unless it only wraps segments found inside it (`else if`), which are
      // opened on their own; opening the clause too would walk the chain again at every level
      // (exponential in the length of an else-if chain).
      if (!f.own && segs.length === f.at && (t.clauses.has(typeOf(f.node)) || state.cases || typeOf(f.node) === 'begin')) {
        segs.splice(f.at, 0, { row: f.row, node: f.node, body: f.node });
      }
      stack.pop();
    }
  }

  protected compound(n: Node, ctx: Ctx, spanStart: number, headerRow: number): number {
    const row = headerRow >= 0 ? headerRow : sRow(n);
    const segs: Segment[] = [];
    const state = { cases: false };
    this.flatten(n, row, segs, ctx, state);
    if (segs.length === 0) {
      this.simple(n, ctx, spanStart, LineKind.ControlHeader);
      return eRow(n);
    }
    const endRow = this.endTokenRow(n);
    const members: number[] = [];
    let lastClose = row;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i];
      const next = i + 1 < segs.length ? segs[i + 1].row : -1;
      const caseOwner = state.cases && seg.body === n;
      lastClose = this.openSegment(
        seg,
        ctx,
        i === 0 ? LineKind.ControlHeader : LineKind.Clause,
        next,
        endRow,
        i === 0 && spanStart >= 0 ? spanStart : seg.row,
        ctx.inFn,
        caseOwner,
      );
      members.push(seg.row);
      const cl = this.closer[seg.row];
      if (cl >= 0) members.push(cl);
    }
    // do { } while (x);  — the while line closes the statement.
    if (typeOf(n) === 'do_statement' && n.childCount > 0) {
      const w = this.findChild(n, 'while');
      if (w) {
        members.push(sRow(w));
        this.claim(sRow(w), eRow(n), ctx);
        this.addSpan(sRow(w), eRow(n));
        lastClose = Math.max(lastClose, eRow(n));
      }
    }
    if (endRow >= 0 && !members.includes(endRow)) {
      members.push(endRow);
      this.claim(endRow, endRow, ctx);
    }
    const uniq = [...new Set(members)];
    if (uniq.length > 1) for (const m of uniq) if (m > ctx.floor) this.companionGroup[m] = row;
    return Math.max(lastClose, endRow);
  }

  /** A case label with its statements (switch_case, case_statement, match_arm, when, case_clause, ...). */
  protected caseNode(c: Node, ctx: Ctx): void {
    const row = sRow(c);
    this.claim(row, row, ctx);
    this.setKind(row, LineKind.Clause, ctx);
    const t = this.t;
    let body: Node | null = c.childForFieldName('consequence') ?? null;
    // The grammar's own shape of a case body (grammars.ts: Rust arms, Java rules, Ruby when/else).
    if (!body && t.caseBody) {
      const own = t.caseBody(c, (n) => t.blocks.has(typeOf(n)));
      if (own === 'whole') {
        const e = eRow(c);
        this.claim(row, e, ctx);
        this.addSpan(row, e);
        return;
      }
      if (own) body = own;
    }
    if (body) {
      this.openSegment({ row, node: c, body }, ctx, LineKind.Clause, -1, -1, row);
      return;
    }
    // Statements follow the label's ':'.
    let colon: Node | null = null;
    const stmts: Node[] = [];
    // c.firstChild, then nextSibling: the next entry of `children` while the nodes have text
    // (tree-sitter's own nextSibling is kept after a zero-width node). C# / Java labels are
    // named children before the ':'.
    const kids = c.children;
    let inKids = true;
    for (let i = 0, k = kids.length ? kids[0] : null; k;) {
      if (!colon) {
        const kt = typeOf(k);
        if (kt === ':' || kt === '->') colon = k;
      } else if (isNamedNode(k)) stmts.push(k);
      if (inKids && !isEmptyNode(k)) {
        i++;
        k = i < kids.length ? kids[i] : null;
      } else {
        k = k.nextSibling;
        inKids = false;
      }
    }
    if (!colon) {
      // C# switch_section: labels are named children, then statements.
      for (const k of c.namedChildren) if (k && !/label|pattern|when_clause/.test(typeOf(k)) && sRow(k) >= row) stmts.push(k);
    }
    const hEnd = colon ? Math.max(row, sRow(colon)) : row;
    let bEnd = hEnd;
    for (const k of stmts) bEnd = Math.max(bEnd, eRow(k));
    this.blockEnd[row] = bEnd;
    this.addSpan(row, hEnd);
    const inner: Ctx = { parent: row, floor: hEnd, inFn: ctx.inFn, ownerParent: ctx.parent, caseOwner: false };
    if (bEnd > hEnd) this.claim(hEnd + 1, bEnd, ctx, row);
    let first = -1;
    let pendingDeco = -1;
    for (const k of stmts) {
      const kt = typeOf(k);
      if (t.comments.has(kt)) {
        this.comment(k, inner);
        continue;
      }
      if (first < 0) first = sRow(k);
      if (t.transparent.has(kt)) {
        this.claim(sRow(k), eRow(k), inner);
        this.walkBlock(k, inner);
        continue;
      }
      this.statement(k, inner, pendingDeco);
      pendingDeco = -1;
    }
    this.firstBodyLine[row] = first;
  }
}

/** One node of CompoundAnalysis.flatten's walk: where it is among its children, and what it has seen. */
interface FlattenFrame {
  node: Node;
  /** The row its segments start on (its header's, or the `else` before it). */
  row: number;
  kids: (Node | null)[];
  i: number;
  cur: number;
  afterElse: boolean;
  /** segs.length when it was entered. */
  at: number;
  /** Whether it pushed a segment of its own. */
  own: boolean;
}

function flattenFrame(node: Node, row: number, at: number): FlattenFrame {
  return { node, row, kids: node.children, i: 0, cur: row, afterElse: false, at, own: false };
}
