/**
 * Recovery shims of the C family (GrammarTable.recover in grammars.ts; loader.ts tries them on a
 * parse that has errors and keeps a rewrite only when the reparse has fewer). C, C++ and C# build
 * after a preprocessor that tree-sitter never runs, so files their projects compile fail to parse:
 * - a conditional inside a construct: `class A : B\n#if X\n , C\n#endif`, or an `#if` between an
 *   `if` and its `else` (both branches written out);
 * - a calling convention or export macro between words: `int CJSON_CDECL main(void)`,
 *   `FMT_API void f()`, `void (WINAPI *fn)(void)`, `f() SPDLOG_NOEXCEPT {`;
 * - a macro that expands to declarations (`FMT_BEGIN_NAMESPACE`, `TEST_CASE(25)`) or opens a
 *   function or a loop (`TEST_IMPL(name) {`, `uv__queue_foreach(q, h) {`);
 * - a macro's argument that is no expression (`container_of(p, struct t, f)`), a macro in a
 *   template's parameter list (`template <typename T, FMT_ENABLE_IF(cond)>`).
 * Like the source shims (shims.ts), each rewrite is for the parser only and keeps every byte offset
 * and line break (a character becomes a space, a name a keyword padded to its length): the text
 * that is pruned and returned is never the rewritten one. Pure.
 */

/** A rewrite tried on a parse with errors: `rows` are the 0-based rows of its ERROR and MISSING nodes. */
export interface RecoveryShim {
  /** The rewritten text (same length, same line breaks), or `text` itself when it has nothing to change. */
  rewrite(text: string, rows: readonly number[]): string;
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
function blank(line: string): string {
  return line.replace(/[^\r]/g, ' ');
}

const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b([^\n]*)$/;
/** `#if 0` / `#if false`: the branch that never builds (it may not even parse); its `#else` is taken instead. */
const NEVER = /^\s*(?:0|false)\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/;

/**
 * Each conditional (`#if` … `#elif` … `#else` … `#endif`) keeps one branch: the first, or the first
 * after an `#if 0`. The directives and the other branches become blank lines.
 */
export function flattenConditionals(text: string): string {
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
        const keep = !(directive === 'if' && NEVER.test(rest));
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

/** A macro's name as projects write it: upper case, with an underscore or at least four letters. */
const MACRO_NAME = /^[A-Z][A-Z0-9_]*$/;
/** Upper-case names that are types or values, not macros to drop (Windows and C library types). */
const NOT_MACROS = new Set([
  'FILE',
  'BOOL',
  'BYTE',
  'WORD',
  'DWORD',
  'CHAR',
  'WCHAR',
  'TCHAR',
  'LONG',
  'ULONG',
  'UINT',
  'HANDLE',
  'HRESULT',
  'SOCKET',
  'LPVOID',
  'LPSTR',
  'LPCSTR',
  'LPWSTR',
  'LPCWSTR',
  'SIZE_T',
  'NULL',
  'TRUE',
  'FALSE',
]);
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'return',
  'sizeof',
  'catch',
  'do',
  'else',
  'case',
  'new',
  'delete',
  'throw',
  'decltype',
  'alignof',
  'typeof',
]);

function isMacro(name: string): boolean {
  return MACRO_NAME.test(name) && (name.includes('_') || name.length >= 4) && !NOT_MACROS.has(name);
}

