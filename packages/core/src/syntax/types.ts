/**
 * The per-line structure LaMR's dependency rubric and the AST-aware repair need.
 * Produced from a tree-sitter tree (structure.ts) or, without a grammar, from indentation
 * (fallback.ts). All line indices are 0-based; -1 means "none".
 */

export const LANGUAGES = ['python', 'typescript', 'tsx', 'javascript', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php'] as const;
export type LanguageId = (typeof LANGUAGES)[number];

/** What a line is, for the dependency rubric. One kind per line: the first that applies in this order. */
export const LineKind = {
  Blank: 0,
  Comment: 1,
  /** import / from-import / #include / use / require binding / using / package */
  Import: 2,
  /** decorator or annotation line attached to a definition (@x, #[x], [Attr]) */
  Decorator: 3,
  /** opens a definition block: function, method, class, struct, interface, enum, impl, module, namespace */
  DefHeader: 4,
  /** opens a control block: if, for, while, try, switch, with, match, do, ... */
  ControlHeader: 5,
  /** a later clause of a compound statement: elif/else/except/finally/catch/case/default/rescue/ensure/when */
  Clause: 6,
  /** only closing delimiters (`}`, `});`, `end`, `} while (x);`) */
  Closer: 7,
  Code: 8,
} as const;
export type LineKindValue = (typeof LineKind)[keyof typeof LineKind];

export interface FileStructure {
  language: LanguageId | null;
  /** 'tree-sitter' when built from a parse tree, 'indent' for the grammar-less fallback. */
  source: 'tree-sitter' | 'indent';
  lineCount: number;
  /** ERROR + MISSING nodes in the input's tree (0 for the fallback). */
  errorCount: number;
  /** LineKind per line. */
  kind: Uint8Array;
  /**
   * The header line of the innermost block whose body contains this line (for a line inside
   * `def f():` body → the `def` line; inside an `else:` clause → the `else` line; inside a
   * case → the `case` line). -1 at top level. Following `parent` repeatedly gives the scope chain.
   */
  parent: Int32Array;
  /**
   * The smallest span that must be kept whole if this line is kept, so that the kept text stays
   * parseable: a multi-line simple statement or expression statement (call with arguments on
   * several lines, a string literal spanning lines, a dict literal), or for a header line the
   * whole header (decorators + signature lines up to the line that opens the body).
   * For most lines spanStart == spanEnd == the line itself.
   */
  spanStart: Int32Array;
  spanEnd: Int32Array;
  /** For header and clause lines: the last line of the block they open (inclusive); else -1. */
  blockEnd: Int32Array;
  /**
   * For header and clause lines of brace languages (and Ruby `end`): the line holding the
   * block's closing delimiter when it is a different line from the header; else -1.
   */
  closer: Int32Array;
  /**
   * For header and clause lines: the first line of the first statement of the body (the body
   * line to keep so that `def f():` is not followed by nothing in Python); else -1.
   */
  firstBodyLine: Int32Array;
  /**
   * 1 at the header of a class-like definition (GrammarTable.classLike: class, interface, enum,
   * namespace, …), whose members may not parse without it. Absent where no tree was read.
   */
  classLike?: Uint8Array;
  /**
   * Control-flow companions: all header/clause lines of one compound statement share a group id
   * (if/elif/else, try/except/else/finally, try/catch/finally, do/while, switch and its closer
   * line); -1 for lines in no group. Group ids are the header line of the compound statement.
   */
  companionGroup: Int32Array;
  /**
   * Name definition → use edges in CSR form: the definition lines used by line i are
   * useTargets[useOffsets[i] .. useOffsets[i+1]). A definition is an import binding, a
   * function/class/method/type, or a module- or class-level variable; a use is an identifier on
   * the line that resolves to such a definition (nearest preceding definition of that name in an
   * enclosing scope, else any definition in the file). A line never points at itself.
   */
  useOffsets: Int32Array;
  useTargets: Int32Array;
  /** Names defined on each definition line (for reasons shown to users and for the labeler). */
  definedNames: Map<number, string[]>;
  /**
   * Bracket nesting, for keeping a long statement in part (syntax/nesting.ts): keeping line i
   * needs lines nestTargets[nestOffsets[i] .. nestOffsets[i+1]) — the first and last line of the
   * innermost multi-line expression around it that starts earlier, and the last line of each one
   * that starts on it. Empty without a parse tree.
   */
  nestOffsets: Int32Array;
  nestTargets: Int32Array;
}
