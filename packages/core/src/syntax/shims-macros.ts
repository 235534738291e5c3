/**
 * Recovery shims of C and C++ for their macros (GrammarTable.recover; see shims-preprocessor.ts for
 * the conditionals), applied around the rows in error:
 * - a calling convention or export macro between words: `int CJSON_CDECL main(void)`,
 *   `FMT_API void f()`, `void (WINAPI *fn)(void)`, `f() SPDLOG_NOEXCEPT {`;
 * - a macro that expands to declarations (`FMT_BEGIN_NAMESPACE`, `TEST_CASE(25)`) or opens a
 *   function or a loop (`TEST_IMPL(name) {`, `uv__queue_foreach(q, h) {`);
 * - a macro's argument that is no expression (`container_of(p, struct t, f)`, `va_arg(ap, char *)`),
 *   a macro in a template's parameter list (`template <typename T, FMT_ENABLE_IF(cond)>`), on one
 *   line or several, and a statement macro over several lines (`CHECK(f(a,\n b))`);
 * - an annotation with arguments after a declarator (`int n GUARDED_BY(mu);`,
 *   `void f(const char *s, ...) PRINTF_LIKE(1, 2);`), a type macro (`LIST_HEAD(h, item) head;`);
 * - `#define`/`#undef` inside an `enum` (X-macros);
 * - C++ the grammar does not read: `if FMT_CONSTEXPR20 (x)`, `X_CATCH(...) {`, `template class
 *   A<T>;`, `using typename B::t;`, a template's `= delete;`, `decltype(a, b)`, `enum : unsigned {`,
 *   `unsigned(x)`.
 * Each rewrite keeps every byte offset and line break (a name becomes spaces, or a keyword padded
 * to its length). Pure.
 */
