/**
 * A block of the structure analysis: a header (or clause) line, the rows of its header span, its
 * body and the row that closes it (`}`, `end`, the next clause), the rows it claims, and its first
 * body statement. Also where a definition's body is, and where its header ends.
 */
import type { Node } from 'web-tree-sitter';
import { LineKind, type LineKindValue } from './types.js';
import { stripCr } from './lexical.js';
import { endOf, isEmptyNode, isNamedNode, typeOf } from './nodecache.js';
import { AnalysisState, eRow, sRow, type Ctx, type Segment } from './analysis.js';

export abstract class BlockAnalysis extends AnalysisState {
  /** Body of a clause node that holds its statements directly (Ruby else/ensure) or in a field. */
  protected clauseBody(c: Node): Node {
    const b = c.childForFieldName('body') ?? c.childForFieldName('consequence');
    if (b) return b;
    for (const k of c.namedChildren) if (k && this.t.blocks.has(typeOf(k))) return k;
    return c;
  }

  protected bodyOf(n: Node): Node | null {
    const t = this.t;
    let b = n.childForFieldName('body');
    const nt = typeOf(n);
    if (!b && t.defBody) {
      const d = t.defBody(n);
      if (d === null) return null;
      if (d) b = d;
    }
    if (!b && nt === 'accessor_declaration') return null;
    if (!b) {
      for (const k of n.namedChildren)
        if (k && t.blocks.has(typeOf(k))) {
          b = k;
          break;
        }
    }
    const bt = b ? typeOf(b) : '';
    if (b && !t.blocks.has(bt)) {
      // property with accessor list, arrow body with expression, ...
      if (bt === 'accessor_list' || bt === 'block') return b;
      return null;
    }
    return b;
  }

  protected endTokenRow(n: Node): number {
    const ep = endOf(n);
    const line = this.lines[ep.row] ?? '';
    if (ep.column === 0) return -1;
    if (line[ep.column - 1] === '}') return ep.row;
    if (this.t.endKeyword && line.slice(Math.max(0, ep.column - 3), ep.column) === 'end') return ep.row;
    return -1;
  }

  /**
   * Last row of the header: the row of the body's `{`, else the end of what precedes the body.
   * `owner` is the node the body was taken from (usually its parent; only a hint).
   */
  protected headerEnd(body: Node, headerRow: number, owner: Node | null): number {
    const sp = body.startPosition;
    const ch = (this.lines[sp.row] ?? '')[sp.column];
    if (ch === '{') return Math.max(headerRow, sp.row);
    if (!this.t.bracelessBlocks && ch !== undefined && sp.row > headerRow) {
      // Allman braces are caught above; a body starting on a later line without '{' (brace-less body).
      const prevLine = stripCr(this.lines[sp.row - 1] ?? '').trimEnd();
      if (!prevLine.endsWith('{')) return Math.max(headerRow, sp.row - 1);
    }
    const kids = body.children;
    const first = kids.length ? kids[0] : null;
    const ft = first ? typeOf(first) : '';
    if (first && (ft === '{' || ft === 'do' || ft === ':')) return Math.max(headerRow, sRow(first));
    // body.child(0), then nextSibling up to 4 times: the next entry of `children` while the
    // nodes have text (tree-sitter's own nextSibling is kept after a zero-width node).
    let inKids = true;
    for (let i = 0, k = first; k && i < 4; i++) {
      if (typeOf(k) === '{') return Math.max(headerRow, sRow(k));
      if (isNamedNode(k)) break;
      if (inKids && !isEmptyNode(k)) k = i + 1 < kids.length ? kids[i + 1] : null;
      else {
        k = k.nextSibling;
        inKids = false;
      }
    }
    const prev = this.previousSibling(body, owner);
    if (prev) return Math.max(headerRow, eRow(prev));
    return headerRow;
  }

  /**
   * The node before `body` among its parent's children, when the parent's start does not come
   * after it (always so for a node with text). Uses `owner.children` when `owner` is the parent;
   * tree-sitter's previousSibling / parent (each a walk down from the root) otherwise.
   */
  protected previousSibling(body: Node, owner: Node | null): Node | null {
    // Comments between a header and its body (Ruby's doc comments after `module Rack`, before the
    // first statement) are not part of the header: the node before them is where it ends.
    const comments = this.t.comments;
    if (owner && !isEmptyNode(body)) {
      const kids = owner.children;
      const id = body.id;
      for (let i = 0; i < kids.length; i++) {
        if (kids[i].id !== id) continue;
        let j = i - 1;
        while (j > 0 && comments.has(typeOf(kids[j]))) j--;
        return j >= 0 ? kids[j] : null;
      }
    }
    let prev = body.previousSibling;
    while (prev && comments.has(typeOf(prev)) && prev.previousSibling) prev = prev.previousSibling;
    if (prev && body.parent && prev.startIndex >= body.parent.startIndex) return prev;
    return null;
  }

