/**
 * What each statement is, for the structure analysis: the walk over a block's statements, and
 * for each one whether it is a comment, an import, a definition (its header and body: blocks.ts),
 * a compound statement (compound.ts), a bare block or a simple statement — which may span lines
 * and hold closures or nested blocks, each then a block of its own.
 */
import type { Node } from 'web-tree-sitter';
import { LineKind, type LanguageId, type LineKindValue } from './types.js';
import { declNames, defNames, importNames } from './names.js';
import { typeOf } from './nodecache.js';
import { CtxpruneError } from '../errors.js';
import { eRow, sRow, type Ctx } from './analysis.js';
import { CompoundAnalysis } from './compound.js';
import { InnerSearch } from './inner.js';

/** Statements nested deeper than this are walked later from the top (Analyzer.statement): ~5 stack frames a level. */
export const MAX_WALK_DEPTH = 128;

export class Analyzer extends CompoundAnalysis {
  readonly inner: InnerSearch;

  constructor(lang: LanguageId, lines: string[]) {
    super(lang, lines);
    this.inner = new InnerSearch(lang, this.t);
  }

  walkBlock(container: Node, ctx: Ctx, skipClauses = false): void {
    this.walkChildren(container.namedChildren, ctx, skipClauses);
  }

  /** walkBlock over a run of a block's children (structure.ts walks the top level in runs). */
  walkChildren(children: readonly (Node | null)[], ctx: Ctx, skipClauses = false): void {
    let pendingDeco = -1;
    for (const c of children) {
      if (!c) continue;
      const type = typeOf(c);
      if (skipClauses && this.t.clauses.has(type)) continue;
      if (this.t.decorators.has(type)) {
        const s = sRow(c);
        this.claim(s, eRow(c), ctx);
        for (let r = s; r <= eRow(c); r++) this.setKind(r, LineKind.Decorator, ctx);
        if (pendingDeco < 0) pendingDeco = s;
        continue;
      }
      if (this.t.comments.has(type)) {
        this.comment(c, ctx);
        continue;
      }
      this.statement(c, ctx, pendingDeco);
      pendingDeco = -1;
    }
  }

  protected comment(c: Node, ctx: Ctx): void {
    const s = sRow(c);
    const e = eRow(c);
    const line = this.lines[s] ?? '';
    const col = c.startPosition.column;
    const own = line.slice(0, col).trim().length === 0;
    this.claim(own ? s : s + 1, e, ctx);
    for (let r = own ? s : s + 1; r <= e; r++) this.setKind(r, LineKind.Comment, ctx);
    if (own) this.addSpan(s, e);
  }

  /**
   * One statement. Deeper than MAX_WALK_DEPTH statements (definitions nested a thousand deep)
   * it waits in `deferred` and is walked from the top after its run (structure.ts), so that the
   * walk's recursion never outgrows the stack; it is nothing but a statement to its callers, so
   * the order is all that changes, and only past a depth no real file reaches.
   */
  statement(c: Node, ctx: Ctx, spanStart = -1): void {
    if (this.depth >= MAX_WALK_DEPTH) {
      this.deferred.push(() => this.statement(c, ctx, spanStart));
      return;
    }
    this.depth++;
    try {
      this.statementHere(c, ctx, spanStart);
    } finally {
      this.depth--;
    }
  }

