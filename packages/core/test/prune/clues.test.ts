import { describe, expect, it } from 'vitest';
import { clueStrengths, withReportClues } from '../../src/prune/clues.js';
import { parseReport } from '../../src/text/report.js';
import { analyze } from '../../src/syntax/index.js';
import type { RubricEmissions } from '../../src/crf/rubrics.js';

const SRC = [
  'import time', // 1
  '', // 2
  'def parse_retry(value):', // 3
  '    seconds = int(value)', // 4
  '    if seconds < 0:', // 5
  '        raise ValueError("Retry-After must not be negative: %s" % value)', // 6
  '    log("Retry-After must not be negative here")', // 7
  '    return seconds', // 8
  '', // 9
  'def acquire(limiter, blocking=True):', // 10
  '    limiter.acquire(blocking=True)', // 11
  '    return time.monotonic()', // 12
  '',
].join('\n');

describe('clueStrengths', async () => {
  const lines = SRC.split('\n');
  const st = await analyze(SRC, 'python');
  const strengths = (report: string, file = 'pkg/limiter.py') => Array.from(clueStrengths(parseReport(report), lines, st, file));
  it('an error message the report quotes points at the line that raises it, not at other lines with the words', () => {
    const s = strengths('Got ValueError: Retry-After must not be negative: -3 when the server sends -3');
    expect(s.map((v, i) => (v ? i + 1 : 0)).filter(Boolean)).toEqual([6]);
  });
  it('quoted code points at the same line, whitespace aside', () => {
    const s = strengths('Hangs when calling:\n\n    limiter.acquire( blocking=True )\n');
    expect(s[10]).toBe(1);
    expect(s.filter((v) => v > 0).length).toBe(1);
  });
  it('a frame in this file points at its line and its function; elsewhere only at a function of that name', () => {
    const here = strengths('Traceback (most recent call last):\n  File "/srv/app/pkg/limiter.py", line 4, in parse_retry\nValueError');
    expect([here[3], here[2]]).toEqual([1, 0.8]);
    const elsewhere = strengths('Traceback (most recent call last):\n  File "/srv/app/pkg/other.py", line 4, in parse_retry\nValueError');
    expect([elsewhere[3], elsewhere[2]]).toEqual([0, 0.4]);
  });
  it("a frame's line is taken only when the source it quotes is that line", () => {
    // The reporter's line 5 is our line 4: the quoted line is found where it is, line 5 is not taken.
    const s = strengths('Traceback (most recent call last):\n  File "/srv/app/pkg/limiter.py", line 5, in parse_retry\n    seconds = int(value)\nValueError');
    expect([s[2], s[3], s[4]]).toEqual([0.8, 1, 0]);
    const same = strengths(
      'Traceback (most recent call last):\n  File "/srv/app/pkg/limiter.py", line 4, in parse_retry\n    seconds = int(value)\nValueError',
    );
    expect(same[3]).toBe(1);
  });
  it('an import error points at the import of the module or name it fails on', () => {
    const s = strengths("ModuleNotFoundError: No module named 'time'");
    expect(s.map((v, i) => (v ? `${i + 1}:${v}` : '')).filter(Boolean)).toEqual(['1:1']);
    // `time.monotonic()` uses the module but does not import it; a name in prose is no import error.
    expect(strengths('the time module is slow to import here').every((v) => v === 0)).toBe(true);
  });
  it('a call error points at the definition called; an unexpected keyword, at the ones that lack it', () => {
    expect(strengths("TypeError: acquire() got an unexpected keyword argument 'timeout'")[9]).toBe(0.8);
    expect(strengths("TypeError: acquire() got an unexpected keyword argument 'blocking'").every((v) => v === 0)).toBe(true);
    const s = strengths('TypeError: parse_retry() takes 1 positional argument but 2 were given');
    expect(s.map((v, i) => (v ? `${i + 1}:${v}` : '')).filter(Boolean)).toEqual(['3:0.8']);
  });
  it("a method's class, when the error names it, picks the method among those of that name", async () => {
    const src = [
      'class Reloader:', // 1
      '    def __init__(self, extra_files=None):', // 2
      '        pass', // 3
      'class InotifyReloader:', // 4
      '    def __init__(self, callback=None):', // 5
      '        pass', // 6
      'class Watcher:', // 7
      '    def __init__(self):', // 8
      '        pass', // 9
      '',
    ].join('\n');
    const st2 = await analyze(src, 'python');
    const s = (report: string) =>
      Array.from(clueStrengths(parseReport(report), src.split('\n'), st2, 'pkg/reloader.py'))
        .map((v, i) => (v ? `${i + 1}:${v}` : ''))
        .filter(Boolean);
    expect(s("TypeError: __init__() got an unexpected keyword argument 'extra_files'")).toEqual(['5:0.8', '8:0.8']);
    expect(s("TypeError: InotifyReloader.__init__() got an unexpected keyword argument 'extra_files'")).toEqual(['5:0.8']);
    expect(s('TypeError: Watcher.__init__() takes 1 positional argument but 2 were given')).toEqual(['8:0.8']);
  });
  it('a message the report quotes, made from a template, points at the line that logs it', async () => {
    const src = [
      'def fetch(link):',
      '    log.debug("Hashing {}".format(link.url))',
      '    log.info("Fetched %s in %d ms", link, ms)',
      '    return get(link)',
      '',
    ].join('\n');
    const lines2 = src.split('\n');
    const st2 = await analyze(src, 'python');
    const s = (report: string) => Array.from(clueStrengths(parseReport(report), lines2, st2, 'pkg/fetch.py'));
    expect(
      s('Before:\n\n    Hashing https://files.example.org/a/Django-3.0.5.tar.gz\n')
        .map((v, i) => (v ? i + 1 : 0))
        .filter(Boolean),
    ).toEqual([2]);
    expect(
      s('Fetched pkg-1.0.tar.gz in 300 ms, too slow')
        .map((v, i) => (v ? i + 1 : 0))
        .filter(Boolean),
    ).toEqual([3]);
    // Word starts only, and the pieces in order.
    expect(s('Rehashing everything; 300 ms in Fetched').every((v) => v === 0)).toBe(true);
  });
  it('a failing test points at the function it is named after (the longest, whole words), not at an import', () => {
    // `parse_retry` (line 3), not `acquire`; `time` is an import, `test_time_…` names nothing here.
    const s = strengths('FAILED tests/test_limiter.py::test_parse_retry_negative_value - ValueError\nand test_time_source too');
    expect(s.map((v, i) => (v ? `${i + 1}:${v}` : '')).filter(Boolean)).toEqual(['3:0.4']);
    // A prefix must end at a word: `test_acquirex` names no function.
    expect(strengths('test_acquirex fails on CI every time now').every((v) => v === 0)).toBe(true);
  });
  it('a failing test defined in this file points at its own definition', async () => {
    const test = ['def test_parse_retry_negative():', '    assert parse_retry(-1) == 0', ''].join('\n');
    const tst = await analyze(test, 'python');
    const s = Array.from(clueStrengths(parseReport('FAILED tests/test_limiter.py::test_parse_retry_negative'), test.split('\n'), tst, 'tests/test_limiter.py'));
    expect(s[0]).toBe(0.8);
  });
});

