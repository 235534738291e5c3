/**
 * AST-aware repair: close the decoder's keep set under the structure the kept lines need to be
 * read (and, for a file that parsed, to parse): whole statements, enclosing scope headers,
 * closing delimiters, control-flow companions, a body statement for Python blocks, and (with
 * `dependencies`; off in prune() since the validation corpus measured it costing recall, see
 * policy.ts REPAIR_IMPORTS) the imports that evidence lines use. Other definitions they use are the dependency rubric's call
 * (a definition far away costs its scope's headers and markers; repair would pay that even
 * when the budget has better use). Pure: masks and structure in, masks out.
 */
import { languageEntry } from '../syntax/grammars.js';
import { type FileStructure, LineKind, type LanguageId } from '../syntax/types.js';
import { Reason } from './reasons.js';
import { runSteps, STEP_LINES, type Steps } from '../util/steps.js';

export interface RepairOptions {
  /** Headers, spans, closers, companions, body lines. */
  syntactic: boolean;
  /** Imports used by evidence lines. */
  dependencies: boolean;
  language: LanguageId | null;
  /**
   * Multi-line statements longer than this keep only their first and last lines around the
   * kept ones, and the lines that open and close each bracket around them (FileStructure's
   * nesting): a 90-line docstring or a 300-line config literal is not kept whole for one
   * matching line. Each elided run becomes a marker comment inside the statement, which parses
   * in every grammar here for strings, comments and bracketed lists. Spans marked in
   * `wholeSpans` (by their first line) are kept whole: the pipeline marks those whose partial
   * form failed to parse.
   */
  maxWholeSpan: number;
  wholeSpans: Uint8Array | null;
  /**
   * A definition's header does not drag in the headers (and closers) of the scopes around it:
   * a kept line keeps the control headers up to its innermost definition and that definition's
   * header. For tight budgets, where an outer class or function header costs what a line of
   * evidence does; brackets the line sits in still close, and so does the class a method is a
   * member of where a method does not parse without it (RepairIndex.container).
   */
  shallow?: boolean;
  /**
   * Control headers (if, for, try, else) are not kept for the lines inside them: a line keeps
   * its innermost definition's header (and, without `shallow`, the definitions around that).
   */
  flat?: boolean;
  /**
   * No header is kept for a statement inside it: the statement stands alone (but for the class a
   * member needs, and the clauses and brackets any line needs). A definition's header still
   * follows `shallow`.
   */
  bare?: boolean;
}

/** Lookups the closure needs, built once per structure. */
export interface RepairIndex {
  /** Lines grouped by companion group id. */
  companions: Map<number, number[]>;
  /** For a line holding a block's closing delimiter: the header that opened the block, else -1. */
  opener: Int32Array;
  /** 1 for compound-statement heads that cannot stand alone (`try` needs except/catch/finally). */
  needsHandler: Uint8Array;
  /**
   * 1 at the first line of a span that is (part of) a block header: kept whole when it is short
   * or its bracket nesting is unknown.
   */
  headerSpan: Uint8Array;
  /**
   * 1 for headers whose block cannot be empty: every Python block, and brace-less bodies in
   * other languages (`if (x)\n  return y`), which need their statement.
   */
  needsBody: Uint8Array;
  /**
   * PHP: for each line, the line of the `<?php` (or `<?=`) open tag before it, else -1. Without
   * its tag, PHP code is inline HTML text: the file still parses, but no longer as code (#16 item 12).
   */
  openTag: Int32Array;
  /**
   * 1 for the header of a class-like definition (FileStructure.classLike) whose members do not
   * parse without it (GrammarTable.membersStandAlone): shallow repair keeps it; null: none.
   */
  container: Uint8Array | null;
  /**
   * 1 at the `{` of a bare block (a block with no head of its own) where a function body holding
   * only that block, empty, does not parse (GrammarTable.loneBlockNeedsBody); null: no such rule.
   */
  bareBlock: Uint8Array | null;
  /**
   * For each member of a chain of at least LONG_CHAIN lines (an `if` with its clauses and last
   * closer, a `try` with its handlers), the line that closes the whole chain; else -1. See chainCloser.
   */
  chainEnd: Int32Array;
}