/** Index of the `)` that closes the `(` at `open` on this line, or -1. */
function closingParen(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

const LONE_NAME = /^\s*([A-Za-z_]\w*)\s*;?\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/;
const INVOCATION = /^(\s*)([A-Za-z_]\w*)\s*\(/;
const AFTER_LONE_CALL = /^\s*;?\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/;
/** An upper-case name and what follows it, for the attribute rules. */
const UPPER_WORD = /\b([A-Z][A-Z0-9_]*)\b/g;
/** `struct`, `union` or `enum` opening a macro's argument. */
const TAG_ARGUMENT = /([(,]\s*)(struct|union|enum)(?=\s+[A-Za-z_])/g;
/** A line that starts with `NAME(` (a template macro continued from the line before). */
const CONTINUED_TEMPLATE_MACRO = /^(\s*)([A-Z][A-Z0-9_]*)\s*\(/;
/** `, NAME(` inside a template's parameter list (its `)` is found by closingParen, then `>` must follow). */
const TEMPLATE_MACRO = /,\s*([A-Z][A-Z0-9_]*)\s*\(/g;

/**
 * One line, rewritten by the macro rules (see the module comment); the line itself when none
 * applies. `lowerCaseMacros`: a lower-case name alone on its line without `;` is a macro (C).
 */
function rewriteMacroLine(line: string, lowerCaseMacros: boolean): string {
  if (/^\s*#/.test(line)) return line;
  const lone = LONE_NAME.exec(line);
  if (lone) return isMacro(lone[1]) ? blank(line) : line;
  const call = INVOCATION.exec(line);
  if (call && !KEYWORDS.has(call[2])) {
    const open = line.indexOf('(', call[1].length + call[2].length);
    const close = closingParen(line, open);
    if (close > 0) {
      const rest = line.slice(close + 1);
      // A whole line that is one macro's invocation: it expands to declarations or statements. A
      // lower-case name followed by `;` is a call, which the parser reads; without it, in C, it
      // cannot be one (in C++ it is a constructor's head).
      if (AFTER_LONE_CALL.test(rest) && (MACRO_NAME.test(call[2]) || (lowerCaseMacros && !rest.includes(';')))) return blank(line);
      if (/^\s*\{/.test(rest)) {
        const indent = call[1];
        if (indent === '') {
          // At the top level it defines a function: `int f` and an empty parameter list.
          const width = close + 1;
          if (width >= 7) return 'int f' + ' '.repeat(width - 7) + '()' + rest;
        } else if (call[2].length >= 2) {
          // In a body it opens a loop or a scope: `if` over its name keeps the arguments as a condition.
          return indent + 'if' + ' '.repeat(call[2].length - 2) + line.slice(indent.length + call[2].length);
        }
      }
    }
  }
  let out = line.replace(UPPER_WORD, (name: string, _n: string, at: number) => {
    if (!isMacro(name)) return name;
    const before = line.slice(0, at);
    const after = line.slice(at + name.length);
    if (/^\s*\(/.test(after)) return name;
    const dropped = ' '.repeat(name.length);
    // Between two words: `int CJSON_CDECL main`, `FMT_API void`, `class SPDLOG_API logger`,
    // `void *CJSON_CDECL f(`, `[[noreturn]] SPDLOG_API void`, `f(UNITY_PTR_ATTRIBUTE const T* p`.
    if (/^[ \t]+[A-Za-z_~]/.test(after) && (/^\s*$/.test(before) || /(?:[\w>\]][ \t]+|[*&][ \t]*|[(,][ \t]*)$/.test(before))) return dropped;
    // At the end of a line, after a type: `void SPDLOG_INLINE` (the name is on the next line).
    if (/^[ \t]*\r?$/.test(after) && /[\w>*&][ \t]+$/.test(before)) return dropped;
    // Opening a block: `SPDLOG_TRY {` is a `{` the parser can read.
    if (/^\s*$/.test(before) && /^\s*\{/.test(after)) return dropped;
    // A calling convention in a function pointer: `(WINAPI *fn)`.
    if (/\(\s*$/.test(before) && /^\s*\*/.test(after)) return dropped;
    // After a parameter list or a declarator: `f() SPDLOG_NOEXCEPT {`, `f() override FMT_MSC_DEFAULT;`,
    // `names[] SPDLOG_LEVEL_NAMES;`.
    if (/[)\]]\s*(?:(?:const|noexcept|override|final)\s+)*$/.test(before) && /^\s*(?:[{;:=]|\r?$)/.test(after)) return dropped;
    return name;
  });
  // A default argument of `{}` (tree-sitter-cpp reads no braced initializer there): `= 0 `.
  out = out.replace(/=(\s*)\{\s*\}/g, (m: string, gap: string) => '=' + gap + '0' + ' '.repeat(m.length - gap.length - 2));
  out = out.replace(TAG_ARGUMENT, (_m, lead: string, tag: string) => lead + ' '.repeat(tag.length));
  return dropTemplateMacros(out);
}

/** `template <typename T, FMT_ENABLE_IF(cond)>`: the comma and the macro with its arguments, blanked. */
function dropTemplateMacros(line: string): string {
  let out = line;
  TEMPLATE_MACRO.lastIndex = 0;
  for (let m = TEMPLATE_MACRO.exec(line); m; m = TEMPLATE_MACRO.exec(line)) {
    if (!isMacro(m[1])) continue;
    const close = closingParen(line, m.index + m[0].length - 1);
    if (close < 0 || !/^\s*>/.test(line.slice(close + 1))) continue;
    out = out.slice(0, m.index) + ' '.repeat(close + 1 - m.index) + out.slice(close + 1);
  }
  return out;
}

/** The rows to rewrite for errors at `rows`: each, and the two lines above it that hold code. */
function targetRows(lines: readonly string[], rows: readonly number[]): number[] {
  const out = new Set<number>();
  for (const r of rows) {
    out.add(r);
    let above = 0;
    for (let x = r - 1; x >= 0 && above < 2; x--) {
      if (lines[x].trim() === '') continue;
      out.add(x);
      above++;
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** The macro rules on the lines around the error rows (`lowerCaseMacros`: see rewriteMacroLine). */
export function rewriteMacros(text: string, rows: readonly number[], lowerCaseMacros = false): string {
  const lines = text.split('\n');
  let changed = false;
  for (const r of targetRows(lines, rows)) {
    if (r < 0 || r >= lines.length) continue;
    let next = rewriteMacroLine(lines[r], lowerCaseMacros);
    // A template macro on a line of its own (`          FMT_ENABLE_IF(cond)>`): it and the comma
    // that ends the line before.
    const own = CONTINUED_TEMPLATE_MACRO.exec(lines[r]);
    const prev = r - 1;
    if (own && isMacro(own[2]) && prev >= 0 && /,\s*\r?$/.test(lines[prev])) {
      const close = closingParen(lines[r], own[1].length + own[2].length);
      if (close > 0 && /^\s*>/.test(lines[r].slice(close + 1))) {
        next = own[1] + ' '.repeat(close + 1 - own[1].length) + lines[r].slice(close + 1);
        const comma = lines[prev].lastIndexOf(',');
        lines[prev] = lines[prev].slice(0, comma) + ' ' + lines[prev].slice(comma + 1);
      }
    }
    if (next !== lines[r]) {
      lines[r] = next;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : text;
}

/** C# (its `#if` only), then C and C++ (their macros too). */
export const CONDITIONALS: RecoveryShim = { rewrite: flattenConditionals, rounds: 1, perRow: false, everywhere: false };
export const C_MACROS: RecoveryShim = { rewrite: (text, rows) => rewriteMacros(text, rows, true), rounds: 3, perRow: true, everywhere: true };
export const CPP_MACROS: RecoveryShim = { rewrite: (text, rows) => rewriteMacros(text, rows, false), rounds: 3, perRow: true, everywhere: true };