  private statementHere(c: Node, ctx: Ctx, spanStart: number): void {
    // A work cap, so that no input can make the analysis hang: past it, callers fall back to
    // the indentation structure (prune() says so in stats.degraded).
    if (++this.visits > this.maxVisits) {
      throw new CtxpruneError('INPUT_TOO_LARGE', `structure analysis stopped after ${this.maxVisits} statements`);
    }
    const t = this.t;
    const type = typeOf(c);
    if (t.transparent.has(type)) {
      this.claim(sRow(c), eRow(c), ctx);
      this.walkBlock(c, ctx);
      return;
    }
    if (t.wrappers.has(type)) {
      const field = t.wrappers.get(type)!;
      const inner = field ? c.childForFieldName(field) : c.lastNamedChild;
      const s0 = spanStart >= 0 ? Math.min(spanStart, sRow(c)) : sRow(c);
      const it = inner ? typeOf(inner) : '';
      if (inner && (t.defs.has(it) || t.controls.has(it) || t.wrappers.has(it))) {
        this.claim(s0, sRow(inner) - 1, ctx);
        this.statement(inner, ctx, s0);
        return;
      }
      this.simple(c, ctx, s0);
      return;
    }
    if (t.imports.has(type)) {
      const s = sRow(c);
      const e = eRow(c);
      this.claim(s, e, ctx);
      for (let r = s; r <= e; r++) this.setKind(r, LineKind.Import, ctx);
      this.addSpan(s, e);
      this.defineImported(s, e, importNames(c.text, this.lang), ctx.parent);
      return;
    }
    if (t.defs.has(type)) {
      this.def(c, ctx, spanStart);
      return;
    }
    if (t.controls.has(type)) {
      this.compound(c, ctx, spanStart, -1);
      return;
    }
    if (t.cases.has(type)) {
      this.caseNode(c, ctx);
      return;
    }
    if (t.clauses.has(type)) {
      if (ctx.caseOwner) {
        this.caseNode(c, ctx);
        return;
      }
      // A clause inside a body (Ruby `rescue`/`ensure` in a method body): a clause of the owner.
      const owner = ctx.parent;
      const outer: Ctx = { ...ctx, parent: ctx.ownerParent, floor: -1 };
      this.openSegment({ row: sRow(c), node: c, body: this.clauseBody(c) }, outer, LineKind.Clause, -1, -1, sRow(c));
      if (owner >= 0) {
        this.companionGroup[owner] = owner;
        this.companionGroup[sRow(c)] = owner;
      }
      return;
    }
    if (t.blocks.has(type)) {
      // A bare block `{ ... }` used as a statement: a block of its own (its `{` line is the
      // header), so that repair keeps `{` and `}` together.
      if (sRow(c) === eRow(c)) {
        this.simple(c, ctx, spanStart);
        return;
      }
      this.openSegment({ row: sRow(c), node: c, body: c }, ctx, LineKind.ControlHeader, -1, this.endTokenRow(c), sRow(c));
      return;
    }
    this.simple(c, ctx, spanStart);
  }

  private def(n: Node, ctx: Ctx, spanStart: number): void {
    const body = this.bodyOf(n);
    const names = defNames(n, this.lang);
    const s0 = spanStart >= 0 ? Math.min(spanStart, sRow(n)) : sRow(n);
    const nt = typeOf(n);
    if (!body || (eRow(body) === sRow(n) && !this.t.classLike.has(nt) && eRow(n) === sRow(n))) {
      // Definition without a block (prototype, signature, unit struct, file-scoped namespace) or a one-liner.
      const isNs = /namespace|mod_item|module/.test(nt) && !body;
      this.simple(n, ctx, s0, isNs ? LineKind.Import : LineKind.DefHeader);
      let row = sRow(n);
      while (row < eRow(n) && this.isDecoratorLine(row)) row++;
      this.define(row, names, ctx.parent);
      if (body && row < this.blockEnd.length) this.blockEnd[row] = Math.max(row, eRow(n));
      return;
    }
    const headerEnd = this.headerEnd(body, sRow(n), n);
    let row = sRow(n);
    while (row < headerEnd && (this.isDecoratorLine(row) || this.kind[row] === LineKind.Comment)) row++;
    const fn = !this.t.classLike.has(nt);
    this.openSegment({ row, node: n, body }, ctx, LineKind.DefHeader, -1, this.endTokenRow(n), s0, fn);
    if (!fn && row < this.classLike.length) this.classLike[row] = 1;
    this.define(row, names, ctx.parent);
  }

