import { describe, expect, it } from 'vitest';
import { flattenConditionals, rewriteMacros } from '../../src/syntax/shims-preprocessor.js';
import { errorRows, loadParser, parse } from '../../src/syntax/index.js';
import { prune } from '../../src/prune/pipeline.js';

/** rewriteMacros on one line that is itself in error. */
const macroLine = (line: string) => rewriteMacros(line, [0]);
/** `text` with each of `parts` (found in order) replaced by as many spaces. */
function gone(text: string, ...parts: string[]): string {
  let out = text;
  let from = 0;
  for (const p of parts) {
    const at = out.indexOf(p, from);
    if (at < 0) throw new Error(`no ${p} in ${text}`);
    out = out.slice(0, at) + ' '.repeat(p.length) + out.slice(at + p.length);
    from = at + p.length;
  }
  return out;
}
/** Lines joined, each replaced by spaces where `blanked` has its index. */
const lines = (ls: string[], blanked: number[], eol = '\n') => ls.map((l, i) => (blanked.includes(i) ? l.replace(/[^\r]/g, ' ') : l)).join(eol);

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
  it('leaves text without conditionals, and other directives, as they are', () => {
    const src = '#include <a.h>\n#define X 1\n#pragma once\n#region R\nint x;\n#endregion\n';
    expect(flattenConditionals(src)).toBe(src);
  });
});

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
  it('touches only the error rows and the two code lines above each', () => {
    const src = ['FMT_A', 'FMT_B', '', 'FMT_C', 'int x;', 'FMT_D', 'FMT_E'];
    expect(rewriteMacros(src.join('\n'), [4])).toBe(lines(src, [1, 3]));
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
