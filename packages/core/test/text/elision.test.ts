import { describe, expect, it } from 'vitest';
import { lineCommentPrefix } from '../../src/syntax/languages.js';
import { elisionMarker, outputOrigin, renderKept } from '../../src/text/elision.js';
import { dominantCarriageReturn, splitLines } from '../../src/text/lines.js';
import { identifierParts, termsOf } from '../../src/text/identifiers.js';

describe('lines', () => {
  it('splits on \\n only, keeping \\r in the line', () => {
    expect(splitLines('a\r\nb\n\tc')).toEqual(['a\r', 'b', '\tc']);
    expect(splitLines('x\n')).toEqual(['x', '']);
  });
  it('detects CRLF files', () => {
    expect(dominantCarriageReturn(['a\r', 'b\r', 'c'])).toBe('\r');
    expect(dominantCarriageReturn(['a', 'b\r', 'c'])).toBe('');
  });
});

describe('elision markers', () => {
  const lines = ['def f():', '    x = 1', '    y = 2', '', '    return x'];
  it('renders one comment per elided run, at the margin (2 tokens in context, where indented it took 3)', () => {
    expect(elisionMarker(lines, 1, 2, '#', '', 4)).toBe('# …');
    expect(elisionMarker(lines, 3, 3, '//', '', 4)).toBe('// …');
    expect(elisionMarker(lines, 0, 0, '<!--', '\r', 1)).toBe('<!-- … -->\r');
  });
  it('has an indented bare form, as compaction cuts with', () => {
    expect(elisionMarker(lines, 1, 2, '#', '', 4, 'indented')).toBe('    # …');
    expect(elisionMarker(lines, 3, 3, '//', '', 4, 'indented')).toBe('    // …');
  });
  it('indents the forms with ranges like the code they stand for, a run of blank lines like the next kept line', () => {
    expect(elisionMarker(['def f():', '', '', '    return 1'], 1, 2, '#', '', 3, 'compact')).toBe('    # … lines 2–3');
  });
  it('has a compact style with the line range', () => {
    expect(elisionMarker(lines, 1, 2, '#', '', 4, 'compact')).toBe('    # … lines 2–3');
    expect(elisionMarker(lines, 3, 3, '//', '', 4, 'compact')).toBe('    // … line 4');
  });
  it('has a verbose style with the count', () => {
    expect(elisionMarker(lines, 1, 2, '#', '', 4, 'verbose')).toBe('    # … 2 lines omitted (2–3)');
    expect(elisionMarker(lines, 3, 3, '//', '', 4, 'verbose')).toBe('    // … 1 line omitted (4)');
  });
  it('renders kept lines verbatim and maps output lines back', () => {
    const keep = Uint8Array.from([1, 0, 0, 0, 1]);
    const r = renderKept(lines, keep, '#', '');
    expect(r.text).toBe('def f():\n# …\n    return x');
    expect(renderKept(lines, keep, '#', '', 'compact').text).toBe('def f():\n    # … lines 2–4\n    return x');
    expect(Array.from(r.origin)).toEqual([0, -1, 4]);
  });
  it("outputOrigin gives renderKept's origin from the kept line numbers alone", () => {
    const n = 9;
    const text = Array.from({ length: n }, (_, i) => `x${i}`);
    for (let mask = 1; mask < 1 << n; mask++) {
      const keep = Uint8Array.from({ length: n }, (_, i) => (mask >> i) & 1);
      const kept = [...keep.keys()].filter((i) => keep[i]).map((i) => i + 1);
      expect(Array.from(outputOrigin(kept, n))).toEqual(Array.from(renderKept(text, keep, '#', '').origin));
    }
  });
  it("uses the file's line ending for markers", () => {
    const crlf = ['a\r', 'b\r', 'c'];
    expect(renderKept(crlf, Uint8Array.from([1, 0, 1]), '//', '\r').text).toBe('a\r\n// …\r\nc');
  });
  it('picks the comment syntax of the language', () => {
    expect(lineCommentPrefix('python')).toBe('#');
    expect(lineCommentPrefix('ruby')).toBe('#');
    expect(lineCommentPrefix('typescript')).toBe('//');
    expect(lineCommentPrefix('go')).toBe('//');
    expect(lineCommentPrefix(null)).toBe('#');
  });
});

describe('identifier terms', () => {
  it('splits camelCase, PascalCase, snake_case and acronyms', () => {
    expect(identifierParts('parseHTTPHeaderValue')).toEqual(['parse', 'http', 'header', 'value']);
    expect(identifierParts('max_redirect_count')).toEqual(['max', 'redirect', 'count']);
  });
  it('keeps compound identifiers whole and drops stopwords and one-digit numbers', () => {
    expect(termsOf('if self.maxRetries > 3: return None')).toEqual(['maxretries', 'max', 'retries']);
    expect(termsOf('status 404')).toEqual(['status', '404']);
  });
});
