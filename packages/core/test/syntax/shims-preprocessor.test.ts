import { describe, expect, it } from 'vitest';
import { gone, lines } from './helpers.js';
import { blankDirectiveComments, flattenConditionals } from '../../src/syntax/shims-preprocessor.js';
import { analyze, errorRows, loadParser, parse } from '../../src/syntax/index.js';
import { prune } from '../../src/prune/pipeline.js';

describe('flattenConditionals', () => {
  it('keeps the first branch and blanks the directives and the other branches, offsets unchanged', () => {
    const src = ['a', '#if X', 'b', '#elif Y', 'c', '#else', 'd', '#endif', 'e', ''];
    const out = flattenConditionals(src.join('\n'));
    expect(out).toBe(lines(src, [1, 3, 4, 5, 6, 7]));
    expect(out.length).toBe(src.join('\n').length);
  });
  it('takes the #else of an #if 0, and nests', () => {
    const never = ['#if 0', 'old', '#else', 'new', '#endif'];
    expect(flattenConditionals(never.join('\n'))).toBe(lines(never, [0, 1, 2, 4]));
    const nested = ['#ifdef A', '#  ifdef B', 'ab', '#  else', 'x', '#  endif', '#else', 'y', '#endif'];
    expect(flattenConditionals(nested.join('\n'))).toBe(lines(nested, [0, 1, 3, 4, 5, 6, 7, 8]));
  });
  it('blanks continued directive lines and keeps carriage returns', () => {
    const src = ['#if A && \\\r', '    B\r', 'x\r', '#endif\r', ''];
    expect(flattenConditionals(src.join('\n'))).toBe(lines(src, [0, 1, 3]));
  });
  it('in C, takes the other branch of a C++-only condition (`extern "C" {`)', () => {
    const src = ['#ifdef __cplusplus', 'extern "C" {', '#endif', 'int x;', '#if defined(__cplusplus) && X', '}', '#else', 'int y;', '#endif', ''];
    expect(flattenConditionals(src.join('\n'), true)).toBe(lines(src, [0, 1, 2, 4, 5, 6, 8]));
    // C++ keeps the first branch; `#ifndef __cplusplus` and `||` are not C++-only.
    expect(flattenConditionals(src.join('\n'))).toBe(lines(src, [0, 2, 4, 6, 7, 8]));
    const either = ['#if defined(__cplusplus) || defined(Y)', 'int a;', '#endif', '#ifndef __cplusplus', 'int b;', '#endif'];
    expect(flattenConditionals(either.join('\n'), true)).toBe(lines(either, [0, 2, 3, 5]));
  });
  it('leaves text without conditionals, and other directives, as they are', () => {
    const src = '#include <a.h>\n#define X 1\n#pragma once\n#region R\nint x;\n#endregion\n';
    expect(flattenConditionals(src)).toBe(src);
  });
});

describe('blankDirectiveComments', () => {
  it('blanks the block comments of a continued directive only', () => {
    const src = '#define M(a) \\\n  do { /* one */ \\\n    f(a); /* two */ \\\n  } while (0)\nint x; /* kept */\n#define N 1 /* kept */\n';
    expect(blankDirectiveComments(src)).toBe(gone(src, '/* one */', '/* two */'));
    expect(blankDirectiveComments('int x; /* a */\n')).toBe('int x; /* a */\n');
  });
});

