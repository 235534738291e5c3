/**
 * Recovery shims of the C family for what the preprocessor does (GrammarTable.recover in
 * grammars.ts; recovery.ts tries them on a parse that has errors and keeps a rewrite only when the
 * reparse has fewer). C, C++ and C# build after a preprocessor that tree-sitter never runs:
 * - a conditional inside a construct: `class A : B\n#if X\n , C\n#endif`, or an `#if` between an
 *   `if` and its `else` (both branches written out): each conditional keeps one branch, and in C
 *   not the C++-only one (`#ifdef __cplusplus` / `extern "C" {`);
 * - a comment inside a multi-line `#define`, after which tree-sitter reads the macro as code.
 * The macros themselves are shims-macros.ts's. Like the source shims (shims.ts), each rewrite is for
 * the parser only and keeps every byte offset and line break (a character becomes a space): the
 * text that is pruned and returned is never the rewritten one. Pure.
 */

/** A rewrite tried on a parse with errors: `rows` are the 0-based rows of its ERROR and MISSING nodes. */
export interface RecoveryShim {
  /**
   * The rewritten text (same length, same line breaks), or `text` itself when it has nothing to
   * change. `everywhere`: `rows` are all the rows, not the rows in error (see below).
   */
  rewrite(text: string, rows: readonly number[], everywhere?: boolean): string;
  /** How many times it is tried, each time on the rows still in error. */
  rounds: number;
  /** When the rewrite of all rows at once leaves no fewer errors, try the rows one by one. */
  perRow: boolean;
  /**
   * After the rounds, while errors remain, try the rewrite of every line of the file at once: an
   * error can surface lines below its cause (a class head's macro, reported at a later member).
   */
  everywhere: boolean;
}

/** Every character but the line's carriage return as a space. */
export function blank(line: string): string {
  return line.replace(/[^\r]/g, ' ');
}

const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b([^\n]*)$/;
/** `#if 0` / `#if false`: the branch that never builds (it may not even parse); its `#else` is taken instead. */
const NEVER = /^\s*(?:0|false)\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/;

/** A condition that holds only in C++ (`#ifdef __cplusplus`, `#if defined(__cplusplus) && X`): never, in C. */
const CPLUSPLUS = /^\s*(?:defined\s*\(\s*__cplusplus\s*\)|defined\s+__cplusplus\b|__cplusplus\b)(?:(?!\|\|).)*$/;

/**
 * Each conditional (`#if` … `#elif` … `#else` … `#endif`) keeps one branch: the first, or the first
 * after an `#if 0` (in C, after a C++-only one too: `#ifdef __cplusplus` / `extern "C" {`). The
 * directives and the other branches become blank lines.
 */
export function flattenConditionals(text: string, c = false): string {
  if (!/^[ \t]*#[ \t]*(?:if|elif|else|endif)/m.test(text)) return text;
  const lines = text.split('\n');
  /** Per open conditional: whether the current branch is kept, and whether one already was. */
  const open: { keep: boolean; kept: boolean }[] = [];
  let skipping = false;
  let continued = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (continued) {
      // The continuation of a directive, or of a line in a dropped branch.
      continued = /\\\r?$/.test(line);
      lines[i] = blank(line);
      continue;
    }
    const m = CONDITIONAL.exec(line);
    if (m) {
      const [, directive, rest] = m;
      if (directive.startsWith('if')) {
        const keep = !(directive === 'if' && NEVER.test(rest)) && !(c && directive !== 'ifndef' && CPLUSPLUS.test(rest));
        open.push({ keep, kept: keep });
      } else if (directive === 'endif') {
        open.pop();
      } else if (open.length) {
        const top = open[open.length - 1];
        top.keep = !top.kept;
        top.kept ||= top.keep;
      }
      skipping = open.some((c) => !c.keep);
      lines[i] = blank(line);
      continued = /\\\r?$/.test(line);
      continue;
    }
    if (skipping) {
      lines[i] = blank(line);
      continued = /\\\r?$/.test(line);
    }
  }
  return lines.join('\n');
}

/**
 * The block comments on the lines of a directive continued by `\`: tree-sitter reads a `#define`'s
 * value up to its first comment, and the lines after as code (`#define M() do { /* c *\/ \` …).
 */
export function blankDirectiveComments(text: string): string {
  if (!/^[ \t]*#[^\n]*\\\r?$/m.test(text)) return text;
  const lines = text.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#.*\\\r?$/.test(lines[i])) continue;
    for (; i < lines.length; i++) {
      const next = lines[i].replace(/\/\*.*?\*\//g, blank);
      if (next !== lines[i]) {
        lines[i] = next;
        changed = true;
      }
      if (!/\\\r?$/.test(lines[i])) break;
    }
  }
  return changed ? lines.join('\n') : text;
}

/** C#: its `#if`s flattened (it has no macros). */
export const CONDITIONALS: RecoveryShim = { rewrite: (text) => flattenConditionals(text), rounds: 1, perRow: false, everywhere: false };

/** C (`c`: not the C++-only branches) and C++: the conditionals flattened, and the comments inside continued directives blanked. */
function preprocessor(c: boolean): RecoveryShim {
  return { rewrite: (text) => blankDirectiveComments(flattenConditionals(text, c)), rounds: 1, perRow: false, everywhere: false };
}
export const C_PREPROCESSOR = preprocessor(true);
export const CPP_PREPROCESSOR = preprocessor(false);
