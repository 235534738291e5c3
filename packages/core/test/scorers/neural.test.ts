import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prune } from '../../src/prune/pipeline.js';
import { NeuralScorer } from '../../src/scorers/neural.js';
import { resolveScorer } from '../../src/scorers/registry.js';
import { describeScorer } from '../../src/scorers/types.js';
import { configureRuntime, runtimeConfig } from '../../src/runtime/config.js';
import { analyze, splitLines } from '../../src/syntax/index.js';
import { approximateCounter } from '../../src/text/tokens.js';

const modelPath = fileURLToPath(new URL('../../../../models/ctxprune-lamr.onnx', import.meta.url));
const fixture = JSON.parse(readFileSync(new URL('../features/fixtures/case.json', import.meta.url), 'utf8')) as {
  query: string;
  source: string;
  gold_lines: number[];
};

// The model is committed (models/): a checkout without it fails here rather than skipping.
describe('neural scorer (shipped model, WASM)', { timeout: 60_000 }, () => {
  it('emits both rubrics, a normalised gate, CRFs and a document score', async () => {
    const scorer = await NeuralScorer.load({ model: modelPath, backend: 'wasm' });
    const lines = splitLines(fixture.source);
    const st = await analyze(fixture.source, 'python');
    const out = await scorer.score({ query: fixture.query, lines, structure: st, language: 'python' });
    expect(out.n).toBe(lines.length);
    expect(out.scorer).toBe('neural');
    expect(out.backend).toBe('wasm');
    expect(out.heads).toHaveLength(2);
    for (let t = 0; t < out.n; t++) expect(out.gate[2 * t] + out.gate[2 * t + 1]).toBeCloseTo(1, 5);
    expect(out.documentScore).toBeGreaterThanOrEqual(0);
    expect(out.documentScore).toBeLessThanOrEqual(1);
    expect(out.fusedCrf.transitions).toHaveLength(4);
    expect([...out.heads[0], ...out.heads[1]].every(Number.isFinite)).toBe(true);
    await scorer.dispose();
  });

  it('chunked scoring equals whole-file scoring away from chunk seams', async () => {
    const base = splitLines(fixture.source);
    const lines: string[] = [];
    while (lines.length < 900) lines.push(...base);
    const text = lines.join('\n');
    const st = await analyze(text, 'python');
    const whole = await NeuralScorer.load({ model: modelPath, backend: 'wasm' });
    const chunked = await NeuralScorer.load({ model: modelPath, backend: 'wasm', window: 400, overlap: 200 });
    const a = await whole.score({ query: fixture.query, lines, structure: st, language: 'python' });
    const b = await chunked.score({ query: fixture.query, lines, structure: st, language: 'python' });
    // Receptive field 64 lines each side < overlap/2: chunking is exact up to float error.
    for (let i = 0; i < a.heads[0].length; i++) expect(b.heads[0][i]).toBeCloseTo(a.heads[0][i], 4);
    await whole.dispose();
    await chunked.dispose();
  });

  it('prunes through the pipeline within budget, keeping the lines the query is about', async () => {
    const scorer = await NeuralScorer.load({ model: modelPath, backend: 'wasm' });
    const r = await prune(fixture.source, { query: fixture.query, ratio: 3, language: 'python', scorer, tokenCounter: approximateCounter });
    expect(r.stats.scorer).toBe('neural');
    expect(r.stats.backend).toBe('wasm');
    expect(r.keptLines.length).toBeGreaterThan(0);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    await scorer.dispose();
  });

  it('over maxLines the lexical scorer runs, said in fallbackReason and stats.degraded (TOO_LARGE_FOR_MODEL)', async () => {
    const lines = splitLines(fixture.source);
    const count = lines.length - (lines[lines.length - 1] === '' ? 1 : 0);
    const small = await NeuralScorer.load({ model: modelPath, backend: 'wasm', maxLines: count - 1 });
    const r = await prune(fixture.source, { query: fixture.query, ratio: 3, language: 'python', scorer: small, tokenCounter: approximateCounter });
    const lexical = await prune(fixture.source, { query: fixture.query, ratio: 3, language: 'python', tokenCounter: approximateCounter });
    expect(r.stats.scorer).toBe('lexical');
    expect(r.stats.fallbackReason).toBe(`${count} lines, over the ${count - 1} the model scores in time`);
    expect(r.stats.degraded).toEqual([
      { code: 'TOO_LARGE_FOR_MODEL', message: `${count} lines, over the ${count - 1} the model scores in time: scored with the lexical scorer` },
    ]);
    expect(r.text).toBe(lexical.text);
    expect(r.keptLines).toEqual(lexical.keptLines);
    // At the limit the model runs.
    const exact = await NeuralScorer.load({ model: modelPath, backend: 'wasm', maxLines: count });
    const s = await prune(fixture.source, { query: fixture.query, ratio: 3, language: 'python', scorer: exact, tokenCounter: approximateCounter });
    expect(s.stats.scorer).toBe('neural');
    expect(s.stats.degraded).toEqual([]);
    await small.dispose();
    await exact.dispose();
  });

  it("registry: 'neural' and 'auto' load the shipped model", async () => {
    const n = await resolveScorer('neural');
    expect(n.name).toBe('neural');
    const a = await resolveScorer('auto');
    expect(a.name).toBe('neural');
  });

  it("'auto' runs the model wherever the language is known, Rust too, and the lexical scorer for unknown text", async () => {
    const auto = await resolveScorer('auto');
    const py = await analyze('x = 1\n', 'python');
    expect((await auto.score({ query: 'x', lines: ['x = 1', ''], structure: py, language: 'python' })).scorer).toBe('neural');
    const rs = await analyze('fn main() {}\n', 'rust');
    const rust = await auto.score({ query: 'main', lines: ['fn main() {}', ''], structure: rs, language: 'rust' });
    expect(rust.scorer).toBe('neural');
    expect(rust.fallbackReason).toBeUndefined();
    const text = await analyze('main entry\n', null);
    const out = await auto.score({ query: 'main', lines: ['main entry', ''], structure: text, language: null });
    expect(out.scorer).toBe('lexical');
    expect(out.fallbackReason).toBe('language unknown');
    expect(describeScorer(out)).toBe('lexical (auto: language unknown)');
    expect(out.backend).toBe('cpu');
  });
});

