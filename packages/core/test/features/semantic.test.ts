import { describe, expect, it } from 'vitest';
import { semanticFeatures, semanticTerms, termKey, WordVectors } from '../../src/features/semantic.js';

/** crash = (1, 0), raise = (90, 90)/127, value = (0, 1); keys ascending as the model stores them. */
function table(): WordVectors {
  const rows = [
    ['crash', [127, 0]],
    ['raise', [90, 90]],
    ['value', [0, 127]],
  ] as const;
  const sorted = [...rows].sort((a, b) => termKey(a[0]) - termKey(b[0]));
  return new WordVectors(Uint32Array.from(sorted.map((r) => termKey(r[0]))), Int8Array.from(sorted.flatMap((r) => r[1])), 2);
}

describe('semanticTerms', () => {
  it('splits identifiers, lowercases, drops English function words, single letters and numbers', () => {
    expect(semanticTerms('the parseHeaderValue raises an HTTPError for x 404')).toEqual(['parse', 'header', 'value', 'raises', 'http', 'error']);
  });
  it('keeps code keywords, which carry meaning here', () => {
    expect(semanticTerms('raise None; throw null')).toEqual(['raise', 'none', 'throw', 'null']);
  });
});

describe('termKey', () => {
  it('is 32-bit FNV-1a (the Python pretraining computes the same keys)', () => {
    expect(termKey('')).toBe(2166136261);
    expect(termKey('a')).toBe(3826002220);
    expect(termKey('error')).toBe(563185489);
    expect(termKey('crash')).toBe(441275864);
  });
});

describe('WordVectors', () => {
  it('looks up unit rows by term and rejects a table of the wrong size', () => {
    const w = table();
    expect(w.size).toBe(3);
    expect(w.row('missing')).toBe(-1);
    expect(w.dot(w.row('crash'), w.row('raise'))).toBeCloseTo(90 / 127, 6);
    expect(() => new WordVectors(Uint32Array.of(1, 2), Int8Array.of(1, 2, 3), 2)).toThrow(RangeError);
  });
});

describe('semanticFeatures', () => {
  it('connects a query word to a line that never uses it', () => {
    const out = new Float32Array(3 * 4);
    semanticFeatures(table(), 'the crash', ['raise ValueError', 'x = value', ''], out, 4, 0);
    const a = 90 / 127;
    // line 0: best cosine of "crash" with raise/value; centroid (a, a + 1) against (1, 0); file centroid (a, a + 2).
    expect([...out.subarray(0, 4)].map((v) => +v.toFixed(5))).toEqual([
      +a.toFixed(5),
      1,
      +(a / Math.hypot(a, a + 1)).toFixed(5),
      +(a / Math.hypot(a, a + 2)).toFixed(5),
    ]);
    expect([...out.subarray(4, 8)].map((v) => +v.toFixed(5))).toEqual([0, 0, 0, +(a / Math.hypot(a, a + 2)).toFixed(5)]);
    expect([...out.subarray(8, 12)].map((v) => +v.toFixed(5))).toEqual([0, 0, 0, +(a / Math.hypot(a, a + 2)).toFixed(5)]);
  });
  it('leaves the columns at 0 when no query word has a vector', () => {
    const out = new Float32Array(2 * 4);
    semanticFeatures(table(), 'unknown words only', ['raise x', 'value'], out, 4, 0);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
