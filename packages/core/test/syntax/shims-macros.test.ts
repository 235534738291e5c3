import { describe, expect, it } from 'vitest';
import { gone, lines } from './helpers.js';
import { rewriteMacros } from '../../src/syntax/shims-macros.js';

/** rewriteMacros on one line that is itself in error. */
const macroLine = (line: string) => rewriteMacros(line, [0]);

describe('rewriteMacros', () => {
  it('drops attribute-like macros between words, keeping each offset', () => {
    for (const [line, macro] of [
      ['int CJSON_CDECL main(void)', 'CJSON_CDECL'],
      ['static void *CJSON_CDECL failing_realloc(void *p)', 'CJSON_CDECL'],
      ['FMT_API void vprint(FILE* f);', 'FMT_API'],
      ['class SPDLOG_API logger {', 'SPDLOG_API'],
      ['[[noreturn]] SPDLOG_API void throw_ex(int e);', 'SPDLOG_API'],
      ['void (WINAPI *fn)(void);', 'WINAPI'],
      ['log_msg(log_msg &&m) SPDLOG_NOEXCEPT {', 'SPDLOG_NOEXCEPT'],
      ['void SPDLOG_INLINE', 'SPDLOG_INLINE'],
      ['  SPDLOG_TRY {', 'SPDLOG_TRY'],
    ]) {
      expect(macroLine(line)).toBe(gone(line, macro));
    }
  });
  it('keeps upper-case types, calls and values', () => {
    for (const line of ['static BOOL f(HANDLE h, DWORD n);', 'x = MAX_SIZE + 1;', 'return CHECK_OK(x);', 'FILE *fp = NULL;'])
      expect(macroLine(line)).toBe(line);
  });
  it('blanks a line that is one invocation, and opens a function or a loop for a macro that ends with `{`', () => {
    for (const line of ['FMT_BEGIN_NAMESPACE', 'TEST_CASE(25)', '  MOCK_METHOD(void, f, (int));', 'X(1)', 'DEFINE_HANDLERS(uv)'])
      expect(macroLine(line)).toBe(gone(line, line));
    // In C a lower-case name alone without `;` is a macro; in C++ it is a constructor's head.
    expect(rewriteMacros('declare_tests(suite)', [0], true)).toBe(gone('declare_tests(suite)', 'declare_tests(suite)'));
    expect(macroLine('  explicit logger(std::string name)')).toBe('  explicit logger(std::string name)');
    for (const line of ['  register_handler(h);', '  logger(std::string name);']) expect(macroLine(line)).toBe(line);
    expect(macroLine('TEST_IMPL(idna_toascii) {')).toBe('int f' + ' '.repeat(16) + '() {');
    expect(macroLine('  uv__queue_foreach(q, &loop->handles) {')).toBe('  if' + ' '.repeat(15) + '(q, &loop->handles) {');
  });
  it('reads macro arguments and template macros as the parser can', () => {
    const arg = '  ctx = container_of(req, struct poll_ctx, fs_req);';
    expect(macroLine(arg)).toBe(gone(arg, 'struct'));
    const tmpl = 'template <typename T, FMT_ENABLE_IF(is_integral<T>::value)>';
    expect(macroLine(tmpl)).toBe(gone(tmpl, ', FMT_ENABLE_IF(is_integral<T>::value)'));
    const two = 'template <typename S,\n          FMT_ENABLE_IF(is_char<S>::value)>';
    expect(rewriteMacros(two, [1])).toBe(gone(two, ',', 'FMT_ENABLE_IF(is_char<S>::value)'));
    expect(macroLine('  logger(std::string name, const handlers &h = {});')).toBe('  logger(std::string name, const handlers &h = 0 );');
  });
  it('keeps an upper-case type where only a declarator follows it', () => {
    for (const line of [
      'static const MY_FLOAT zero = 0.0f;',
      '  MY_UINT32 p0[1] = {1};',
      'typedef LOCK_T SLOCK, *PSLOCK;',
      'int f(LOCK_T *once, void *p) {',
      'static int MY_LIMIT;',
    ])
      expect(macroLine(line)).toBe(line);
    // An attribute still goes where a type or a name follows it.
    expect(macroLine('MY_API int count(void);')).toBe(gone('MY_API int count(void);', 'MY_API'));
  });
  it('drops a macro between `if` and its condition, and reads `catch` macros as blocks', () => {
    expect(macroLine('  if MY_CONSTEXPR (n > 1) {')).toBe(gone('  if MY_CONSTEXPR (n > 1) {', 'MY_CONSTEXPR'));
    expect(macroLine('  MY_CATCH(...) {}')).toBe(gone('  MY_CATCH(...) {}', 'MY_CATCH(...)'));
    expect(macroLine('  MY_CATCH(const std::exception& e) {')).toBe(gone('  MY_CATCH(const std::exception& e) {', 'MY_CATCH(const std::exception& e)'));
  });
  it('reads explicit instantiations and macros with arguments after `class`', () => {
    const inst = 'template class MY_API ns::box<int>;';
    expect(macroLine(inst)).toBe(gone(inst, 'class', 'MY_API'));
    const cls = 'class MY_VISIBLE("default") failure : public base {';
    expect(macroLine(cls)).toBe(gone(cls, ' MY_VISIBLE("default")'));
  });
  it('drops annotation macros with arguments after a declarator, and reads type macros as `int`', () => {
    for (const [line, macro] of [
      ['void die(const char *fmt, ...) MY_PRINTF(1, 2);', 'MY_PRINTF(1, 2)'],
      ['  int count_ MY_GUARDED_BY(mu_);', 'MY_GUARDED_BY(mu_)'],
      ['  void take() MY_REQUIRES(mu_) {', 'MY_REQUIRES(mu_)'],
      ['} MY_ALIGNED(8) item_t;', 'MY_ALIGNED(8)'],
      ['MY_ALIGNAS(16) char buf[64];', 'MY_ALIGNAS(16)'],
      ['auto join(const T& t MY_LIFETIMEBOUND, int n) -> int;', 'MY_LIFETIMEBOUND'],
    ])
      expect(macroLine(line)).toBe(gone(line, macro));
    expect(macroLine('static MY_LIST(node, item) head;')).toBe(`static ${'int'.padEnd('MY_LIST(node, item)'.length)} head;`);
    expect(macroLine('MY_EXPORT(int) count(void);')).toBe(`${'int'.padEnd('MY_EXPORT(int)'.length)} count(void);`);
    // Calls stay calls.
    for (const line of ['  return MY_MAX(a, b);', '  else MY_FAIL(x);', '  x = MY_MAX(a, b);']) expect(macroLine(line)).toBe(line);
  });
  it('reads types as arguments, unnamed enum bases, casts to unsigned and case ranges as the parser can', () => {
    expect(macroLine('  char *s = va_arg(ap, char *);')).toBe('  char *s = va_arg(ap, x     );');
    expect(macroLine('  unsigned u = va_arg(ap, unsigned int);')).toBe('  unsigned u = va_arg(ap, x           );');
    expect(macroLine('  n = f(a, sizeof x);')).toBe('  n = f(a, sizeof x);');
    expect(macroLine('  enum : unsigned { a = 1 };')).toBe('  enum E:unsigned { a = 1 };');
    expect(macroLine('  d = (d & ~m) | (unsigned(s) << 3);')).toBe('  d = (d & ~m) | (x       (s) << 3);');
    expect(macroLine("  case 'a' ... 'z':")).toBe("  case 'a'  +  'z':");
  });
  it('reads what tree-sitter-cpp does not: a decltype with a comma, `using typename`, `= delete` and pointer qualifiers', () => {
    const decl = '  static auto check(U* p) -> decltype(p->find(0), int());';
    expect(macroLine(decl)).toBe('  static auto check(U* p) -> decltype(0' + ' '.repeat('p->find(0), int()'.length - 1) + ');');
    const split = '  -> decltype(f(\n      typename T::type(), 0));';
    expect(rewriteMacros(split, [0])).toBe('  -> decltype(0 \n' + ' '.repeat('      typename T::type(), 0)'.length) + ');');
    expect(macroLine('  using typename Base::value_type;')).toBe('  using          Base::value_type;');
    expect(macroLine('template <typename T> void write(T, int) = delete;')).toBe('template <typename T> void write(T, int) = 0     ;');
    expect(macroLine('  p = *(char *__ptr32 *)(base + 4);')).toBe('  p = *(char *        *)(base + 4);');
  });
  it('writes a function-head macro whose `{` is on the next line as `int f()`', () => {
    expect(rewriteMacros('MY_DECL_LEX\n{\n  return 0;\n}', [0])).toBe('int f    ()\n{\n  return 0;\n}');
    expect(rewriteMacros('MY_TEST(loop)\n{\n}', [0])).toBe('int f' + ' '.repeat('MY_TEST(loop)'.length - 7) + '()\n{\n}');
  });
  it('keeps a statement macro that is the body of an `if`, and a parameter type before `*name)`', () => {
    const body = '  if (x)\n    MY_THROW(error("x"));';
    expect(rewriteMacros(body, [1])).toBe(body);
    expect(macroLine('static int open_ctx(MY_CTX *ctx) {')).toBe('static int open_ctx(MY_CTX *ctx) {');
    expect(macroLine('typedef int (MY_CALL *handler_fn)(int);')).toBe(gone('typedef int (MY_CALL *handler_fn)(int);', 'MY_CALL'));
  });
  it('blanks a macro invocation over several lines, as a statement or in a template parameter list', () => {
    const stmt = '  MY_CHECK(compare(\n      "a",\n      true))\n  next();';
    expect(rewriteMacros(stmt, [2])).toBe(gone(stmt, 'MY_CHECK(compare(', '"a",', 'true))'));
    const tmpl = 'template <typename T,\n          MY_ENABLE_IF(is_a<T>::value &&\n                       is_b<T>::value)>\nvoid f(T);';
    expect(rewriteMacros(tmpl, [2])).toBe(gone(tmpl, ',', 'MY_ENABLE_IF(is_a<T>::value &&', 'is_b<T>::value)'));
    const inline = 'template <typename T, MY_ENABLE_IF(is_a<T>::value &&\n                                    is_b<T>::value)>\nvoid f(T);';
    expect(rewriteMacros(inline, [1])).toBe(gone(inline, ', MY_ENABLE_IF(is_a<T>::value &&', 'is_b<T>::value)'));
    // A call's value, not a statement of its own.
    const value = 'static const char seps[] =\n    MY_SEPS("/");';
    expect(rewriteMacros(value, [1])).toBe(value);
  });
  it("blanks a #define, #undef or #include in error, with an X-macro's lines, but not everywhere", () => {
    const src = ['enum kind {', '#define X(n) k_##n,', '  MY_KINDS(X)', '#undef X', '  k_last', '};'];
    expect(rewriteMacros(src.join('\n'), [1])).toBe(lines(src, [1, 2, 3]));
    expect(rewriteMacros(src.join('\n'), [0, 1, 2, 3, 4, 5], false, true)).toBe(lines(src, [2]));
    const table = ['static const char *names[] = {', '#include "names.def"', '};'];
    expect(rewriteMacros(table.join('\n'), [1])).toBe(lines(table, [1]));
  });
  it('touches only the error rows and the two code lines above each', () => {
    const src = ['FMT_A', 'FMT_B', '', 'FMT_C', 'int x;', 'FMT_D', 'FMT_E'];
    expect(rewriteMacros(src.join('\n'), [4])).toBe(lines(src, [1, 3]));
  });
});
