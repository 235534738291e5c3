import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeLineFeatures, FEATURE_COUNT, FEATURE_NAMES, FEATURE_VERSION, slidingMax } from '../../src/features/lines.js';
import { analyze, splitLines } from '../../src/syntax/index.js';

const dir = new URL('./fixtures/', import.meta.url);
const fixture = JSON.parse(readFileSync(new URL('case.json', dir), 'utf8')) as { query: string; source: string; language: 'python' };

describe('line features', () => {
  it('inference features equal the features the training data builder dumped (parity)', async () => {
    const meta = JSON.parse(readFileSync(new URL('features.json', dir), 'utf8'));
    const buf = readFileSync(new URL('features.f32', dir));
    const dumped = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const lines = splitLines(fixture.source);
    const st = await analyze(fixture.source, 'python');
    const f = computeLineFeatures(fixture.query, lines, st, 'python');
    expect(meta.version).toBe(FEATURE_VERSION);
    expect([f.n, f.f]).toEqual([meta.n, meta.f]);
    expect(Array.from(f.data)).toEqual(Array.from(dumped));
  });

  it('shape, finiteness and names', async () => {
    const lines = splitLines(fixture.source);
    const st = await analyze(fixture.source, 'python');
    const f = computeLineFeatures(fixture.query, lines, st, 'python');
    expect(FEATURE_NAMES.length).toBe(FEATURE_COUNT);
    expect(f.data.length).toBe(lines.length * FEATURE_COUNT);
    expect(f.data.every((v) => Number.isFinite(v))).toBe(true);
    // The line that matches the most query words ranks first.
    const bm = FEATURE_NAMES.indexOf('bm25_norm');
    let best = -1,
      bestV = -1;
    for (let t = 0; t < f.n; t++)
      if (f.data[t * f.f + bm] > bestV) {
        bestV = f.data[t * f.f + bm];
        best = t;
      }
    expect(lines[best]).toMatch(/should_retry|TimeoutError|request/);
  });

  it('empty input and empty query', async () => {
    const st = await analyze('x = 1\n', 'python');
    const f = computeLineFeatures('', ['x = 1', ''], st, 'python');
    expect(f.data.every((v) => Number.isFinite(v))).toBe(true);
    const e = computeLineFeatures('q', [], { ...st, lineCount: 0 }, null);
    expect(e.data.length).toBe(0);
  });

  it('slidingMax matches brute force', () => {
    const x = Float64Array.from({ length: 97 }, (_, i) => Math.abs(Math.sin(i * 1.7)) * ((i * 31) % 7));
    for (const w of [0, 1, 3, 10, 60]) {
      const got = slidingMax(x, w);
      for (let t = 0; t < x.length; t++) {
        let m = -Infinity;
        for (let j = Math.max(0, t - w); j <= Math.min(x.length - 1, t + w); j++) m = Math.max(m, x[j]);
        expect(got[t]).toBe(m);
      }
    }
  });
});