describe('recovery through parse()', () => {
  const rawErrors = async (lang: 'c' | 'cpp' | 'csharp', src: string) => {
    const { parser } = await loadParser(lang);
    const tree = parser.parse(src)!;
    const n = errorRows(tree).length;
    tree.delete();
    return n;
  };
  const cases: [string, 'c' | 'cpp' | 'csharp', string][] = [
    ['a calling convention (C)', 'c', '#define CJSON_CDECL __cdecl\nint CJSON_CDECL main(void)\n{\n  return 0;\n}\n'],
    ['a macro opening a namespace (C++)', 'cpp', 'FMT_BEGIN_NAMESPACE\nnamespace detail {\nint f() { return 1; }\n}\nFMT_END_NAMESPACE\n'],
    [
      'a C header with C++ in its `#ifdef __cplusplus` branch',
      'c',
      '#ifdef __cplusplus\ntemplate <typename T> struct wrap { T v; };\n#else\nstruct wrap { int v; };\n#endif\nint count(void);\n',
    ],
    ['an X-macro inside an enum (C)', 'c', '#define MY_KINDS(X) X(a) X(b)\nenum kind {\n#define X(n) K_##n,\n  MY_KINDS(X)\n#undef X\n  K_LAST\n};\n'],
    ['a comment inside a multi-line #define (C)', 'c', '#define M(a) \\\n  do { /* once */ \\\n    f(a); \\\n  } while (0)\n\nint x;\n'],
    [
      'annotations and a type argument (C)',
      'c',
      'void die(const char *fmt, ...) MY_PRINTF(1, 2);\nstatic const MY_FLOAT zero = 0;\nchar *next(va_list ap) { return va_arg(ap, char *); }\n',
    ],
    [
      'a multi-line check, `if` and `catch` macros (C++)',
      'cpp',
      'void f() {\n  MY_CHECK(compare(\n      1,\n      2))\n  if MY_CONSTEXPR (sizeof(int) > 2) {\n  }\n  MY_TRY {\n    g();\n  }\n  MY_CATCH(...) {}\n}\n',
    ],
    [
      'a macro that expands to a string, between literals (C++)',
      'cpp',
      'void f(char *b, long long i) {\n  sprintf(b, "%" PRId64 "\\n", i);\n  g("a" SEP "b");\n}\n',
    ],
    [
      'thread-safety annotations on the line after their declaration (C++)',
      'cpp',
      'class A {\n  std::queue<int> q_\n      GUARDED_BY(mu_);\n  void f(int n)\n      REQUIRES(mu_) {\n  }\n  Status g(int n)\n      EXCLUDES(mu_);\n};\n',
    ],
    ['`typename` in an expression (C++)', 'cpp', 'template <typename T> bool f(T t) {\n  return typename T::Value(t) == t;\n}\n'],
    ['pointer-to-member declarators (C++)', 'cpp', 'struct S {\n  void (Runner::*method)(int);\n  typedef bool (S::*Test)() const;\n};\n'],
    ['pointer-to-member operators `.*` and `->*` (C++)', 'cpp', 'int g(S s, S *p) {\n  return s.*(&S::c) + p->*(&S::c);\n}\n'],
    ['`new T*[n]` (C++)', 'cpp', 'void f(int n) {\n  Node** list = new Node*[n];\n}\n'],
    ['a default template argument with `const` and `*` (C++)', 'cpp', 'template <typename T, typename P = const T*>\nP find(P a);\n'],
    ['a call of `operator()<T>` (C++)', 'cpp', 'struct V {\n  void operator()(bool v) {\n    if (v) operator()<bool>(v);\n  }\n};\n'],
    [
      'a qualified name after a nested `>>` in template arguments (C++)',
      'cpp',
      'template <typename T>\nstruct is_num<\n    T, bool_constant<std::is_arithmetic<result<T>>::value>>\n    : std::true_type {};\n',
    ],
    [
      'a declaration with a nested `>>` in a body (C++)',
      'cpp',
      'void f() {\n  std::unique_ptr<std::vector<arg<C>>, decltype(pop)>\n      guard{&data, pop};\n}\n',
    ],
    ['`>=` in template arguments (C++)', 'cpp', 'template <typename A, typename B>\nstruct More : Bool<Rank<A>::value >= Rank<B>::value> {};\n'],
    ['an unnamed parameter with a default (C++)', 'cpp', 'struct A {\n  void* allocate(int n = 1, const void* = 0);\n};\n'],
    ['an explicit instantiation over two lines (C++)', 'cpp', 'template class access<tag, std::filebuf,\n                     &std::filebuf::file>;\n'],
    [
      'a compiler attribute spelt `__name` between type and declarator (C)',
      'c',
      'static void cb(Ref __unused s, int type, const void __unused *data, void *info) {\n}\n',
    ],
    [
      'lower-case specifier macros before a typed head, on its line or the line above (C)',
      'c',
      'static void my_noreturn fatal(const char *msg);\nmy_internal my_inline uint32_t\nread4(char const *p) {\n  return 0;\n}\nmy_internal my_inline\nunsigned long bits(double d) {\n  return 0;\n}\nmy_internal my_inline size_t size(int k) {\n  return 0;\n}\nmy_internal uint64_t TABLE[4] = {1, 2, 3, 4};\n',
    ],
    ['a lower-case statement macro over several lines without `;` (C)', 'c', 'void t(void) {\n  test_cond(a == 1 &&\n      b == 2)\n  done();\n}\n'],
    ["a macro that expands to a call's leading arguments (C)", 'c', 'void f(void) {\n  attach(EV_DEFAULT_ c);\n  run(EV_DEFAULT_ 0);\n}\n'],
    ['an annotation macro after an array parameter (C)', 'c', 'int\nmain(int argc G_UNUSED,\n     char *argv[] G_UNUSED)\n{\n  return 0;\n}\n'],
    [
      "a function's name on the line after its type, with a macro type qualifier (C)",
      'c',
      'static void\ngethex(struct ctx *C,  CONST char **sp, int n)\n{\n  return;\n}\n',
    ],
    [
      'X-macros expanded by an #include in an enum and in a value (C)',
      'c',
      'typedef enum {\n#define OP(n) n,\n#include "ops.h"\n#undef OP\n} opcode;\n\nenum {\n  N_OPS =\n#define OP(n) +1\n#include "ops.h"\n#undef OP\n};\n',
    ],
    [
      "a macro whose argument is a declaration, after a comment's last line (C)",
      'c',
      '/* Default value, for\n   older compilers.  */\nYY_INITIAL_VALUE (static int yyval_default;)\nint yylval YY_INITIAL_VALUE (= yyval_default);\n',
    ],
    [
      "a type as a macro's first argument, over two lines (C)",
      'c',
      'void f(int n) {\n  char *p;\n  p = MY_CAST (char *,\n      MY_ALLOC (MY_CAST (size_t, n)));\n}\n',
    ],
    [
      'a type macro after a template head, an annotation before a comment, an empty macro argument (C++)',
      'cpp',
      'struct V {\n  template <typename T>\n  explicit V(T b, MY_ENABLEIF((is_bool<T>))) MY_NOEXCEPT  // see #1\n      : d_() {}\n  template <typename T> friend MY_RETURN((is_value<T>), (bool)) operator==(const T& a, const V& b) { return b == a; }\n  bool Null() { MY_HANDLE(Null, (ctx()), ( )); }\n};\n',
    ],
    [
      'an #if inside a base list (C#)',
      'csharp',
      'sealed class Sink : ILogEventSink, IDisposable\n#if FEATURE_ASYNC\n    , IAsyncDisposable\n#endif\n{\n    public void Emit() { }\n}\n',
    ],
  ];
  for (const [what, lang, src] of cases) {
    it(`parses ${what} that the grammar alone does not`, async () => {
      expect(await rawErrors(lang, src)).toBeGreaterThan(0);
      const tree = await parse(lang, src);
      expect(errorRows(tree)).toEqual([]);
      tree.delete();
    });
  }
  it('never rewrites a file that parses', async () => {
    const src = '#if A\nint x = 1;\n#else\nint x = 2;\n#endif\nint MAX_SIZE;\n';
    const tree = await parse('c', src);
    expect(tree.rootNode.text).toBe(src);
    tree.delete();
  });
});