describe('withReportClues', () => {
  const n = 4;
  const heads = [new Float64Array([0, 1, 0, -1, 0, 1, 0, -1]), new Float64Array(2 * n)];
  const r: RubricEmissions = {
    n,
    heads,
    gate: new Float64Array(2 * n),
    headCrfs: [],
    fusedCrf: { transitions: new Float64Array(4), start: new Float64Array(2), end: new Float64Array(2) },
  };
  it('returns the same emissions when the query points at nothing', async () => {
    const st = await analyze('a = 1\nb = 2\nc = 3\nd = 4', 'python');
    expect(withReportClues(r, 'nothing quoted in this query at all', ['a = 1', 'b = 2', 'c = 3', 'd = 4'], st)).toBe(r);
  });
  it("adds weight × the spread of the semantic margins to a clued line's keep emission", async () => {
    const lines = ['a = 1', 'raise KeyError("the missing key was not found")', 'c = 3', 'd = 4'];
    const st = await analyze(lines.join('\n'), 'python');
    const out = withReportClues(r, 'KeyError: the missing key was not found', lines, st, undefined, 1);
    // margins 1, -1, 1, -1: spread 1
    expect(Array.from(out.heads[0])).toEqual([0, 1, 0, 0, 0, 1, 0, -1]);
    expect(out.heads[1]).toBe(r.heads[1]);
  });
});
