/**
 * The state of a structure analysis (structure.ts): the per-line arrays a FileStructure is made
 * of, and the writes every part of the walk makes to them (a row claimed by a block, its kind,
 * a span kept whole, the names a row defines). The walk itself is in blocks.ts (a header, its
 * body and closer), compound.ts (if/else, try/catch, switch and case labels) and statements.ts
 * (what each statement is); they call each other through the abstract methods here.
 */
import type { Node } from 'web-tree-sitter';
import { LineKind, type LanguageId, type LineKindValue } from './types.js';
import { grammarTable, type GrammarTable } from './grammars.js';
import { stripCr } from './lexical.js';
import { endOf } from './nodecache.js';

export interface Ctx {
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

export interface Segment {
  row: number;
  node: Node;
  body: Node | null;
}

const WORD_CHAR = /[A-Za-z0-9_$]/;
/** `name` occurs in `line` as a whole identifier. */
function hasWord(line: string, name: string): boolean {
  for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
    if (!WORD_CHAR.test(line[i - 1] ?? ' ') && !WORD_CHAR.test(line[i + name.length] ?? ' ')) return true;
  }
  return false;
}

export function sRow(n: Node): number {
  return n.startPosition.row;
}
/** End row, not counting a trailing newline that some nodes include. */
export function eRow(n: Node): number {
  const p = endOf(n);
  const s = n.startPosition.row;
  return p.column === 0 && p.row > s ? p.row - 1 : p.row;
}

export abstract class AnalysisState {
  /** Statements visited so far, and the cap (see analyzeTree). */
  visits = 0;
  maxVisits = Number.POSITIVE_INFINITY;
  /** How many statements the walk is inside now, and the walks of those too deep to take now (statements.ts). */
  depth = 0;
  readonly deferred: (() => void)[] = [];
  readonly t: GrammarTable;
  readonly kind: Uint8Array;
  readonly parent: Int32Array;
  readonly spanStart: Int32Array;
  readonly spanEnd: Int32Array;
  readonly blockEnd: Int32Array;
  readonly closer: Int32Array;
  readonly firstBodyLine: Int32Array;
  readonly classLike: Uint8Array;
  readonly companionGroup: Int32Array;
  readonly spans: number[] = [];
  readonly definedNames = new Map<number, string[]>();
  readonly defScope = new Map<number, number>();

  constructor(
    readonly lang: LanguageId,
    readonly lines: string[],
  ) {
    const n = lines.length;
    this.t = grammarTable(lang);
    this.kind = new Uint8Array(n).fill(LineKind.Code);
    this.parent = new Int32Array(n).fill(-1);
    this.spanStart = new Int32Array(n);
    this.spanEnd = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.spanStart[i] = i;
      this.spanEnd[i] = i;
    }
    this.blockEnd = new Int32Array(n).fill(-1);
    this.closer = new Int32Array(n).fill(-1);
    this.firstBodyLine = new Int32Array(n).fill(-1);
    this.classLike = new Uint8Array(n);
    this.companionGroup = new Int32Array(n).fill(-1);
  }

  // ---- primitive writes -------------------------------------------------------------------

  protected claim(from: number, to: number, ctx: Ctx, parent = ctx.parent): void {
    const lo = Math.max(from, ctx.floor + 1);
    const hi = Math.min(to, this.parent.length - 1);
    for (let r = lo; r <= hi; r++) this.parent[r] = parent;
  }
  protected setKind(row: number, k: LineKindValue, ctx: Ctx): void {
    if (row > ctx.floor && row < this.kind.length) this.kind[row] = k;
  }
  protected addSpan(s: number, e: number): void {
    if (e > s) this.spans.push(s, e);
  }
  protected define(row: number, names: string[], scope: number): void {
    if (!names.length || row < 0) return;
    const prev = this.definedNames.get(row);
    if (prev) {
      for (const x of names) if (!prev.includes(x)) prev.push(x);
    } else this.definedNames.set(row, [...new Set(names)]);
    if (!this.defScope.has(row)) this.defScope.set(row, scope);
  }
  /**
   * A multi-line import defines each name on the line that lists it, so a use keeps that line
   * (the list is kept in part) rather than the statement's first line.
   */
  protected defineImported(s: number, e: number, names: string[], scope: number): void {
    if (e === s) {
      this.define(s, names, scope);
      return;
    }
    for (const name of names) {
      let row = s;
      for (let r = s; r <= e; r++) {
        if (hasWord(this.lines[r] ?? '', name)) {
          row = r;
          break;
        }
      }
      this.define(row, [name], scope);
    }
  }
  protected isDecoratorLine(row: number): boolean {
    const re = this.t.decoratorLine;
    return !!re && re.test(stripCr(this.lines[row] ?? '').trimStart());
  }

  // ---- the walk (statements.ts) -----------------------------------------------------------

  abstract walkBlock(container: Node, ctx: Ctx, skipClauses?: boolean): void;
  abstract statement(c: Node, ctx: Ctx, spanStart?: number): void;
  protected abstract comment(c: Node, ctx: Ctx): void;
  protected abstract simple(c: Node, ctx: Ctx, spanStart: number, kind?: LineKindValue): void;
}