describe("'auto' without a model", { timeout: 60_000 }, () => {
  it('falls back to the lexical scorer and records why', async () => {
    const saved = runtimeConfig.model;
    configureRuntime({ model: '/nonexistent/ctxprune.onnx' });
    try {
      // A fresh registry module so the shared neural scorer is not reused.
      const { vi } = await import('vitest');
      vi.resetModules();
      const reg = await import('../../src/scorers/registry.js');
      const cfg = await import('../../src/runtime/config.js');
      cfg.configureRuntime({ model: '/nonexistent/ctxprune.onnx' });
      const s = await reg.resolveScorer('auto');
      const st = await analyze('x = 1\n', 'python');
      const out = await s.score({ query: 'x', lines: ['x = 1', ''], structure: st, language: 'python' });
      expect(out.scorer).toBe('lexical');
      expect(out.fallbackReason).toMatch(/^neural unavailable: .*nonexistent/);
      expect(out.degraded).toEqual([
        { code: 'MODEL_UNAVAILABLE', message: expect.stringMatching(/^the model could not load \(.*nonexistent.*\): the lexical scorer scored this input$/) },
      ]);
      expect(out.backend).toBe('cpu');
      // prune() passes it on as a coded degradation.
      const { prune } = await import('../../src/prune/pipeline.js');
      const r = await prune('def f(x):\n    return x + 1\n', { query: 'x', ratio: 2, language: 'python', scorer: s });
      // 'x' is no word the lexical scorer reads (one letter), so it says that too.
      expect(r.stats.degraded.map((d) => d.code)).toEqual(['MODEL_UNAVAILABLE', 'QUERY_UNMATCHED']);
    } finally {
      configureRuntime({ model: saved });
    }
  });
});