  /**
   * Open one block: a header (or clause) line `seg.row` whose header span starts at `spanStart`,
   * with body `seg.body`. Returns the row that closes the block (closer or last body row).
   */
  protected openSegment(
    seg: Segment,
    ctx: Ctx,
    kind: LineKindValue,
    nextRow: number,
    endRow: number,
    spanStart: number,
    inFn = ctx.inFn,
    caseOwner = false,
  ): number {
    const { row, body } = seg;
    const selfBody = body === seg.node;
    let hEnd = row;
    if (body) {
      if (selfBody) {
        const open = this.findChild(body, '{');
        if (open) hEnd = Math.max(row, sRow(open));
        else {
          const v = body.childForFieldName('value') ?? body.childForFieldName('condition');
          if (v && sRow(v) <= row + 1) hEnd = Math.max(row, eRow(v));
        }
      } else hEnd = this.headerEnd(body, row, seg.node);
    }
    const s = Math.min(spanStart, row);
    this.claim(s, hEnd, ctx);
    for (let r = s; r < row; r++) if (this.isDecoratorLine(r)) this.setKind(r, LineKind.Decorator, ctx);
    this.setKind(row, kind, ctx);
    this.addSpan(s, hEnd);
    if (!body) {
      this.blockEnd[row] = hEnd;
      return hEnd;
    }
    // Closing delimiter.
    let closer = -1;
    let trueDelim = false;
    const ep = endOf(body);
    const endLine = this.lines[ep.row] ?? '';
    if (ep.column > 0 && endLine[ep.column - 1] === '}') {
      closer = ep.row;
      trueDelim = true;
    } else if (this.t.endKeyword) {
      if (nextRow >= 0) closer = nextRow;
      else if (endRow >= 0) {
        closer = endRow;
        trueDelim = true;
      }
    }
    let bEnd = eRow(body);
    if (selfBody && trueDelim === false && closer < 0) {
      const lastNamed = body.lastNamedChild;
      bEnd = lastNamed ? Math.max(hEnd, eRow(lastNamed)) : hEnd;
    }
    if (trueDelim) bEnd = Math.max(bEnd, closer);
    if (nextRow >= 0 && this.t.endKeyword && closer === nextRow) bEnd = Math.min(Math.max(bEnd, hEnd), nextRow - 1 >= hEnd ? nextRow - 1 : hEnd);
    bEnd = Math.max(bEnd, hEnd);
    this.blockEnd[row] = bEnd;
    if (closer >= 0 && closer !== row) this.closer[row] = closer;
    // Interior rows belong to this block.
    const interiorEnd = trueDelim ? closer - 1 : bEnd;
    const inner: Ctx = { parent: row, floor: hEnd, inFn, ownerParent: ctx.parent, caseOwner };
    if (interiorEnd > hEnd) this.claim(hEnd + 1, interiorEnd, ctx, row);
    if (trueDelim && closer > hEnd) this.claim(closer, closer, ctx);
    // First body statement.
    if (this.t.blocks.has(typeOf(body)) || selfBody) {
      for (const k of body.namedChildren) {
        if (!k) continue;
        const kt = typeOf(k);
        if (this.t.comments.has(kt) || this.t.decorators.has(kt)) continue;
        if (selfBody && sRow(k) <= hEnd && eRow(k) <= hEnd) continue;
        if (selfBody && this.t.clauses.has(kt)) break;
        this.firstBodyLine[row] = this.t.cases.has(kt) ? sRow(k) : Math.max(sRow(k), sRow(k) === row ? row : hEnd + 1 > sRow(k) ? sRow(k) : sRow(k));
        break;
      }
      this.walkBlock(body, inner, selfBody);
    } else {
      this.firstBodyLine[row] = sRow(body);
      this.statement(body, inner);
    }
    return trueDelim ? closer : bEnd;
  }

  /** First of n.firstChild, its nextSibling, ... with this type. */
  protected findChild(n: Node, type: string): Node | null {
    const kids = n.children;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (typeOf(k) === type) return k;
      if (isEmptyNode(k)) {
        // tree-sitter's nextSibling of a zero-width node may leave the children list: follow it.
        for (let x = k.nextSibling; x; x = x.nextSibling) if (typeOf(x) === type) return x;
        return null;
      }
    }
    return null;
  }
}