describe('a multi-line invocation that recovery blanked', () => {
  it('is a header closed by its last line, its middle lines its children', async () => {
    const src = ['void f(void) {', '  MY_CHECK(compare(', '      1,', '      2))', '  g();', '}', ''].join('\n');
    const s = await analyze(src, 'c');
    expect(s.errorCount).toBe(0);
    expect([s.blockEnd[1], s.closer[1]]).toEqual([3, 3]);
    expect([s.parent[2], s.parent[3]]).toEqual([1, 1]);
  });
  it('also when its `;` stays on the last line (a `throw` argument the C++ grammar does not take, fmt gtest-extra-test.cc)', async () => {
    const src = [
      'TEST(extra, no_warning) {',
      '  EXPECT_NONFATAL_FAILURE(',
      '      EXPECT_SYSTEM_ERROR(throw fmt::system_error(EDOM, "aaa"), EDOM, "bbb"),',
      '      "");',
      '}',
      '',
    ].join('\n');
    const s = await analyze(src, 'cpp');
    expect(s.errorCount).toBe(0);
    expect([s.blockEnd[1], s.closer[1]]).toEqual([3, 3]);
    expect([s.parent[2], s.parent[3]]).toEqual([1, 1]);
  });
});

describe('pruning C-family code that only recovery parses', () => {
  const src = [
    '#include <stdlib.h>',
    '',
    'unsigned int available(void) {',
    '  long rc = -1;',
    '#ifdef __linux__',
    '  rc = linux_cpu_count();',
    '#elif defined(__APPLE__)',
    '  for (int i = 0; i < 3; i++) {',
    '    if (0 == sysctlbyname(mib[i], &nprocs, &len, NULL, 0) &&',
    '        nprocs > 0) {',
    '      rc = nprocs;',
    '      break;',
    '    }',
    '  }',
    '#else',
    '  rc = 1;',
    '#endif',
    '  return (unsigned) rc;',
    '}',
    '',
    ...Array.from({ length: 30 }, (_, i) => `int UV_EXTERN helper_${i}(int value) { return value + ${i}; }`),
  ].join('\n');
  it('keeps a line of a later branch inside its conditional, and the output parses', async () => {
    const r = await prune(src, { query: 'nprocs sysctlbyname', ratio: 4, language: 'c' });
    expect(r.stats.inputParseOk).toBe(true);
    expect(r.stats.outputParseOk).toBe(true);
    const kept = new Set(r.keptLines);
    expect(kept.has(11)).toBe(true); // rc = nprocs;
    for (const directive of [5, 7, 17]) expect(kept.has(directive)).toBe(true); // #ifdef, #elif, #endif
    expect(kept.has(3)).toBe(true); // the function's header
  });
});