import { blank, blankDirectiveComments, type RecoveryShim } from './shims-preprocessor.js';

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
  // A `_T` ending names a type by convention (`ZPOS64_T`, `SIZE_T`).
  return MACRO_NAME.test(name) && (name.includes('_') || name.length >= 4) && !NOT_MACROS.has(name) && !name.endsWith('_T');
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
/** What may stand before a type with no type before it: nothing, qualifiers, `(` or `,` of a parameter list. */
const TYPE_BEFORE = /(?:^|[(,])\s*(?:(?:static|extern|const|volatile|register|inline|typedef|constexpr|mutable|thread_local)\s+)*$/;
/** A word that a type's or a value's name follows, not a parameter's annotation. */
const TYPE_WORD_BEFORE =
  /\b(?:void|bool|char|short|int|long|float|double|signed|unsigned|auto|const|volatile|struct|class|union|enum|typename|return|case|else|goto|typedef|throw|new|delete|sizeof)[ \t]+$/;
/** One declarator's name and what ends it: `x = `, `x;`, `x,`, `x)`, `x[`. */
const DECLARATOR_AFTER = /^[ \t]+[A-Za-z_]\w*[ \t]*[=;,)[]/;
/** Code that ends in the middle of an expression or an initializer (its comments removed: codeOf). */
const CONTINUES = /(?:[=(+\-*/%|&?<[]|\breturn)\s*$|^\s*(?:(?:else\s+)?if|for|while)\b.*\)\s*$|^\s*(?:else|do)\s*$/;
/** A line that goes on with the expression of the line before: it starts with a binary operator (`      << "message";`, `.then(f)`). */
const CONTINUED_BELOW = /^\s*(?:<<|>>|\.(?!\.\.)|->|&&|\|\||[+*%?^|]|-(?!-)|\/(?![/*])|&(?!&)|==|!=|<=?|>=?|=(?!=))/;

/** A line's code, without its comments (a line inside a block comment's `*` lines: nothing). */
function codeOf(line: string): string {
  if (/^\s*\*/.test(line)) return '';
  // The end of a block comment opened on a line above: `   or older compilers.  */`.
  const open = line.indexOf('/*');
  const close = line.indexOf('*/');
  const tail = close >= 0 && (open < 0 || close < open) ? ' '.repeat(close + 2) + line.slice(close + 2) : line;
  return tail.replace(/\/\*.*?(?:\*\/|$)/g, ' ').replace(/\/\/.*$/, '');
}
/** `template class NAME<…>;` (an explicit instantiation: `class` or `struct`, and no body). */
const EXPLICIT_INSTANTIATION = /^(\s*(?:extern\s+)?template\s+)(class|struct)(?=\s+[^{;]+;\s*(?:\/\/.*)?\r?$)/;
/** The same, its arguments going on to the next line: `template class A<T,` / `  &B::c>;`. */
const CONTINUED_INSTANTIATION = /^(\s*(?:extern\s+)?template\s+)(class|struct)(?=\s+[A-Za-z_][\w:]*\s*<)/;
/** `class`, `struct` or `union` and a macro with arguments: `class NAME(`. */
const TAG_MACRO = /\b(class|struct|union)\s+([A-Z][A-Z0-9_]*)\s*\(/g;
/** A macro for `catch`. */
const CATCH = /^[A-Z][A-Z0-9_]*CATCH$/;
/** A line that starts with `NAME(` (a template macro continued from the line before). */
const CONTINUED_TEMPLATE_MACRO = /^(\s*)([A-Z][A-Z0-9_]*)\s*\(/;
/** `, NAME(` inside a template's parameter list (its `)` is found by closingParen, then `>` must follow). */
const TEMPLATE_MACRO = /,\s*([A-Z][A-Z0-9_]*)\s*\(/g;

/**
 * One line, rewritten by the macro rules (see the module comment); the line itself when none
 * applies. `lowerCaseMacros`: a lower-case name alone on its line without `;` is a macro (C).
 */
function rewriteMacroLine(original: string, lowerCaseMacros: boolean, prev: () => string = () => '', next: () => string = () => ''): string {
  if (/^\s*#/.test(original)) return original;
  const annotation = continuedAnnotation(original, prev);
  if (annotation !== original) return annotation;
  if (specifierLine(original, next)) return blank(original);
  // A function's head at the top level, its `{` on the next line: `YY_DECL\n{`, `TEST_IMPL(name)\n{`.
  // Not after a label (`case 4:\nYY_RULE_SETUP\n{`): that `{` is a block of the statement the macro ends.
  const head = () => !original.includes(';') && /^\{/.test(next()) && !/:\s*$/.test(prev());
  const lone = LONE_NAME.exec(original);
  if (lone && isMacro(lone[1]) && /^[A-Z]/.test(original) && original.trimEnd().length >= 7 && head()) return functionHead(original, original.trimEnd().length);
  // Not a value that continues the line before: `x =\n    DEFAULT_SEPS;`.
  if (lone) return isMacro(lone[1]) && !CONTINUES.test(prev()) ? blank(original) : original;
  // An explicit instantiation, which tree-sitter-cpp reads with a declarator missing: `template class a::b<T>;`.
  const inst =
    EXPLICIT_INSTANTIATION.exec(original) ??
    (/^[^{;]*,\s*(?:\/\/.*)?\r?$/.test(original) && /^[^{]*>\s*;/.test(next()) ? CONTINUED_INSTANTIATION.exec(original) : null);
  const line = dropTagMacros(inst ? inst[1] + ' '.repeat(inst[2].length) + original.slice(inst[0].length) : original);
  const call = INVOCATION.exec(line);
  if (call && !KEYWORDS.has(call[2])) {
    const open = line.indexOf('(', call[1].length + call[2].length);
    const close = closingParen(line, open);
    if (close > 0) {
      const rest = line.slice(close + 1);
      // A whole line that is one macro's invocation: it expands to declarations or statements. A
      // lower-case name followed by `;` is a call, which the parser reads; without it, in C, it
      // cannot be one (in C++ it is a constructor's head).
      if (call[1] === '' && MACRO_NAME.test(call[2]) && AFTER_LONE_CALL.test(rest) && close + 1 >= 7 && head()) return functionHead(line, close + 1);
      if (
        AFTER_LONE_CALL.test(rest) &&
        (MACRO_NAME.test(call[2]) || (lowerCaseMacros && !rest.includes(';') && !endsInType(prev()))) &&
        !CONTINUES.test(prev()) &&
        // Not when the statement goes on below: `EXPECT_EQ(a, b)\n    << "message";` is an expression.
        (rest.includes(';') || !CONTINUED_BELOW.test(codeOf(next())))
      )
        return blank(line);
      if (/^\s*\{/.test(rest)) {
        const indent = call[1];
        if (indent === '') {
          // At the top level it defines a function: `int f` and an empty parameter list.
          if (close + 1 >= 7) return functionHead(line, close + 1);
        } else if (CATCH.test(call[2]) || /^\(\s*\.\.\.\s*\)$/.test(line.slice(open, close + 1))) {
          // A `catch` the macro stands for (`X_CATCH(const E&) {`, `X_CATCH(...) {`): its `X_TRY {` is a
          // plain block, and so is this.
          return indent + ' '.repeat(close + 1 - indent.length) + rest;
        } else if (call[2].length >= 2) {
          // In a body it opens a loop or a scope: `if` over its name keeps the arguments as a condition.
          return indent + 'if' + ' '.repeat(call[2].length - 2) + line.slice(indent.length + call[2].length);
        }
      }
    }
  }
  const strings = stringMacros(lowerCaseSpecifiers(line, next));
  const callStatement = lowerCaseMacros ? (CALL_STATEMENT.exec(strings)?.[0].length ?? -1) : -1;
  let out = strings.replace(UPPER_WORD, (name: string, _n: string, at: number) => {
    if (!isMacro(name)) return name;
    const before = strings.slice(0, at);
    const after = strings.slice(at + name.length);
    const dropped = ' '.repeat(name.length);
    // A macro that expands to leading arguments of a call statement (C: no constructor to declare):
    // `f(EV_DEFAULT_ c);`, `ev_loop(EV_DEFAULT_ 0);`.
    if (at === callStatement && /^[ \t]+[A-Za-z_0-9]/.test(after)) return dropped;
    // Between `if` and its condition: `if FMT_CONSTEXPR20 (x)` (a macro for `constexpr`).
    if (/\bif[ \t]+$/.test(before) && /^[ \t]*\(/.test(after)) return dropped;
    if (/^\s*\(/.test(after)) return name;
    // A type, not an attribute, where only a declarator follows and no type precedes:
    // `static const UNITY_FLOAT zero = 0;`, `typedef LOCK_T SRWLOCK, *P;`, `f(MY_INT a, MY_INT b)`.
    if (TYPE_BEFORE.test(before) && DECLARATOR_AFTER.test(after)) return name;
    // Between two words: `int CJSON_CDECL main`, `FMT_API void`, `class SPDLOG_API logger`,
    // `void *CJSON_CDECL f(`, `[[noreturn]] SPDLOG_API void`, `f(UNITY_PTR_ATTRIBUTE const T* p`.
    if (/^[ \t]+[A-Za-z_~]/.test(after) && (/^\s*$/.test(before) || /(?:[\w>\]][ \t]+|[*&][ \t]*|[(,][ \t]*)$/.test(before))) return dropped;
    // After a parameter's name, before `,` or `)`: `f(const T& value FMT_LIFETIMEBOUND, int n)`.
    if (/^\s*[,)]/.test(after) && /[A-Za-z_]\w*(?:\[\w*\])*[ \t]+$/.test(before) && !TYPE_WORD_BEFORE.test(before) && !/\b(?:template|typedef)\b/.test(before))
      return dropped;
    // At the end of a line, after a type: `void SPDLOG_INLINE` (the name is on the next line).
    if (/^[ \t]*\r?$/.test(after) && /[\w>*&][ \t]+$/.test(before)) return dropped;
    // Opening a block: `SPDLOG_TRY {` is a `{` the parser can read.
    if (/^\s*$/.test(before) && /^\s*\{/.test(after)) return dropped;
    // A calling convention in a function pointer: `(WINAPI *fn)(` (not a parameter's type: `(HANDLE_T *h)`).
    if (/\(\s*$/.test(before) && /^\s*\*\s*\w+\s*\)\s*(?:\(|\r?$)/.test(after)) return dropped;
    // After a parameter list or a declarator: `f() SPDLOG_NOEXCEPT {`, `f() override FMT_MSC_DEFAULT;`,
    // `names[] SPDLOG_LEVEL_NAMES;`.
    if (/[)\]]\s*(?:(?:const|noexcept|override|final)\s+)*$/.test(before) && /^\s*(?:[{;:=]|\r?$|\/\/|\/\*)/.test(after)) return dropped;
    return name;
  });
  // A default argument of `{}` (tree-sitter-cpp reads no braced initializer there): `= 0 `.
  if (out.includes('{')) out = out.replace(/=(\s*)\{\s*\}/g, (m: string, gap: string) => '=' + gap + '0' + ' '.repeat(m.length - gap.length - 2));
  out = out.replace(TAG_ARGUMENT, (_m, lead: string, tag: string) => lead + ' '.repeat(tag.length));
  // An empty argument in parentheses (`M(a, (b), ( ))`), which no expression is: `(0)`, or `0 `.
  if (/[(,]\s*\(\s*\)\s*[,)]/.test(out))
    out = out.replace(/([(,]\s*)\((\s*)\)(?=\s*[,)])/g, (_m, lead: string, gap: string) => lead + (gap ? '(0' + gap.slice(1) + ')' : '0 '));
  // A lower-case qualifier macro in a cast: `(z_const Bytef *)p`.
  if (out.includes('*)'))
    out = out.replace(CAST_QUALIFIER, (m: string, lead: string, word: string) => (TYPE_WORDS.test(word) ? m : lead + ' '.repeat(word.length)));
  // A type as a macro's first argument (`YY_CAST (char *, p)`): a name padded.
  if (out.includes('*'))
    out = out.replace(TYPE_FIRST_ARGUMENT, (m: string, lead: string, name: string, type: string) =>
      isMacro(name) ? lead + 'x' + ' '.repeat(type.length - 1) : m,
    );
  // A type as a macro's last argument (`va_arg(ap, char *)`, `va_arg(ap, unsigned int)`): a name padded.
  if (out.includes(','))
    out = out.replace(TYPE_ARGUMENT, (m: string, lead: string, type: string) =>
      /^(?:sizeof|alignof|_Alignof|typeof|defined|new|delete|throw|co_await|not|compl)\b/.test(type) ? m : lead + 'x' + ' '.repeat(type.length - 1),
    );
  // An unnamed enum with a base type (`enum : unsigned {`), which tree-sitter-cpp does not read: `enum E:unsigned {`.
  if (out.includes('enum')) out = out.replace(/\b(enum(?:\s+(?:class|struct))?\s+):\s(?=\s*[A-Za-z_][\w:\s]*\{)/g, (_m, head: string) => head + 'E:');
  // A functional cast to `unsigned` / `signed` (`| unsigned(size) <<`): a call of a name as long.
  if (out.includes('signed'))
    out = out.replace(
      /((?:[(=|&^+\-*/%,<>!?:~]|\breturn)\s*)(unsigned|signed)(?=\s*\()/g,
      (_m, lead: string, word: string) => lead + 'x' + ' '.repeat(word.length - 1),
    );
  // A compiler's pointer qualifier that tree-sitter does not know, between stars: `(char *__ptr32 *)p`.
  if (out.includes('__')) out = out.replace(/(\*[ \t]*)(__[A-Za-z]\w*)(?=[ \t]*[*)])/g, (_m, star: string, word: string) => star + ' '.repeat(word.length));
  // `using typename B::type;`, which tree-sitter-cpp does not read: `typename` blanked.
  if (out.includes('using')) out = out.replace(/\b(using\s+)typename(?=\s)/g, (_m, head: string) => head + '        ');
  // `= delete;` / `= default;` where tree-sitter-cpp reads neither (a template, a free function): `= 0`.
  if (out.includes('de'))
    out = out.replace(
      /(\)\s*(?:const\s*)?(?:noexcept\s*)?=\s*)(delete|default)(?=\s*;)/g,
      (_m, head: string, word: string) => head + '0' + ' '.repeat(word.length - 1),
    );
  // A GNU case range: `case 'a' ... 'z':` reads as `case 'a'  +  'z':`.
  if (out.includes('...')) out = out.replace(CASE_RANGE, (_m, head: string, gap: string) => head + gap + ' + ');
  out = dropTemplateMacros(dropArgumentMacros(out));
  if (out.includes('__')) out = out.replace(UNDERSCORE_ATTRIBUTE, (_m, lead: string, word: string) => lead + ' '.repeat(word.length));
  return lowerCaseMacros ? out : cppForms(out);
}

/** An annotation macro with arguments on a line of its own, whose declaration the line before began. */
const CONTINUED_ANNOTATION = /^(\s+)([A-Z][A-Z0-9_]*)\s*\(/;

/**
 * `    GUARDED_BY(mu_);` or `    EXCLUSIVE_LOCKS_REQUIRED(mu_) {` after a line that ends in a
 * declarator or a parameter list (`std::queue<T> queue_`, `Status Recover(VersionEdit* edit)`):
 * the macro and its arguments blanked, what ends the declaration kept. Else the line itself.
 */
function continuedAnnotation(line: string, prev: () => string): string {
  const m = CONTINUED_ANNOTATION.exec(line);
  if (!m || !isMacro(m[2])) return line;
  const close = closingParen(line, m[0].length - 1);
  if (close < 0) return line;
  const rest = line.slice(close + 1);
  if (!/^\s*(?:[;{=]|\r?$|\/[/*])/.test(rest)) return line;
  const p = prev();
  if (!/(?:[)\]]|\w)\s*$/.test(p) || CONTINUES.test(p) || /^\s*#/.test(p) || /\b(?:return|else|do|case|goto)\s*$/.test(p)) return line;
  return m[1] + ' '.repeat(close + 1 - m[1].length) + rest;
}

/** Whether a line of code ends in a type, its declarator on the next line (`static void` / `gethex(…)`). */
function endsInType(code: string): boolean {
  return /(?:\b[a-z_]\w*|\*)\s*$/.test(code) && !/^\s*#/.test(code) && !/\b(?:return|else|do|goto|case|break|continue)\s*$/.test(code);
}

/** `f(` opening a call statement (its length, for the macro that is its first argument). */
const CALL_STATEMENT = /^\s+[a-z_]\w*\s*\(\s*(?=[^;]*\)\s*;\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$)/;
/** A compiler's attribute spelt with two underscores between a type and a declarator: `CFSocketRef __unused s`. */
const UNDERSCORE_ATTRIBUTE =
  /(\b(?!(?:const|volatile|static|extern|inline|typedef|register|struct|union|enum|class|return|signed|unsigned|long|short|case)\b)\w+[ \t]+|\*[ \t]*)(__[a-z]+(?:_[a-z]+)*)(?=[ \t]+[A-Za-z_*])/g;

/** The string literals of a line: [start, end) of each, comments and character literals skipped. */
function stringSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '/' && line[i + 1] === '/') break;
    if (c === '/' && line[i + 1] === '*') {
      const end = line.indexOf('*/', i + 2);
      if (end < 0) break;
      i = end + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      if (c === '"') spans.push([i, j + 1]);
      i = j;
    }
  }
  return spans;
}

/**
 * A macro that expands to a string literal, beside one (`"%" PRId64`, `"a" EURO "b"`): a literal
 * of its length (`"    "`), which the parser concatenates.
 */
function stringMacros(line: string): string {
  if (!line.includes('"')) return line;
  const spans = stringSpans(line);
  if (spans.length === 0) return line;
  let out = line;
  // Upper case, or upper case first as the format macros are (`PRIu64`, `SCNd32`).
  const re = /\b[A-Z][A-Z0-9_]*(?:[a-z][A-Z0-9_]*)?\b/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const at = m.index;
    const end = at + m[0].length;
    if (m[0].length < 3 || NOT_MACROS.has(m[0]) || spans.some(([a, b]) => at >= a && at < b)) continue;
    const before = line.slice(0, at);
    const after = line.slice(end);
    const left = spans.some(([, b]) => b <= at && /^\s*$/.test(line.slice(b, at)));
    // A literal's prefix is no macro (`LR"(…)"`, `U8"…"`): a gap before the literal, or more letters.
    const right = spans.some(([a]) => a >= end && (/^\s+$/.test(line.slice(end, a)) || (a === end && m[0].length > 3)));
    const leftOk = left || /(?:[(,=:?{[]|\breturn)\s*$|^\s*$/.test(before);
    const rightOk = right || /^\s*(?:[),;:\]}]|\r?$|\/[/*])/.test(after);
    if ((left || right) && leftOk && rightOk) out = out.slice(0, at) + '"' + ' '.repeat(m[0].length - 2) + '"' + out.slice(end);
  }
  return out;
}

/** Words of a declaration's head that are no type's name (qualifiers, keywords). */
const HEAD_KEYWORDS = new Set([
  'static',
  'extern',
  'inline',
  '__inline',
  '__inline__',
  'const',
  'volatile',
  'register',
  '_Noreturn',
  'constexpr',
  'consteval',
  'virtual',
  'explicit',
  'friend',
  'thread_local',
  'mutable',
]);
const BUILTIN_TYPES = new Set(['void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', 'bool', '_Bool', 'auto', 'wchar_t']);
/** Words that make a line no function's head (a statement, a tag, a typedef). */
const NOT_HEAD =
  /\b(?:return|else|case|goto|new|delete|throw|sizeof|typedef|using|namespace|operator|struct|union|enum|class|template|if|for|while|switch|do)\b/;
/** The words before a function's or a variable's name at the start of a line: `static void yynoreturn f(`, `my_static int t[] =`. */
const FUNCTION_HEAD = /^(\s*)((?:[A-Za-z_]\w*[ \t*]+)+?)(\**[ \t]*[A-Za-z_]\w*)[ \t]*[([=;]/;

/**
 * Lower-case specifier macros in a function's head, which has its type already (a built-in one, or
 * a name after them): `static void yynoreturn f(`, `ffc_internal ffc_inline size_t f(`: blanked.
 */
function lowerCaseSpecifiers(line: string, next: () => string = () => ''): string {
  // A head whose name is on the next line: `my_internal my_inline uint32_t` / `read4(char *p) {`.
  const m = FUNCTION_HEAD.exec(line) ?? (TYPE_LINE.test(line) && /^\**[A-Za-z_]\w*\s*\(/.test(next()) ? FUNCTION_HEAD.exec(line.trimEnd() + ' x(') : null);
  // `int n_ GUARDED_BY(mu)`: the name is an annotation's, for the upper-case rules.
  if (!m || NOT_HEAD.test(m[2]) || (MACRO_NAME.test(m[3].replace(/^[*\s]+/, '')) && m[0].endsWith('('))) return line;
  const words = [...m[2].matchAll(/[A-Za-z_]\w*/g)];
  // Upper-case macros are the attribute rules' (`extern zipFile ZEXPORT f(`): no type here.
  const plain = words.filter((w) => !HEAD_KEYWORDS.has(w[0]) && !BUILTIN_TYPES.has(w[0]) && !isMacro(w[0]));
  const builtin = words.some((w) => BUILTIN_TYPES.has(w[0]));
  const drop = builtin ? plain : plain.slice(0, -1);
  let out = line;
  for (const w of drop) {
    if (!/^[a-z_]/.test(w[0]) || /_t$/.test(w[0])) continue;
    const at = m[1].length + w.index;
    out = out.slice(0, at) + ' '.repeat(w[0].length) + out.slice(at + w[0].length);
  }
  return out;
}

/** A line of words alone, the type of a function whose name is on the next line. */
const TYPE_LINE = /^[ \t]*[A-Za-z_]\w*(?:[ \t*]+[A-Za-z_]\w*)+[ \t*]*\r?$/;
/** A line of lower-case specifier macros alone, above a function's head that has its type: `ffc_internal ffc_inline`. */
function specifierLine(line: string, next: () => string): boolean {
  if (!/^[a-z_]\w*(?:[ \t]+[a-z_]\w*)*[ \t]*\r?$/.test(line)) return false;
  const words = line.trim().split(/\s+/);
  if (words.some((w) => HEAD_KEYWORDS.has(w) || BUILTIN_TYPES.has(w) || KEYWORDS.has(w) || NOT_HEAD.test(w))) return false;
  const m = FUNCTION_HEAD.exec(next());
  return m !== null && m[1] === '' && !NOT_HEAD.test(m[2]);
}

/**
 * C++ that tree-sitter-cpp does not read, in forms it does (same offsets):
 * - `typename` before a qualified name in an expression: `f(typename T::U(x))`;
 * - a pointer to member: `void (C::*m)(int) const;` as `void (*m)(int);`, `a.*p` and `a->*p` as products;
 * - `new T*[n]` as `new T [n]`;
 * - a default template argument with a qualifier or a pointer: `typename P = const T*>` as `= T>`;
 * - `operator()<T>(x)` as a call of a template named `operator__`;
 * - an innermost template in a `>>`: `A<B<C>>::v` as `A<B_C_>::v`;
 * - `>=` in template arguments: `B<X >= Y>` as `B<X == Y>`;
 * - an unnamed parameter with a default: `const void* = 0` as `const void*x= 0`;
 * - Qt's access sections and connections: `private slots:` as `private      :`, `signals:` as
 *   `public :`, and `SIGNAL(activated(int))` with its signature blanked.
 */
function cppForms(line: string): string {
  let out = line;
  if (/\b(?:slots|Q_SLOTS|signals|Q_SIGNALS)\s*:/.test(out)) {
    out = out
      .replace(/^(\s*(?:public|protected|private)\s+)(slots|Q_SLOTS)(?=\s*:)/, (_m, head: string, word: string) => head + ' '.repeat(word.length))
      .replace(/^(\s*)(signals|Q_SIGNALS)(?=\s*:(?!:))/, (_m, lead: string, word: string) => lead + 'public'.padEnd(word.length));
  }
  if (/\b(?:SIGNAL|SLOT)\s*\(/.test(out)) {
    for (const m of [...out.matchAll(/\b(?:SIGNAL|SLOT)\s*\(/g)].reverse()) {
      const open = m.index + m[0].length - 1;
      const close = closingParen(out, open);
      if (close > open) out = out.slice(0, open + 1) + ' '.repeat(close - open - 1) + out.slice(close);
    }
  }
  if (out.includes('typename')) out = out.replace(/((?:[(,=!&|?:]|\breturn)\s*)typename(?=\s+[\w:<>]*::)/g, (_m, lead: string) => lead + '        ');
  if (out.includes('::*')) {
    const member = out.replace(/(\(\s*)((?:[A-Za-z_]\w*(?:<[^()]*>)?::)+)(?=\*)/g, (_m, lead: string, scope: string) => lead + ' '.repeat(scope.length));
    if (member !== out) out = member.replace(/(\(\s*\*\s*\w+\s*\)\s*\([^()]*\)\s*)const\b/, (_m, head: string) => head + '     ');
  }
  if (out.includes('.*')) out = out.replace(/([\w)\]])\.\*(?=\s*[\w(&*])/g, (_m, lead: string) => lead + ' *');
  if (out.includes('->*')) out = out.replace(/([\w)\]])->\*(?=\s*[\w(&*])/g, (_m, lead: string) => lead + '- *');
  if (out.includes('new'))
    out = out.replace(/(\bnew\s+[A-Za-z_][\w:]*(?:<[^;]*?>)?\s*)(\*+)(?=\s*\[)/g, (_m, head: string, stars: string) => head + ' '.repeat(stars.length));
  if (/\btemplate\s*</.test(out))
    out = out.replace(
      /(\b(?:typename|class)\s+\w+\s*=\s*)([^,<>()]*?)(\s*[,>])/g,
      (_m, head: string, type: string, end: string) => head + type.replace(/\b(?:const|volatile)\b/g, blank).replace(/[*&]+\s*$/, blank) + end,
    );
  if (out.includes('operator()')) out = out.replace(/\boperator\(\)(?=\s*<[^<>()]*>\s*\()/g, 'operator__');
  if (out.includes('>>')) out = out.replace(/\b([A-Za-z_]\w*)<([A-Za-z_][\w:]*)>(?=>)/g, (_m, name: string, arg: string) => name + '_' + arg + '_');
  if (out.includes('>=')) {
    let depth = 0;
    const at: number[] = [];
    for (let i = 0; i < out.length; i++) {
      if (out[i] === '<' && /\w/.test(out[i - 1] ?? '') && out[i + 1] !== '<') depth++;
      else if (out[i] === '>' && out[i + 1] === '=' && depth > 0) at.push(i);
      else if (out[i] === '>' && depth > 0 && out[i - 1] !== '-') depth--;
    }
    for (const i of at) out = out.slice(0, i) + '==' + out.slice(i + 2);
  }
  if (out.includes('= ')) out = out.replace(/([(,]\s*(?:const\s+)?[A-Za-z_][\w:]*(?:<[^()]*?>)?\s*[*&]+) (?==)/g, (_m, head: string) => head + 'x');
  return out;
}

/** `, T *)` or `, unsigned int)`: words and stars, or a type's keywords, that no expression is. */
const TYPE_ARGUMENT =
  /(,\s*)((?:(?:unsigned|signed|long|short)[ \t]+)+(?:char|int|long|short|double)|(?:[A-Za-z_]\w*[ \t]+)*[A-Za-z_]\w*[ \t]*\*+)(?=[ \t]*\))/g;
/** `(word Type *)`: a cast whose first word is a qualifier, when it is no keyword of a type (TYPE_WORDS). */
const CAST_QUALIFIER = /(\(\s*)([a-z_]\w*)(?=[ \t]+[A-Za-z_]\w*[ \t]*\*+[ \t]*\))/g;
const TYPE_WORDS = /^(?:const|volatile|struct|union|enum|class|typename|unsigned|signed|long|short|char|int|void|float|double|bool|auto|restrict)$/;
/** An upper-case macro's `(` and a pointer type before its first `,`: `YY_CAST (char *,`. */
const TYPE_FIRST_ARGUMENT = /(\b([A-Z][A-Z0-9_]*)\s*\(\s*)((?:(?:const|volatile|struct|union|enum|unsigned|signed)[ \t]+)*[A-Za-z_]\w*[ \t]*\*+)(?=[ \t]*,)/g;
/** `case X ... Y:` (its `...` after the group). */
const CASE_RANGE = /(\bcase\b[^:;]*?)(\s)\.\.\.(?=\s)/g;
/** An upper-case name and its `(`, for dropArgumentMacros. */
const UPPER_CALL = /\b([A-Z][A-Z0-9_]*)\s*\(/g;
/** Words after which a name and its arguments are a call, not an annotation. */
const CALL_KEYWORDS = /\b(?:return|case|else|do|throw|new|delete|sizeof|typedef|co_return|co_yield|co_await|goto)\s*$/;

/**
 * Macros with arguments that stand for an annotation or a type (a template's head may come first):
 * - after a declarator, a parameter list or a `}` (blanked): `void f(const char *fmt, ...)
 *   PRINTF_LIKE(1, 2);`, `int n_ GUARDED_BY(mu_);`, `void g() REQUIRES(mu_) {`, `} ALIGNED(8) t;`;
 * - before a declarator, where a type goes: `LIST_HEAD(list, item) head;` and
 *   `EXPORT(int) f(void);` read `int`, `ALIGNAS(16) int x;` drops it.
 */
function dropArgumentMacros(line: string): string {
  let out = line;
  UPPER_CALL.lastIndex = 0;
  for (let m = UPPER_CALL.exec(line); m; m = UPPER_CALL.exec(line)) {
    if (!isMacro(m[1]) || KEYWORDS.has(m[1])) continue;
    const close = closingParen(line, m.index + m[0].length - 1);
    if (close < 0) continue;
    const before = line.slice(0, m.index);
    const after = line.slice(close + 1);
    const width = close + 1 - m.index;
    if (
      /\S/.test(before) &&
      /(?:[)\]]|\w[ \t]|\}[ \t]*)\s*(?:(?:const|noexcept|override|final)\s+)*$/.test(before) &&
      !CALL_KEYWORDS.test(before) &&
      (/^\s*(?:[{;=,:]|\r?$|\/[/*])/.test(after) || (/\}\s*$/.test(before) && /^\s+[A-Za-z_]\w*\s*;/.test(after)))
    ) {
      out = out.slice(0, m.index) + ' '.repeat(width) + out.slice(close + 1);
    } else if (/^\s*(?:template\s*<[^;{}]*>\s*)?(?:(?:static|extern|inline|const|typedef|constexpr|virtual|explicit|friend)\s+)*$/.test(before) && width >= 3) {
      if (/^\s+(?:operator\b|[*&]*\s*[A-Za-z_]\w*\s*[(;=,[])/.test(after)) out = out.slice(0, m.index) + 'int' + ' '.repeat(width - 3) + out.slice(close + 1);
      else if (/^\s+[A-Za-z_][\w:]*[\s*&]+[A-Za-z_*&(]/.test(after)) out = out.slice(0, m.index) + ' '.repeat(width) + out.slice(close + 1);
    }
  }
  return out;
}

/** A macro with arguments after `class` and before its name: `class VISIBLE("default") error : base {`. */
function dropTagMacros(line: string): string {
  let out = line;
  TAG_MACRO.lastIndex = 0;
  for (let m = TAG_MACRO.exec(line); m; m = TAG_MACRO.exec(line)) {
    if (!isMacro(m[2])) continue;
    const from = m.index + m[1].length;
    const close = closingParen(line, m.index + m[0].length - 1);
    if (close < 0 || !/^\s+[A-Za-z_]/.test(line.slice(close + 1))) continue;
    out = out.slice(0, from) + ' '.repeat(close + 1 - from) + out.slice(close + 1);
  }
  return out;
}

/** `line` with its first `width` (7 or more) characters as `int f()`: a function's head. */
function functionHead(line: string, width: number): string {
  return 'int f' + ' '.repeat(width - 7) + '()' + line.slice(width);
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

/** Rows one macro invocation may span (a multi-line one is looked for this far above an error). */
export const MAX_SPAN_ROWS = 24;

/**
 * The row and column of the `)` that closes the `(` at `row`, `col`, within MAX_SPAN_ROWS rows;
 * string and character literals and comments are skipped. null when it is not found, or a
 * directive comes first.
 */
export function closeAcross(lines: readonly string[], row: number, col: number): [number, number] | null {
  let depth = 0;
  let comment = false;
  for (let r = row; r < lines.length && r < row + MAX_SPAN_ROWS; r++) {
    const l = lines[r];
    if (r > row && !comment && /^\s*#/.test(l)) return null;
    for (let i = r === row ? col : 0; i < l.length; i++) {
      const c = l[i];
      if (comment) {
        if (c === '*' && l[i + 1] === '/') {
          comment = false;
          i++;
        }
      } else if (c === '/' && l[i + 1] === '/') {
        break;
      } else if (c === '/' && l[i + 1] === '*') {
        comment = true;
        i++;
      } else if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < l.length && l[j] !== c) j += l[j] === '\\' ? 2 : 1;
        i = j;
      } else if (c === '(') {
        depth++;
      } else if (c === ')' && --depth === 0) {
        return [r, i];
      }
    }
  }
  return null;
}

/** `lines` with the characters from `from` to `to` (both [row, column], inclusive) as spaces. */
function blankRange(lines: string[], from: [number, number], to: [number, number]): void {
  for (let r = from[0]; r <= to[0]; r++) {
    const a = r === from[0] ? from[1] : 0;
    const b = r === to[0] ? to[1] + 1 : lines[r].length;
    lines[r] = lines[r].slice(0, a) + blank(lines[r].slice(a, b)) + lines[r].slice(b);
  }
}

/**
 * The operand of a `decltype(…)` that starts on an error row and holds a comma or `typename`
 * (`-> decltype(p->find('a'), int())`, which tree-sitter-cpp does not read), as `0`. Whether any was.
 */
function blankDecltypes(lines: string[], rows: readonly number[]): boolean {
  let changed = false;
  for (const r of new Set(rows)) {
    if (r >= lines.length || !lines[r].includes('decltype')) continue;
    const re = /\bdecltype\s*\(/g;
    for (let m = re.exec(lines[r]); m; m = re.exec(lines[r])) {
      const open = m.index + m[0].length - 1;
      const end = closeAcross(lines, r, open);
      if (!end) continue;
      const inner =
        end[0] === r ? lines[r].slice(open + 1, end[1]) : [lines[r].slice(open + 1), ...lines.slice(r + 1, end[0]), lines[end[0]].slice(0, end[1])].join('\n');
      if (!/,|\btypename\b/.test(inner) || (end[0] === r && end[1] === open + 1)) continue;
      blankRange(lines, [r, open + 1], [end[0], end[1] - 1]);
      lines[r] = lines[r].slice(0, open + 1) + '0' + lines[r].slice(open + 2);
      changed = true;
    }
  }
  return changed;
}

/** A line that opens a macro's invocation: `NAME(` at its start. */
export const SPAN_CALL = /^\s*([A-Z][A-Z0-9_]*)\s*\(/;
/** In C, an indented `name(` at the start of a line, in a body: a statement macro when no `;` ends it (`test_cond(a,\n b)`). */
const LOWER_SPAN_CALL = /^\s+([a-z_]\w*)\s*\(/;

/**
 * The macro invocations over several lines that hold an error row, blanked: one that is a statement
 * or a declaration of its own (`CHECK(f(a,\n b))`, no `;` needed), and one in a template's
 * parameter list with its comma (`template <typename T,\n FMT_ENABLE_IF(a &&\n b)>`). Whether
 * any was.
 */
function rewriteSpans(lines: string[], rows: readonly number[], lowerCaseMacros = false): boolean {
  let changed = blankDecltypes(lines, rows);
  /** Per line, once: the invocation it opens and does not close (its kind and columns), or null. */
  const openers = new Map<number, { template: boolean; at: number; open: number; lower?: boolean } | null>();
  const opener = (s: number) => {
    let o = openers.get(s);
    if (o !== undefined) return o;
    o = null;
    const line = lines[s];
    const call = line.includes('(') ? SPAN_CALL.exec(line) : null;
    const lower = lowerCaseMacros && !call ? LOWER_SPAN_CALL.exec(line) : null;
    if (call && isMacro(call[1]) && closingParen(line, call[0].length - 1) < 0) {
      o = { template: false, at: 0, open: call[0].length - 1 };
    } else if (lower && !KEYWORDS.has(lower[1]) && closingParen(line, lower[0].length - 1) < 0 && !CONTINUES.test(s > 0 ? codeOf(lines[s - 1]) : '')) {
      o = { template: false, at: 0, open: lower[0].length - 1, lower: true };
    } else {
      // `, NAME(` that closes rows below.
      TEMPLATE_MACRO.lastIndex = 0;
      for (let m = line.includes(',') ? TEMPLATE_MACRO.exec(line) : null; m; m = TEMPLATE_MACRO.exec(line)) {
        const open = m.index + m[0].length - 1;
        if (!isMacro(m[1]) || closingParen(line, open) >= 0) continue;
        o = { template: true, at: m.index, open };
        break;
      }
    }
    openers.set(s, o);
    return o;
  };
  for (const r of new Set(rows)) {
    for (let s = r; s >= 0 && s > r - MAX_SPAN_ROWS; s--) {
      const o = opener(s);
      if (!o) continue;
      const end = closeAcross(lines, s, o.open);
      if (!end || end[0] < r) break;
      const rest = lines[end[0]].slice(end[1] + 1);
      if (o.template) {
        // Before a `>`: the comma and the macro.
        if (/^\s*>/.test(rest)) {
          blankRange(lines, [s, o.at], end);
          changed = true;
        }
      } else if (o.lower ? /^\s*(?:\/\/.*|\/\*.*\*\/\s*)?\r?$/.test(rest) && !/^\s*\{/.test(lines[end[0] + 1] ?? '') : AFTER_LONE_CALL.test(rest)) {
        blankRange(lines, [s, 0], end);
        changed = true;
      } else if (/^\s*>/.test(rest) && s > 0 && /,\s*\r?$/.test(lines[s - 1])) {
        // A template macro on lines of its own, the comma at the end of the line before.
        blankRange(lines, [s, 0], end);
        const comma = lines[s - 1].lastIndexOf(',');
        blankRange(lines, [s - 1, comma], [s - 1, comma]);
        changed = true;
      }
      for (let x = Math.max(0, s - 1); x <= end[0]; x++) openers.delete(x);
      break;
    }
  }
  return changed;
}

/**
 * An `#define`, `#undef` or `#include` where the parser does not take one (inside an `enum` or an
 * initializer), with its continuation lines.
 */
function blankDefines(lines: string[], rows: readonly number[]): boolean {
  let changed = false;
  const original = [...lines];
  for (const r of new Set(rows)) {
    if (r >= lines.length || !/^\s*#\s*(?:define|undef|include)\b/.test(lines[r])) continue;
    const name = /^\s*#\s*define\s+(\w+)\(/.exec(lines[r])?.[1];
    let e = r;
    while (e + 1 < lines.length && /\\\r?$/.test(lines[e])) e++;
    blankRange(lines, [r, 0], [e, lines[e].length - 1]);
    if (/^\s*#\s*include\b/.test(original[r])) includeAsValue(lines, r);
    changed = true;
    const undefined_ = /^\s*#\s*undef\s+(\w+)/.exec(original[r])?.[1];
    if (undefined_) blankXMacroAbove(lines, original, r, undefined_);
    if (!name) continue;
    // An X-macro: `#define X(a) A_##a,`, the lines that take it (`LIST(X)`), and its `#undef X`.
    const undef = new RegExp(`^\\s*#\\s*undef\\s+${name}\\b`);
    const takes = new RegExp(`^\\s*\\w+\\s*\\([^;]*\\b${name}\\b[^;]*\\)\\s*\\r?$`);
    for (let x = e + 1; x < lines.length && x <= e + MAX_SPAN_ROWS; x++) {
      if (undef.test(lines[x])) {
        for (let y = e + 1; y <= x; y++) if (y === x || takes.test(lines[y])) blankRange(lines, [y, 0], [y, lines[y].length - 1]);
        break;
      }
    }
  }
  return changed;
}

/**
 * Above an `#undef X` in error: its `#define X(…)` and the `#include` lines between, which expand it
 * (`enum {\n#define X(a) a,\n#include "list.h"\n#undef X\n};`). An `#include` that an expression
 * takes (`N =\n#define X(a) +1\n#include "list.h"`) becomes a `0`.
 */
function blankXMacroAbove(lines: string[], original: readonly string[], undef: number, name: string): void {
  const define = new RegExp(`^\\s*#\\s*define\\s+${name}\\(`);
  for (let x = undef - 1; x >= 0 && x >= undef - MAX_SPAN_ROWS; x--) {
    if (!define.test(original[x])) continue;
    let e = x;
    while (e + 1 < undef && /\\\r?$/.test(original[e])) e++;
    blankRange(lines, [x, 0], [e, lines[e].length - 1]);
    for (let y = e + 1; y < undef; y++) {
      if (!/^\s*#\s*include\b/.test(original[y])) continue;
      blankRange(lines, [y, 0], [y, lines[y].length - 1]);
      includeAsValue(lines, y);
    }
    return;
  }
}

/** A blanked `#include` at `row` that an expression takes (the code above ends in an operator): a `0` there. */
function includeAsValue(lines: string[], row: number): void {
  for (let y = row - 1; y >= 0 && y >= row - MAX_SPAN_ROWS; y--) {
    const code = codeOf(lines[y]);
    if (code.trim() === '') continue;
    if (/[=(+\-*/%|&?<[,]\s*$/.test(code) && lines[row].length > 0) lines[row] = '0' + lines[row].slice(1);
    return;
  }
}

/** The macro rules on the lines around the error rows (`lowerCaseMacros`: see rewriteMacroLine). */
export function rewriteMacros(text: string, rows: readonly number[], lowerCaseMacros = false, everywhere = false): string {
  // The comments in continued directives too: the preprocessor shim's try is dropped when other errors hide its gain.
  const pre = blankDirectiveComments(text);
  const lines = pre.split('\n');
  let changed = rewriteSpans(lines, rows, lowerCaseMacros);
  const targets = targetRows(lines, rows);
  // Not every directive of the file: only one the parser could not place (an error is reported
  // at the line after an `#undef`).
  if (!everywhere) changed = blankDefines(lines, [...rows, ...rows.map((r) => r - 1).filter((r) => r >= 0 && /^\s*#\s*undef\b/.test(lines[r]))]) || changed;
  /** The code of the nearest line above `r` that has some. */
  const previous = (r: number) => {
    for (let x = r - 1; x >= 0 && x >= r - MAX_SPAN_ROWS; x--) {
      const code = codeOf(lines[x]);
      if (code.trim() !== '') return code;
    }
    return '';
  };
  /** The nearest line below `r` that has code. */
  const following = (r: number) => {
    for (let x = r + 1; x < lines.length && x <= r + MAX_SPAN_ROWS; x++) if (codeOf(lines[x]).trim() !== '') return lines[x];
    return '';
  };
  for (const r of targets) {
    if (r < 0 || r >= lines.length) continue;
    let next = rewriteMacroLine(
      lines[r],
      lowerCaseMacros,
      () => previous(r),
      () => following(r),
    );
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
  return changed ? lines.join('\n') : pre;
}

export const C_MACROS: RecoveryShim = {
  rewrite: (text, rows, everywhere) => rewriteMacros(text, rows, true, everywhere),
  rounds: 3,
  perRow: true,
  everywhere: true,
};
export const CPP_MACROS: RecoveryShim = {
  rewrite: (text, rows, everywhere) => rewriteMacros(text, rows, false, everywhere),
  rounds: 3,
  perRow: true,
  everywhere: true,
};
