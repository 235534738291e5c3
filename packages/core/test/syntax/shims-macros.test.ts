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
  it('keeps an invocation whose statement goes on below (`EXPECT_X(a, b)` then `<< "message";`, fmt gtest-extra-test.cc)', () => {
    const text = lines(['  EXPECT_SYSTEM_ERROR(throw_system_error(), EDOM, "test")', '      << "unexpected failure";'], []);
    expect(rewriteMacros(text, [0])).toBe(text);
    for (const below of ['      .then(done);', '      && ready;', '      ? a : b;']) {
      const go = lines(['  CHECK(f(x))', below], []);
      expect(rewriteMacros(go, [0])).toBe(go);
    }
    // A line that is one invocation still is when the line below does not go on with it.
    const alone = ['  CHECK(f(x))', '  g();'];
    expect(rewriteMacros(lines(alone, []), [0])).toBe(lines(alone, [0]));
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
  it('reads string macros, continued annotations and lower-case specifiers as the parser can', () => {
    const fmt = '  sprintf(b, "%" PRId64 "\\n", i);';
    expect(macroLine(fmt)).toBe(fmt.replace('PRId64', '"    "'));
    // A literal's prefix stays: `LR"(x)"`.
    expect(macroLine('  auto s = LR"(x)";')).toBe('  auto s = LR"(x)";');
    const guarded = 'std::queue<int> q_\n      GUARDED_BY(mu_);';
    expect(rewriteMacros(guarded, [1])).toBe(gone(guarded, 'GUARDED_BY(mu_)'));
    const requires = 'void f(int n)\n      REQUIRES(mu_) {';
    expect(rewriteMacros(requires, [1])).toBe(gone(requires, 'REQUIRES(mu_)'));
    // After a finished statement it is a statement of its own.
    expect(rewriteMacros('f(x);\n  CHECK(mu_);', [1])).toBe('f(x);\n' + ' '.repeat(13));
    expect(rewriteMacros('static void my_noreturn fatal(const char *msg);', [0], true)).toBe(
      gone('static void my_noreturn fatal(const char *msg);', 'my_noreturn'),
    );
    expect(rewriteMacros('my_internal my_inline size_t size(int k) {', [0], true)).toBe(
      gone('my_internal my_inline size_t size(int k) {', 'my_internal', 'my_inline'),
    );
    const above = 'my_internal my_inline\nunsigned long bits(double d) {';
    expect(rewriteMacros(above, [0], true)).toBe(gone(above, 'my_internal my_inline'));
    // An upper-case attribute is no type: `zipFile` stays, `MY_EXPORT` goes.
    expect(rewriteMacros('extern zipFile MY_EXPORT zip_open(const char *path);', [0], true)).toBe(
      gone('extern zipFile MY_EXPORT zip_open(const char *path);', 'MY_EXPORT'),
    );
    expect(rewriteMacros('  s.in = (z_const Bytef *)src;', [0], true)).toBe(gone('  s.in = (z_const Bytef *)src;', 'z_const'));
    expect(rewriteMacros('  s.in = (unsigned char *)src;', [0], true)).toBe('  s.in = (unsigned char *)src;');
    // A `_T` ending names a type: it stays where the attribute beside it goes.
    expect(macroLine('static ZPOS64_T MY_CALLBACK ftell_func(voidpf s) {')).toBe(gone('static ZPOS64_T MY_CALLBACK ftell_func(voidpf s) {', 'MY_CALLBACK'));
    const typeLine = 'my_internal my_inline uint32_t\nread4(char const *p) {';
    expect(rewriteMacros(typeLine, [0], true)).toBe(gone(typeLine, 'my_internal', 'my_inline'));
    // After a label, a macro on its own line above a `{` ends a statement, not a function's head.
    expect(rewriteMacros('case 4:\nMY_RULE_SETUP\n{', [1])).toBe(lines(['case 4:', 'MY_RULE_SETUP', '{'], [1]));
    // A type and its function's name on the next line (K&R style) stay.
    const knr = 'static void\nparse_hex(char *c, int n)\n{';
    expect(rewriteMacros(knr, [1], true)).toBe(knr);
    expect(rewriteMacros('my_type\nparse_hex(int n) {', [0], true)).toBe('my_type\nparse_hex(int n) {');
    expect(rewriteMacros('  attach(EV_DEFAULT_ c);', [0], true)).toBe(gone('  attach(EV_DEFAULT_ c);', 'EV_DEFAULT_'));
    expect(rewriteMacros('static void cb(Ref __unused s, const void __unused *d) {', [0], true)).toBe(
      gone('static void cb(Ref __unused s, const void __unused *d) {', '__unused', '__unused'),
    );
    // A type spelt with two underscores stays: `const __m128i x`.
    expect(macroLine('  const __m128i x = load(p);')).toBe('  const __m128i x = load(p);');
    expect(rewriteMacros('  p = MY_CAST (char *, q);', [0], true)).toBe('  p = MY_CAST (x     , q);');
  });
  it('reads C++ forms tree-sitter-cpp does not, in forms it does', () => {
    expect(macroLine('  return typename T::Value(t) == t;')).toBe(gone('  return typename T::Value(t) == t;', 'typename'));
    expect(macroLine('  typedef bool (S::*Test)() const;')).toBe(gone('  typedef bool (S::*Test)() const;', 'S::', 'const'));
    expect(macroLine('  return s.*(&S::c) + p->*(&S::c);')).toBe('  return s *(&S::c) + p- *(&S::c);');
    expect(macroLine('  Node** list = new Node*[n];')).toBe('  Node** list = new Node [n];');
    expect(macroLine('template <typename T, typename P = const T*>')).toBe(gone('template <typename T, typename P = const T*>', 'const', '*'));
    expect(macroLine('    if (v) operator()<bool>(v);')).toBe('    if (v) operator__<bool>(v);');
    expect(macroLine('    T, bool_constant<is_arithmetic<result<T>>::value>>')).toBe('    T, bool_constant<is_arithmetic<result_T_>::value>>');
    expect(macroLine('struct More : Bool<Rank<A>::value >= Rank<B>::value> {};')).toBe('struct More : Bool<Rank<A>::value == Rank<B>::value> {};');
    // Outside template arguments `>=` stays.
    expect(macroLine('  if (a >= b) x = y >= z;')).toBe('  if (a >= b) x = y >= z;');
    expect(macroLine('  void* allocate(int n = 1, const void* = 0);')).toBe('  void* allocate(int n = 1, const void*x= 0);');
    // A type macro after a template's head, an annotation before a comment, an empty argument.
    const ret = '  template <typename T> friend MY_RETURN((is_value<T>), (bool)) operator==(const T& a, const V& b) { return b == a; }';
    expect(macroLine(ret)).toBe(ret.replace('MY_RETURN((is_value<T>), (bool))', 'int'.padEnd('MY_RETURN((is_value<T>), (bool))'.length)));
    const noexcept = '  explicit V(T b, MY_ENABLEIF((is_bool<T>))) MY_NOEXCEPT  // see #1';
    expect(macroLine(noexcept)).toBe(gone(noexcept, 'MY_NOEXCEPT'));
    expect(macroLine('  bool Null() { MY_HANDLE(Null, (ctx()), ( )); }')).toBe('  bool Null() { MY_HANDLE(Null, (ctx()), (0)); }');
    expect(macroLine('  x = MY_F(a, ());')).toBe('  x = MY_F(a, 0 );');
    // Qt: slots and signals sections, and the signatures in SIGNAL() / SLOT().
    expect(macroLine('    private slots:')).toBe('    private      :');
    expect(macroLine('  public Q_SLOTS:')).toBe('  public        :');
    expect(macroLine('signals:')).toBe('public :');
    const connect = '  connect(m_read, SIGNAL(activated(int)), this, SLOT(read()));';
    expect(macroLine(connect)).toBe(gone(connect, 'activated(int)', 'read()'));
    expect(macroLine('  std::signals::x = 1;')).toBe('  std::signals::x = 1;');
    const inst = 'template class access<tag, std::filebuf,\n    &std::filebuf::file>;';
    expect(rewriteMacros(inst, [0])).toBe(gone(inst, 'class'));
  });
  it('touches only the error rows and the two code lines above each', () => {
    const src = ['FMT_A', 'FMT_B', '', 'FMT_C', 'int x;', 'FMT_D', 'FMT_E'];
    expect(rewriteMacros(src.join('\n'), [4])).toBe(lines(src, [1, 3]));
  });
});
