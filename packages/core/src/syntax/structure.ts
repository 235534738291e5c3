/**
 * Per-line structure from a tree-sitter tree (pure over the tree). Descends only through
 * statement / block / definition containers; expression subtrees are never walked (multi-line
 * statements are searched for nested block openers with `descendantsOfType`, which runs in wasm;
 * its answer for a statement also serves the statements nested in it, and statements whose text
 * cannot hold an opener are not searched).
 */
import type { Node, Tree } from 'web-tree-sitter';
import { LineKind, type FileStructure, type LanguageId, type LineKindValue } from './types.js';
import { BODY_FIELDS, IF_TYPES, grammarTable, type GrammarTable } from './grammars.js';
import { declNames, defNames, importNames } from './names.js';
import { applySpans, isCloserLine, stripCr, useEdgeSteps } from './lexical.js';
import { endOf, isEmptyNode, isNamedNode, typeOf } from './nodecache.js';
import { countErrors } from './validity.js';
import { nestingSteps, type Nesting } from './nesting.js';
import { CtxpruneError } from '../errors.js';
import { type Pause, runSteps, runStepsAsync, STEP_LINES, type Steps } from '../util/steps.js';

interface Ctx {
  /** Header line of the enclosing block (-1 at top level). */
  parent: number;
  /** Rows <= floor belong to the enclosing header and are not claimed by body statements. */
  floor: number;
  /** Inside a function body (variable declarations are then not definitions). */
  inFn: boolean;
  /** Parent of the enclosing block's header (for clauses found inside a body, e.g. Ruby rescue). */
  ownerParent: number;
  /** The enclosing block is a Ruby `case` (its else is a case label). */
  caseOwner: boolean;
}

interface Segment {
  row: number;
  node: Node;
  body: Node | null;
}

/**
 * Text that each `inner` node type (grammars.ts) cannot lack: the keyword or delimiter token
 * every such node (and every body block it opens) holds. A statement without ERROR / MISSING
 * nodes whose text has none of these has no such descendant (or only a single-line keyword
 * token of that name, which simple() skips), so its `descendantsOfType` search can be skipped.
 * A method's token is the `) {` (or, in TypeScript, `):` before a return type) after its
 * parameters: a method with its brace on the next line is not searched for and stays part of
 * its statement, whose bracket nesting still holds it.
 */