  /** A simple statement, possibly spanning lines, possibly holding closures / nested blocks. */
  protected simple(c: Node, ctx: Ctx, spanStart: number, kind?: LineKindValue): void {
    const s = sRow(c);
    const e = eRow(c);
    const s0 = spanStart >= 0 ? Math.min(spanStart, s) : s;
    const text0 = this.lines[s] ?? '';
    const importRe = this.t.importLine;
    let k = kind;
    if (!k && importRe && importRe.test(text0) && s === c.startPosition.row) k = LineKind.Import;
    if (!ctx.inFn && (this.t.varDecls.has(typeOf(c)) || k === LineKind.Import) && !this.definedNames.has(s)) {
      const names = declNames(c);
      if (k === LineKind.Import) this.defineImported(s, e, names, ctx.parent);
      else this.define(s, names, ctx.parent);
    }
    if (e > s && this.inner.types.length) {
      const found = this.inner.of(c);
      const outer: Node[] = [];
      let lastEnd = -1;
      for (const x of found) {
        if (!x || x.startIndex < lastEnd) continue;
        if (x.id === c.id) continue;
        if (eRow(x) === sRow(x)) continue;
        const xt = typeOf(x);
        const isCtl = this.t.controls.has(xt);
        const b = isCtl ? x : (x.childForFieldName('body') ?? (this.t.blocks.has(xt) ? x : null));
        if (!b || (!isCtl && !this.t.blocks.has(typeOf(b)) && b !== x)) continue;
        outer.push(x);
        lastEnd = x.endIndex;
      }
      if (outer.length) {
        const scoped = !found.includes(null);
        if (scoped) this.inner.scope.push({ start: c.startIndex, end: c.endIndex, list: found as Node[] });
        this.segmented(c, outer, ctx, s0, k);
        if (scoped) this.inner.scope.pop();
        return;
      }
    }
    this.claim(s0, e, ctx);
    if (k !== undefined) {
      if (k === LineKind.Import) for (let r = s; r <= e; r++) this.setKind(r, k, ctx);
      else this.setKind(s, k, ctx);
    }
    this.addSpan(s0, e);
  }

  /**
   * A statement holding closures or nested blocks: each is a block of its own (a compound
   * statement or a closure's header and body), the rows around them the statement's. `kind` (an
   * import, a definition without a body, a control header without clauses) goes where the
   * unsegmented path puts it: the statement's first row, and for an import each of its rows up to
   * the first block's header; a row a block already took keeps the block's kind.
   */
  private segmented(c: Node, inner: Node[], ctx: Ctx, s0: number, kind?: LineKindValue): void {
    if (kind !== undefined) {
      const s = sRow(c);
      const to = kind === LineKind.Import && inner.length ? Math.max(s, sRow(inner[0]) - 1) : s;
      for (let r = s; r <= to; r++) this.setKind(r, kind, ctx);
    }
    let cur = sRow(c);
    let spanS = s0;
    let first = true;
    for (const x of inner) {
      if (sRow(x) < cur) continue;
      let closeRow: number;
      const xt = typeOf(x);
      if (this.t.controls.has(xt)) {
        closeRow = this.compound(x, ctx, spanS, cur);
      } else {
        const body = x.childForFieldName('body') ?? x;
        const k = this.t.innerControls?.has(xt) ? LineKind.ControlHeader : LineKind.DefHeader;
        let head = cur;
        if (sRow(x) > cur) {
          // A closure below the line where the statement (or the previous closure) ends heads
          // its own block: the lines above it are the statement's, held by the bracket nesting,
          // so a line in one method of an object literal does not bring every method above it.
          head = sRow(x);
          this.claim(first ? spanS : cur + 1, head - 1, ctx);
          spanS = head;
        }
        closeRow = this.openSegment({ row: head, node: x, body }, ctx, k, -1, this.endTokenRow(x), spanS, true);
        if (head !== closeRow) this.claim(closeRow, closeRow, ctx);
      }
      cur = Math.max(cur, closeRow);
      spanS = cur;
      first = false;
    }
    const e = eRow(c);
    if (e > cur) this.claim(cur + 1, e, ctx);
    this.addSpan(cur, e);
  }
}