/** Chains of this many lines or more are closed by their last line (chainCloser). */
const LONG_CHAIN = 8;

const TRY_HEAD = /^\s*(?:\}\s*)?(?:try|begin)\b/;
/** A line that is only a block's `{` (and a comment). */
const BARE_OPEN = /^\s*\{\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/;

export function buildRepairIndex(st: FileStructure, lines: string[], language: LanguageId | null): RepairIndex {
  const companions = new Map<number, number[]>();
  const opener = new Int32Array(st.lineCount).fill(-1);
  const needsHandler = new Uint8Array(st.lineCount);
  const headerSpan = new Uint8Array(st.lineCount);
  const needsBody = new Uint8Array(st.lineCount);
  const openTag = new Int32Array(st.lineCount).fill(-1);
  let tag = -1;
  const table = languageEntry(language);
  const openTagLine = table?.openTag;
  const headerNeedsBody = table?.headerNeedsBody === true;
  const bareBlock = table?.loneBlockNeedsBody === true ? new Uint8Array(st.lineCount) : null;
  for (let t = 0; t < st.lineCount; t++) {
    if (openTagLine) {
      if (openTagLine.test(lines[t] ?? '')) tag = t;
      openTag[t] = tag;
    }
    const g = st.companionGroup[t];
    if (g >= 0) {
      let list = companions.get(g);
      if (!list) companions.set(g, (list = []));
      list.push(t);
      if (g === t && TRY_HEAD.test(lines[t])) needsHandler[t] = 1;
    }
    if (st.blockEnd[t] >= 0 || st.kind[t] === LineKind.Decorator) headerSpan[st.spanStart[t]] = 1;
    if (st.blockEnd[t] >= 0 && st.firstBodyLine[t] >= 0) {
      needsBody[t] = headerNeedsBody || (st.closer[t] < 0 && st.blockEnd[t] > st.spanEnd[t]) ? 1 : 0;
    }
    const c = st.closer[t];
    if (c >= 0 && c !== t && opener[c] < 0) opener[c] = t;
    if (
      bareBlock &&
      st.kind[t] === LineKind.ControlHeader &&
      st.blockEnd[t] >= 0 &&
      st.firstBodyLine[t] >= 0 &&
      st.spanStart[t] === t &&
      st.spanEnd[t] === t &&
      BARE_OPEN.test(lines[t] ?? '')
    ) {
      bareBlock[t] = 1;
    }
  }
  const container = table?.membersStandAlone === true ? null : (st.classLike ?? null);
  const chainEnd = new Int32Array(st.lineCount).fill(-1);
  for (const members of companions.values()) {
    if (members.length < LONG_CHAIN) continue;
    const last = members[members.length - 1];
    const end = st.blockEnd[last] >= 0 ? st.closer[last] : last;
    for (const m of members) chainEnd[m] = end;
  }
  return { companions, opener, needsHandler, headerSpan, needsBody, openTag, container, bareBlock, chainEnd };
}

/**
 * The line that closes header `l`'s block in the output. In a brace language a chain of clauses
 * closes each block with the next clause's `} else if (…) {` (`} catch (e) {`), which opens a
 * block of its own: closing with it would bring every later clause in, so that a 50-link
 * else-if chain was kept whole or not at all. In a long chain (RepairIndex.chainEnd) a clause's
 * block is closed by the chain's last line instead; the clauses between are elided (a comment),
 * and the braces still balance. A shorter chain keeps its clauses as before: on the validation
 * corpus closing every chain early cost TypeScript 0.007 at 8x (other cuts of the same budget).
 */
function chainCloser(st: FileStructure, index: RepairIndex, l: number): number {
  const c = st.closer[l];
  return c >= 0 && c !== l && st.blockEnd[c] >= 0 && sameLongChain(st, index, l, c) ? index.chainEnd[l] : c;
}

/** Whether `a` and `b` are members of one chain of at least LONG_CHAIN lines. */
function sameLongChain(st: FileStructure, index: RepairIndex, a: number, b: number): boolean {
  return index.chainEnd[a] >= 0 && st.companionGroup[b] === st.companionGroup[a];
}

/**
 * Extends `keep` in place (1 = kept) and records why each added line joined in `reason`.
 * Lines already kept keep their reason. Returns the number of lines added.
 */
export function repairKeepSet(...args: Parameters<typeof repairSteps>): number {
  return runSteps(repairSteps(...args));
}

/** repairKeepSet as steps (util/steps.ts): a yield every STEP_LINES lines it closes over. */
export function* repairSteps(
  keep: Uint8Array,
  reason: Uint8Array,
  st: FileStructure,
  opts: RepairOptions,
  index: RepairIndex,
  /** Lines to close from; default every kept line (pass only new lines when the rest is closed). */
  seeds?: number[],
  /** When given, every line the closure adds is pushed here. */
  addedLines?: number[],
): Steps<number> {
  const n = st.lineCount;
  const stack: number[] = [];
  // Headers whose block must not be empty and that did not join through a kept child.
  const check: number[] = [];
  let added = 0;
  const isBody = (l: number) => st.kind[l] !== LineKind.Blank && st.kind[l] !== LineKind.Comment;
  const add = (l: number, why: number, viaChild = false) => {
    if (l < 0 || l >= n || keep[l]) return;
    keep[l] = 1;
    reason[l] = why;
    stack.push(l);
    addedLines?.push(l);
    added++;
    if (!viaChild && (index.needsBody[l] || index.bareBlock?.[l])) check.push(l);
  };
  /** Whether `h`'s block keeps a statement of its own: a body line whose parent it is, other than `except` and its closer. */
  const hasKeptChild = (h: number, except = -1) => {
    for (let x = st.spanEnd[h] + 1; x <= st.blockEnd[h]; x++) {
      if (keep[x] && st.parent[x] === h && isBody(x) && x !== except && (except < 0 || x !== st.closer[except])) return true;
    }
    return false;
  };
  /**
   * Whether the bare block `h`, empty, would be all its function's body keeps: it and the bare
   * blocks around it each the only statement kept in the block around it, up to a definition.
   */
  const loneInBody = (h: number) => {
    for (let c = h, p = st.parent[h]; p >= 0; c = p, p = st.parent[p]) {
      if (hasKeptChild(p, c)) return false;
      if (!index.bareBlock?.[p]) return st.kind[p] === LineKind.DefHeader;
    }
    return false;
  };
  const wholeDone = new Set<number>();
  const seedDeps = opts.dependencies;
  if (seeds) stack.push(...seeds);
  else for (let t = 0; t < n; t++) if (keep[t]) stack.push(t);
  for (const l of stack) if (index.needsBody[l] || index.bareBlock?.[l]) check.push(l);

  let visited = 0;
  for (;;) {
    while (stack.length) {
      if (++visited % STEP_LINES === 0) yield;
      const l = stack.pop()!;
      if (seedDeps && reason[l] === Reason.Evidence) {
        for (let j = st.useOffsets[l]; j < st.useOffsets[l + 1]; j++) {
          if (st.kind[st.useTargets[j]] === LineKind.Import) add(st.useTargets[j], Reason.Dependency);
        }
      }
      if (!opts.syntactic) continue;
      const a = st.spanStart[l],
        b = st.spanEnd[l];
      // An import list is kept in part from five lines on: each name stands on its own, and a
      // marker costs about what one name does. A long header (decorators, a signature of many
      // parameters, or a closure's header inside a long literal) is kept in part only where
      // the bracket nesting is known, since its brackets must close.
      const partial =
        b - a >= (st.kind[a] === LineKind.Import ? Math.min(4, opts.maxWholeSpan) : opts.maxWholeSpan) && (!index.headerSpan[a] || st.source === 'tree-sitter');
      // The brackets around the line open and close, whole span or not: a closure's header in
      // a literal needs the literal's brackets, which lie outside its own span.
      for (let j = st.nestOffsets[l]; j < st.nestOffsets[l + 1]; j++) add(st.nestTargets[j], Reason.Repair);
      if (!partial || opts.wholeSpans?.[a]) {
        // Each line of the span comes back through here: walk the span once, not once a line.
        if (b > a && !wholeDone.has(a)) {
          wholeDone.add(a);
          for (let x = a; x <= b; x++) add(x, Reason.Repair);
        }
      } else {
        add(a, Reason.Repair);
        add(b, Reason.Repair);
        // `from m import (` … `)` cannot be empty: with no name of its own kept, the first.
        if (st.kind[a] === LineKind.Import && b - a > 1 && (l === a || l === b)) {
          let named = false;
          for (let x = a + 1; x < b && !named; x++) named = keep[x] === 1;
          if (!named) add(a + 1, Reason.Repair);
        }
      }
      add(headerKept(st, index, opts, l), Reason.Repair, isBody(l));
      if (st.blockEnd[l] >= 0) add(chainCloser(st, index, l), Reason.Repair);
      // A clause that opens with the `}` of the clause before it (`} else if (…) {`) is balanced
      // by the statement's head, which the companions below keep: not by that clause.
      const o = index.opener[l];
      if (!(o >= 0 && sameLongChain(st, index, l, o))) add(o, Reason.Repair);
      add(index.openTag[l], Reason.Repair);
      // Companions, as few as keep the statement valid: a later clause (else, except, catch)
      // needs the statement's head; a `try` head needs one handler.
      const g = st.companionGroup[l];
      if (g >= 0) {
        const members = index.companions.get(g);
        if (members && members.length > 1) {
          const head = members[0];
          if (l !== head) add(head, Reason.Repair);
          else if (index.needsHandler[head]) {
            // A handler is a clause (`catch`, `except`, `finally`), not the `}` that closes the `try`
            // on a line of its own before a `catch` on the next.
            const clauses = members.filter((m) => m !== head && st.kind[m] === LineKind.Clause);
            const handlers = clauses.length ? clauses : members.slice(1);
            if (!handlers.some((m) => keep[m])) add(handlers[0], Reason.Repair);
          }
        }
      }
    }
    if (!opts.syntactic) break;
    // A block that cannot be empty gets its first statement when none of its body is kept.
    while (check.length) {
      const h = check.pop()!;
      if (!hasKeptChild(h) && (index.needsBody[h] || loneInBody(h))) add(st.firstBodyLine[h], Reason.Repair);
    }
    if (!stack.length) break;
  }
  return added;
}

/**
 * The header line `l` keeps, or −1: its parent, but a container (a class its member needs) always;
 * with `flat` the nearest definition above the control headers; with `bare` none for a statement;
 * with `shallow` none for a definition's own lines.
 */
function headerKept(st: FileStructure, index: RepairIndex, opts: RepairOptions, l: number): number {
  let p = st.parent[l];
  if (opts.flat) while (p >= 0 && !definesScope(st, index, p) && !index.container?.[p]) p = st.parent[p];
  if (p < 0 || index.container?.[p]) return p;
  const own = definesScope(st, index, l);
  return (own ? opts.shallow : opts.bare) ? -1 : p;
}

/** A definition's header, decorator or closer: what shallow repair keeps without the scopes around it. */
function definesScope(st: FileStructure, index: RepairIndex, l: number): boolean {
  // A line of a multi-line header (parameters, type parameters) is its header's.
  const k = st.kind[st.spanStart[l]];
  if (k === LineKind.DefHeader || k === LineKind.Decorator) return true;
  const o = index.opener[l];
  return o >= 0 && st.kind[o] === LineKind.DefHeader;
}

/** Lines that can fill a gap on their own without dragging structure in. */
export function isStandaloneLine(st: FileStructure, t: number): boolean {
  const k = st.kind[t];
  return (k === LineKind.Blank || k === LineKind.Comment || k === LineKind.Code || k === LineKind.Import) && st.blockEnd[t] < 0 && st.companionGroup[t] < 0;
}