const INNER_TOKENS: Record<LanguageId, RegExp | null> = {
  python: null,
  typescript: /=>|function|class|\)\s*[{:]/,
  tsx: /=>|function|class|\)\s*[{:]/,
  javascript: /=>|function|class|\)\s*\{/,
  go: /func/,
  rust: /\{/,
  java: /->|\{|switch/,
  c: /\{/,
  cpp: /\{/,
  csharp: /=>|delegate/,
  ruby: /do|\{|->|if|unless|case|begin|while/,
  php: /function|match/i,
};

const IMPORT_LINE: Partial<Record<LanguageId, RegExp>> = {
  javascript: /^\s*(const|let|var)\s+[^=]+=\s*require\s*\(/,
  typescript: /^\s*(const|let|var)\s+[^=]+=\s*require\s*\(/,
  tsx: /^\s*(const|let|var)\s+[^=]+=\s*require\s*\(/,
  ruby: /^\s*(require|require_relative|load|autoload)\b/,
  php: /^\s*(require|include)(_once)?\b/,
};

const WORD_CHAR = /[A-Za-z0-9_$]/;
/** `name` occurs in `line` as a whole identifier. */
function hasWord(line: string, name: string): boolean {
  for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
    if (!WORD_CHAR.test(line[i - 1] ?? ' ') && !WORD_CHAR.test(line[i + name.length] ?? ' ')) return true;
  }
  return false;
}

function sRow(n: Node): number {
  return n.startPosition.row;
}
/** End row, not counting a trailing newline that some nodes include. */
function eRow(n: Node): number {
  const p = endOf(n);
  const s = n.startPosition.row;
  return p.column === 0 && p.row > s ? p.row - 1 : p.row;
}

class Analyzer {
  /** Statements visited so far, and the cap (see analyzeTree). */
  visits = 0;
  maxVisits = Number.POSITIVE_INFINITY;
  readonly t: GrammarTable;
  readonly kind: Uint8Array;
  readonly parent: Int32Array;
  readonly spanStart: Int32Array;
  readonly spanEnd: Int32Array;
  readonly blockEnd: Int32Array;
  readonly closer: Int32Array;
  readonly firstBodyLine: Int32Array;
  readonly companionGroup: Int32Array;
  readonly spans: number[] = [];
  readonly definedNames = new Map<number, string[]>();
  readonly defScope = new Map<number, number>();
  readonly innerTypes: string[];
  /** Statements being segmented, with their inner-node search (innerOf). */
  readonly innerScope: { start: number; end: number; list: Node[] }[] = [];

  constructor(readonly lang: LanguageId, readonly lines: string[]) {
    const n = lines.length;
    this.t = grammarTable(lang);
    this.kind = new Uint8Array(n).fill(LineKind.Code);
    this.parent = new Int32Array(n).fill(-1);
    this.spanStart = new Int32Array(n);
    this.spanEnd = new Int32Array(n);
    for (let i = 0; i < n; i++) { this.spanStart[i] = i; this.spanEnd[i] = i; }
    this.blockEnd = new Int32Array(n).fill(-1);
    this.closer = new Int32Array(n).fill(-1);
    this.firstBodyLine = new Int32Array(n).fill(-1);
    this.companionGroup = new Int32Array(n).fill(-1);
    this.innerTypes = [...this.t.inner];
  }

  // ---- primitive writes -------------------------------------------------------------------

  private claim(from: number, to: number, ctx: Ctx, parent = ctx.parent): void {
    const lo = Math.max(from, ctx.floor + 1);
    const hi = Math.min(to, this.parent.length - 1);
    for (let r = lo; r <= hi; r++) this.parent[r] = parent;
  }
  private setKind(row: number, k: LineKindValue, ctx: Ctx): void {
    if (row > ctx.floor && row < this.kind.length) this.kind[row] = k;
  }
  private addSpan(s: number, e: number): void {
    if (e > s) this.spans.push(s, e);
  }
  private define(row: number, names: string[], scope: number): void {
    if (!names.length || row < 0) return;
    const prev = this.definedNames.get(row);
    if (prev) { for (const x of names) if (!prev.includes(x)) prev.push(x); } else this.definedNames.set(row, [...new Set(names)]);
    if (!this.defScope.has(row)) this.defScope.set(row, scope);
  }
  /**
   * A multi-line import defines each name on the line that lists it, so a use keeps that line
   * (the list is kept in part) rather than the statement's first line.
   */
  private defineImported(s: number, e: number, names: string[], scope: number): void {
    if (e === s) { this.define(s, names, scope); return; }
    for (const name of names) {
      let row = s;
      for (let r = s; r <= e; r++) {
        if (hasWord(this.lines[r] ?? '', name)) { row = r; break; }
      }
      this.define(row, [name], scope);
    }
  }
  /** Whether a multi-line statement may hold an `inner` node (see INNER_TOKENS). */
  private mayHoldInner(c: Node): boolean {
    const re = INNER_TOKENS[this.lang];
    return !re || re.test(c.text) || c.hasError;
  }

  /**
   * `c.descendantsOfType(innerTypes)` (pre-order, so ordered by start), less entries that the
   * caller skips anyway: `c` itself, and for a statement without an opener in its text, a
   * single-line keyword token. Inside a statement already searched (innerScope), the answer is
   * the part of that search strictly inside `c` (nodes that start after `c` starts and before it
   * ends are its descendants); a node starting where `c` starts is ambiguous (descendant or
   * ancestor) and then `c` is searched itself.
   */
  private innerOf(c: Node): (Node | null)[] {
    const scope = this.innerScope.length ? this.innerScope[this.innerScope.length - 1] : null;
    if (scope) {
      const cs = c.startIndex;
      const ce = c.endIndex;
      if (cs >= scope.start && ce <= scope.end) {
        const list = scope.list;
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid].startIndex < cs) lo = mid + 1;
          else hi = mid;
        }
        const out: Node[] = [];
        for (let k = lo; k < list.length; k++) {
          const x = list[k];
          if (x.startIndex >= ce) break;
          if (x.startIndex === cs) {
            if (x.id !== c.id) return c.descendantsOfType(this.innerTypes);
            continue;
          }
          out.push(x);
        }
        return out;
      }
    }
    if (!this.mayHoldInner(c)) return [];
    return c.descendantsOfType(this.innerTypes);
  }
  private isDecoratorLine(row: number): boolean {
    const re = this.t.decoratorLine;
    return !!re && re.test(stripCr(this.lines[row] ?? '').trimStart());
  }

  // ---- walking ----------------------------------------------------------------------------

  walkBlock(container: Node, ctx: Ctx, skipClauses = false): void {
    this.walkChildren(container.namedChildren, ctx, skipClauses);
  }

  /** walkBlock over a run of a block's children (analyzeTreeAsync walks the top level in runs). */
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
      if (this.t.comments.has(type)) { this.comment(c, ctx); continue; }
      this.statement(c, ctx, pendingDeco);
      pendingDeco = -1;
    }
  }

  private comment(c: Node, ctx: Ctx): void {
    const s = sRow(c);
    const e = eRow(c);
    const line = this.lines[s] ?? '';
    const col = c.startPosition.column;
    const own = line.slice(0, col).trim().length === 0;
    this.claim(own ? s : s + 1, e, ctx);
    for (let r = own ? s : s + 1; r <= e; r++) this.setKind(r, LineKind.Comment, ctx);
    if (own) this.addSpan(s, e);
  }

  statement(c: Node, ctx: Ctx, spanStart = -1): void {
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
    if (t.defs.has(type)) { this.def(c, ctx, spanStart); return; }
    if (t.controls.has(type)) { this.compound(c, ctx, spanStart, -1); return; }
    if (t.cases.has(type)) { this.caseNode(c, ctx); return; }
    if (t.clauses.has(type)) {
      if (ctx.caseOwner) { this.caseNode(c, ctx); return; }
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
      if (sRow(c) === eRow(c)) { this.simple(c, ctx, spanStart); return; }
      this.openSegment({ row: sRow(c), node: c, body: c }, ctx, LineKind.ControlHeader, -1, this.endTokenRow(c), sRow(c));
      return;
    }
    this.simple(c, ctx, spanStart);
  }

  /** Body of a clause node that holds its statements directly (Ruby else/ensure) or in a field. */
  private clauseBody(c: Node): Node {
    const b = c.childForFieldName('body') ?? c.childForFieldName('consequence');
    if (b) return b;
    for (const k of c.namedChildren) if (k && this.t.blocks.has(typeOf(k))) return k;
    return c;
  }

  private bodyOf(n: Node): Node | null {
    const t = this.t;
    let b = n.childForFieldName('body');
    const nt = typeOf(n);
    if (!b && this.lang === 'go' && nt === 'type_declaration') {
      const spec = n.namedChildren.find((k) => k !== null && typeOf(k) === 'type_spec');
      const ty = spec?.childForFieldName('type');
      const tyt = ty ? typeOf(ty) : '';
      if (tyt === 'struct_type') b = ty!.namedChildren.find((k) => k !== null && typeOf(k) === 'field_declaration_list') ?? null;
      else if (tyt === 'interface_type') b = ty!;
    }
    if (!b && (this.lang === 'c' || this.lang === 'cpp') && nt === 'function_definition') return null;
    if (!b && nt === 'accessor_declaration') return null;
    if (!b) {
      for (const k of n.namedChildren) if (k && t.blocks.has(typeOf(k))) { b = k; break; }
    }
    const bt = b ? typeOf(b) : '';
    if (b && !t.blocks.has(bt)) {
      // property with accessor list, arrow body with expression, ...
      if (bt === 'accessor_list' || bt === 'block') return b;
      return null;
    }
    return b;
  }

  private def(n: Node, ctx: Ctx, spanStart: number): void {
    const body = this.bodyOf(n);
    const names = defNames(n, this.lang);
    const s0 = spanStart >= 0 ? Math.min(spanStart, sRow(n)) : sRow(n);
    const nt = typeOf(n);
    if (!body || eRow(body) === sRow(n) && !this.t.classLike.has(nt) && eRow(n) === sRow(n)) {
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
    this.define(row, names, ctx.parent);
  }

  private endTokenRow(n: Node): number {
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
  private headerEnd(body: Node, headerRow: number, owner: Node | null): number {
    const sp = body.startPosition;
    const ch = (this.lines[sp.row] ?? '')[sp.column];
    if (ch === '{') return Math.max(headerRow, sp.row);
    if (this.lang !== 'python' && this.lang !== 'ruby' && ch !== undefined && sp.row > headerRow) {
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
      else { k = k.nextSibling; inKids = false; }
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
  private previousSibling(body: Node, owner: Node | null): Node | null {
    if (owner && !isEmptyNode(body)) {
      const kids = owner.children;
      const id = body.id;
      for (let i = 0; i < kids.length; i++) {
        if (kids[i].id === id) return i > 0 ? kids[i - 1] : null;
      }
    }
    const prev = body.previousSibling;
    if (prev && body.parent && prev.startIndex >= body.parent.startIndex) return prev;
    return null;
  }

  /**
   * Open one block: a header (or clause) line `seg.row` whose header span starts at `spanStart`,
   * with body `seg.body`. Returns the row that closes the block (closer or last body row).
   */
  private openSegment(seg: Segment, ctx: Ctx, kind: LineKindValue, nextRow: number, endRow: number,
    spanStart: number, inFn = ctx.inFn, caseOwner = false): number {
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
      closer = ep.row; trueDelim = true;
    }
    else if (this.t.endKeyword) {
      if (nextRow >= 0) closer = nextRow;
      else if (endRow >= 0) { closer = endRow; trueDelim = true; }
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
        if (selfBody && (sRow(k) <= hEnd && eRow(k) <= hEnd)) continue;
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
  private findChild(n: Node, type: string): Node | null {
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

  /** Flatten if/elif/else, try/catch/finally, ... into segments (header or clause line + body). */
  private flatten(node: Node, row: number, segs: Segment[], ctx: Ctx, state: { cases: boolean }): void {
    const t = this.t;
    let cur = row;
    let afterElse = false;
    const at = segs.length;
    let own = false;
    const kids = node.children;
    const count = kids.length;
    for (let i = 0; i < count; i++) {
      const c = kids[i];
      if (!c) continue;
      const ct = typeOf(c);
      if (!isNamedNode(c)) {
        if (ct === 'else') { cur = sRow(c); afterElse = true; }
        continue;
      }
      if (t.comments.has(ct)) { if (sRow(c) > row) this.comment(c, ctx); continue; }
      if (t.clauses.has(ct)) {
        if (state.cases) continue;
        this.flatten(c, sRow(c), segs, ctx, state);
        continue;
      }
      if (IF_TYPES.has(ct) && (afterElse || node.fieldNameForChild(i) === 'alternative')) {
        this.flatten(c, cur, segs, ctx, state);
        afterElse = false;
        continue;
      }
      if (t.cases.has(ct)) { state.cases = true; continue; }
      if (t.blocks.has(ct) || afterElse || BODY_FIELDS.has(node.fieldNameForChild(i) ?? '')) {
        segs.push({ row: cur, node, body: c });
        own = true;
        afterElse = false;
        continue;
      }
    }
    // A clause with no body of its own holds its statements directly (Ruby else, ensure): it is
    // its own segment — unless it only wraps segments found inside it (`else if`), which are
    // opened on their own; opening the clause too would walk the chain again at every level
    // (exponential in the length of an else-if chain).
    if (!own && segs.length === at && (t.clauses.has(typeOf(node)) || state.cases || typeOf(node) === 'begin')) {
      segs.splice(at, 0, { row, node, body: node });
    }
  }

  private compound(n: Node, ctx: Ctx, spanStart: number, headerRow: number): number {
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
      lastClose = this.openSegment(seg, ctx, i === 0 ? LineKind.ControlHeader : LineKind.Clause, next, endRow,
        i === 0 && spanStart >= 0 ? spanStart : seg.row, ctx.inFn, caseOwner);
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
    if (endRow >= 0 && !members.includes(endRow)) { members.push(endRow); this.claim(endRow, endRow, ctx); }
    const uniq = [...new Set(members)];
    if (uniq.length > 1) for (const m of uniq) if (m > ctx.floor) this.companionGroup[m] = row;
    return Math.max(lastClose, endRow);
  }

  /** A case label with its statements (switch_case, case_statement, match_arm, when, case_clause, ...). */
  private caseNode(c: Node, ctx: Ctx): void {
    const row = sRow(c);
    this.claim(row, row, ctx);
    this.setKind(row, LineKind.Clause, ctx);
    const t = this.t;
    let body: Node | null = c.childForFieldName('consequence') ?? null;
    if (!body && (this.lang === 'ruby')) body = c.childForFieldName('body');
    if (!body && this.lang === 'rust') {
      const v = c.childForFieldName('value');
      if (v && t.blocks.has(typeOf(v))) body = v;
      else {
        const e = eRow(c);
        this.claim(row, e, ctx);
        this.addSpan(row, e);
        return;
      }
    }
    const ct = typeOf(c);
    if (!body && this.lang === 'java' && ct === 'switch_rule') {
      const b = c.lastNamedChild;
      if (b && t.blocks.has(typeOf(b))) body = b;
      else { this.claim(row, eRow(c), ctx); this.addSpan(row, eRow(c)); return; }
    }
    if (!body && this.lang === 'ruby' && ct === 'else') body = c;
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
      if (inKids && !isEmptyNode(k)) { i++; k = i < kids.length ? kids[i] : null; }
      else { k = k.nextSibling; inKids = false; }
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
      if (t.comments.has(kt)) { this.comment(k, inner); continue; }
      if (first < 0) first = sRow(k);
      if (t.transparent.has(kt)) { this.claim(sRow(k), eRow(k), inner); this.walkBlock(k, inner); continue; }
      this.statement(k, inner, pendingDeco);
      pendingDeco = -1;
    }
    this.firstBodyLine[row] = first;
  }

  /** A simple statement, possibly spanning lines, possibly holding closures / nested blocks. */
  private simple(c: Node, ctx: Ctx, spanStart: number, kind?: LineKindValue): void {
    const s = sRow(c);
    const e = eRow(c);
    const s0 = spanStart >= 0 ? Math.min(spanStart, s) : s;
    const text0 = this.lines[s] ?? '';
    const importRe = IMPORT_LINE[this.lang];
    let k = kind;
    if (!k && importRe && importRe.test(text0) && s === c.startPosition.row) k = LineKind.Import;
    if (!ctx.inFn && (this.t.varDecls.has(typeOf(c)) || k === LineKind.Import) && !this.definedNames.has(s)) {
      const names = declNames(c);
      if (k === LineKind.Import) this.defineImported(s, e, names, ctx.parent);
      else this.define(s, names, ctx.parent);
    }
    if (e > s && this.innerTypes.length) {
      const found = this.innerOf(c);
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
        if (scoped) this.innerScope.push({ start: c.startIndex, end: c.endIndex, list: found as Node[] });
        this.segmented(c, outer, ctx, s0, k);
        if (scoped) this.innerScope.pop();
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

  // `_kind` is not applied on this path (the unsegmented one sets it): kept as found, see #20's lint report.
  private segmented(c: Node, inner: Node[], ctx: Ctx, s0: number, _kind?: LineKindValue): void {
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
        const k = this.lang === 'ruby' && (xt === 'do_block' || xt === 'block') ? LineKind.ControlHeader : LineKind.DefHeader;
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

  // ---- result -----------------------------------------------------------------------------

  /** The FileStructure, as steps (util/steps.ts): a yield every STEP_LINES lines of its per-line passes. */
  *finish(errorCount: number, nestingOf: (spanStart: Int32Array) => Steps<Nesting>): Steps<FileStructure> {
    const { lines, kind } = this;
    const n = lines.length;
    for (let i = 0; i < n; i++) {
      if (i % STEP_LINES === STEP_LINES - 1) yield;
      const text = stripCr(lines[i]).trim();
      if (text.length === 0) { kind[i] = LineKind.Blank; continue; }
      if (kind[i] === LineKind.Code && isCloserLine(text, this.lang)) kind[i] = LineKind.Closer;
    }
    applySpans(this.spans, this.spanStart, this.spanEnd);
    yield;
    const { useOffsets, useTargets } = yield* useEdgeSteps(
      lines, (r) => kind[r] <= LineKind.Import || kind[r] === LineKind.Closer, this.definedNames, this.defScope,
      this.parent, this.lang,
    );
    const nesting = yield* nestingOf(this.spanStart);
    return {
      language: this.lang,
      source: 'tree-sitter',
      lineCount: n,
      errorCount,
      kind,
      parent: this.parent,
      spanStart: this.spanStart,
      spanEnd: this.spanEnd,
      blockEnd: this.blockEnd,
      closer: this.closer,
      firstBodyLine: this.firstBodyLine,
      companionGroup: this.companionGroup,
      useOffsets,
      useTargets,
      definedNames: this.definedNames,
      ...nesting,
    };
  }
}

function linesOf(tree: Tree, lineCount: number): string[] {
  const root = tree.rootNode;
  const pre = '\n'.repeat(root.startPosition.row) + ' '.repeat(root.startPosition.column);
  const lines = (pre + root.text).split('\n');
  while (lines.length < lineCount) lines.push('');
  return lines.length > lineCount ? lines.slice(0, lineCount) : lines;
}

/**
 * Build the per-line FileStructure of a parsed file. `lines` (the text split on '\n') should be
 * passed when the caller has them; otherwise they are recovered from the tree.
 */
export function analyzeTree(
  tree: Tree, lang: LanguageId, lineCount: number, lines?: string[], maxVisits = 16 * lineCount + 10_000,
): FileStructure {
  return runSteps(analyzeSteps(tree, lang, lineCount, lines, maxVisits));
}

/** analyzeTree with `pause()` (util/steps.ts: abort, yield) between its steps. Same result. */
export function analyzeTreeAsync(
  tree: Tree, lang: LanguageId, lineCount: number, lines: string[] | undefined, pause: Pause,
  maxVisits = 16 * lineCount + 10_000,
): Promise<FileStructure> {
  return runStepsAsync(analyzeSteps(tree, lang, lineCount, lines, maxVisits), pause);
}

/**
 * analyzeTree's work as steps: the walk yields between runs of top-level statements (a run never
 * ends on a decorator, which belongs to the statement after it), the per-line passes every
 * STEP_LINES lines.
 */
function* analyzeSteps(tree: Tree, lang: LanguageId, lineCount: number, lines: string[] | undefined, maxVisits: number): Steps<FileStructure> {
  const ls = lines && lines.length === lineCount ? lines : linesOf(tree, lineCount);
  const root = tree.rootNode;
  const a = new Analyzer(lang, ls);
  // Each statement is visited a bounded number of times; 16 per line (plus slack) is far above
  // anything real code needs and far below a runaway walk.
  a.maxVisits = maxVisits;
  const ctx: Ctx = { parent: -1, floor: -1, inFn: false, ownerParent: -1, caseOwner: false };
  const children = root.namedChildren;
  const RUN = 16;
  for (let i = 0; i < children.length;) {
    let j = Math.min(children.length, i + RUN);
    while (j < children.length && children[j - 1] && a.t.decorators.has(typeOf(children[j - 1]))) j++;
    a.walkChildren(children.slice(i, j), ctx);
    i = j;
    yield;
  }
  return yield* a.finish(countErrors(tree), (spanStart) => nestingSteps(root, a.t, ls, spanStart));
}
