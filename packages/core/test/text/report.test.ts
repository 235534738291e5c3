import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/text/report.js';

describe('parseReport', () => {
  it('reads Python traceback frames', () => {
    const r = parseReport(
      [
        'Crash when parsing a negative Retry-After',
        'Traceback (most recent call last):',
        '  File "/home/u/proj/limiter.py", line 42, in parse_retry',
        '    seconds = int(value)',
        '  File "<stdin>", line 1, in <module>',
        "ValueError: invalid literal for int() with base 10: '-1'",
      ].join('\n'),
    );
    expect(r.frames).toEqual([
      { path: '/home/u/proj/limiter.py', func: 'parse_retry', line: 42, source: 'seconds = int(value)' },
      { path: '<stdin>', func: null, line: 1, source: null },
    ]);
  });
  it('reads JavaScript stack frames, and not prose that has "at"', () => {
    const r = parseReport(
      [
        'TypeError [ERR_INVALID_PROTOCOL]: Protocol "https:" not supported.',
        '    at new ClientRequest (_http_client.js:119:11)',
        '    at RedirectableRequest._performRequest (/u/node_modules/follow-redirects/index.js:169:24)',
        '    at async Promise.all (index 0)',
        'It fails at startup: see the log at line 3.',
      ].join('\n'),
    );
    expect(r.frames).toEqual([
      { path: '_http_client.js', func: 'ClientRequest', line: 119, source: null },
      { path: '/u/node_modules/follow-redirects/index.js', func: '_performRequest', line: 169, source: null },
    ]);
  });
  it('names the failing Python tests: pytest node ids, unittest headers, prose; not test modules', () => {
    const r = parseReport(
      [
        'FAILED tests/test_limiter.py::TestRetry::test_parse_retry_negative - ValueError',
        'tests/test_limiter.py::test_acquire_blocking[slow] FAILED',
        'FAIL: test_header_parser_empty (tests.test_headers.TestHeaders)',
        'Also test_parse_retry_negative fails again when run alone.',
      ].join('\n'),
    );
    expect(r.tests).toEqual(['test_parse_retry_negative', 'test_acquire_blocking', 'test_header_parser_empty']);
  });
  it('collects quoted code: fences (diff markers dropped), indented blocks, >>> sessions, inline spans', () => {
    const r = parseReport(
      [
        'Reproduce with `client.get(url, timeout=-1)` and:',
        '```diff',
        '-    if seconds < 0:',
        '+    if seconds <= 0:',
        '```',
        '    limiter.acquire(blocking=True)',
        '>>> Money(1).rounded()',
        'short `x=1` spans are skipped',
      ].join('\n'),
    );
    expect(r.code).toEqual(['client.get(url, timeout=-1)', 'if seconds < 0:', 'if seconds <= 0:', 'limiter.acquire(blocking=True)', 'Money(1).rounded()']);
    expect(r.flat.startsWith('reproduce with `client.get(url, timeout=-1)` and: ```diff -')).toBe(true);
  });
  it('reads what import and call errors name', () => {
    const r = parseReport(
      [
        "ModuleNotFoundError: No module named 'cached_property'",
        "ImportError: cannot import name '_NOT_FOUND' from 'functools' (/usr/lib/python3.12/functools.py)",
        "SyntaxError: Named export 'WebSocket' not found. The requested module 'ws' is a CommonJS module",
        "Error: Cannot find module './lib/adapter'",
        "Module not found: Error: Can't resolve 'fs' in '/app/src'",
        "TypeError: __init__() got an unexpected keyword argument 'extra_files'",
        'TypeError: parse() takes 2 positional arguments but 3 were given',
        "TypeError: acquire() missing 1 required positional argument: 'limiter'",
        "TypeError: __init__() got an unexpected keyword argument 'extra_files'",
        "TypeError: InotifyReloader.__init__() got an unexpected keyword argument 'extra_files'",
        'TypeError: close() takes no arguments (1 given)',
      ].join('\n'),
    );
    expect(r.named).toEqual({
      imports: ['cached_property', '_NOT_FOUND', 'functools', 'WebSocket', 'ws', './lib/adapter', 'fs'],
      calls: [
        { name: '__init__', owner: null, lacking: 'extra_files' },
        { name: 'parse', owner: null, lacking: null },
        { name: 'acquire', owner: null, lacking: null },
        { name: '__init__', owner: 'InotifyReloader', lacking: 'extra_files' },
        { name: 'close', owner: null, lacking: null },
      ],
    });
    expect(parseReport('It got slower after the upgrade, and takes 2 seconds now.').named).toEqual({ imports: [], calls: [] });
  });
});
