/**
 * Issue 16 ("abort honoured within 100 ms of the signal on a 1 MB input"): with a signal, the
 * neural scorer runs the model in calls of at most `abortWindow` lines (one call holds the thread),
 * checks the signal between them, and gives the same per-line outputs as without one.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CtxpruneError } from '../../src/errors.js';
import { prune } from '../../src/prune/pipeline.js';
import { abortableWindow, NeuralScorer, planChunks } from '../../src/scorers/neural.js';
import type { ModelOutputs } from '../../src/runtime/session.js';
import { analyze, splitLines } from '../../src/syntax/index.js';

const modelPath = fileURLToPath(new URL('../../../../models/ctxprune-lamr.onnx', import.meta.url));

/** `lines` lines of Python: small classes, each with a method that loops. */
function python(lines: number): string {
  const out: string[] = ['import os', ''];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `class Handler${i}:`,
      `    def run(self, items):`,
      `        total = 0`,
      `        for item in items:`,
      `            if item > ${i}:`,
      `                total += item * ${i}`,
      `        return total + len(os.environ)`,
      '',
    );
  }
  return out.slice(0, lines).join('\n');
}

/** The scorer's model calls, counted: the line count of each call, in order; `after` runs as each returns. */
function countCalls(scorer: NeuralScorer, after: (calls: number) => void = () => {}): number[] {
  const session = (scorer as unknown as { session: { run(f: Float32Array, n: number, k: number): Promise<ModelOutputs> } }).session;
  const calls: number[] = [];
  const run = session.run.bind(session);
  vi.spyOn(session, 'run').mockImplementation(async (f, n, k) => {
    calls.push(n);
    const out = await run(f, n, k);
    after(calls.length);
    return out;
  });
  return calls;
}

describe('abortable windows (plan only)', () => {
  it('at most cap lines a call, the overlap kept, every line owned once, no more calls than needed', () => {
    for (const n of [1025, 2000, 4096, 4100, 9000, 25_419, 46_189]) {
      const w = abortableWindow(n, 4096, 1024, 128);
      expect(w).toBeLessThanOrEqual(1024);
      const cs = planChunks(n, w, 128);
      expect(cs.length).toBe(Math.ceil((n - 128) / (1024 - 128)));
      let next = 0;
      for (const c of cs) {
        expect(c.end - c.start).toBe(w);
        expect(c.keepFrom).toBe(next);
        // The receptive field (64 lines each side) of every owned line is inside the call.
        if (c.start > 0) expect(c.keepFrom - c.start).toBeGreaterThanOrEqual(64);
        if (c.end < n) expect(c.end - c.keepTo).toBeGreaterThanOrEqual(64);
        next = c.keepTo;
      }
      expect(next).toBe(n);
    }
    // Short inputs, or a model window already under the cap: unchanged.
    expect(abortableWindow(1000, 4096, 1024, 128)).toBe(4096);
    expect(abortableWindow(9000, 512, 1024, 128)).toBe(512);
  });
});

describe('neural scorer with a signal (shipped model, WASM)', { timeout: 120_000 }, () => {
  it('per-line outputs are identical with and without a signal; with one, no call exceeds 1,024 lines', async () => {
    const text = python(5000);
    const lines = splitLines(text);
    const structure = await analyze(text, 'python');
    const scorer = await NeuralScorer.load({ model: modelPath, backend: 'wasm' });
    const calls = countCalls(scorer);
    const input = { query: 'total of the items above the threshold', lines, structure, language: 'python' as const };
    const plain = await scorer.score(input);
    expect(calls).toEqual([4096, 4096]);
    calls.length = 0;
    const withSignal = await scorer.score({ ...input, signal: new AbortController().signal });
    expect(calls).toEqual([940, 940, 940, 940, 940, 940]);
    // Bit for bit: each line is scored in a call that holds its whole receptive field.
    expect(withSignal.heads[0]).toEqual(plain.heads[0]);
    expect(withSignal.heads[1]).toEqual(plain.heads[1]);
    expect(withSignal.gate).toEqual(plain.gate);
    expect(withSignal.headCrfs).toEqual(plain.headCrfs);
    // The document score is pooled over each call's lines: the maximum over other calls.
    expect(withSignal.documentScore).toBeGreaterThan(0);
    expect(withSignal.documentScore).toBeLessThanOrEqual(1);
    await scorer.dispose();
  });

  it("on the 'js' executor (~5x WASM's time a line), calls of at most 512 lines, the same per-line outputs", async () => {
    const text = python(2000);
    const lines = splitLines(text);
    const structure = await analyze(text, 'python');
    const scorer = await NeuralScorer.load({ model: modelPath, backend: 'js' });
    expect(scorer.backend).toBe('js');
    const calls = countCalls(scorer);
    const input = { query: 'total of the items above the threshold', lines, structure, language: 'python' as const };
    const plain = await scorer.score(input);
    expect(calls).toEqual([2000]);
    calls.length = 0;
    const withSignal = await scorer.score({ ...input, signal: new AbortController().signal });
    expect(calls).toEqual([503, 503, 503, 503, 503]);
    expect(withSignal.heads[0]).toEqual(plain.heads[0]);
    expect(withSignal.heads[1]).toEqual(plain.heads[1]);
    expect(withSignal.gate).toEqual(plain.gate);
    await scorer.dispose();
  });

  it('an abort fired mid-prune on a large input rejects with ABORTED after at most one more model call', async () => {
    const text = python(42_000);
    expect(text.length).toBeGreaterThan(1_000_000);
    const scorer = await NeuralScorer.load({ model: modelPath, backend: 'wasm' });
    const ac = new AbortController();
    let callsAtAbort = -1;
    // After the fifth model call returns, the abort is asked for from a macrotask, as a timer would.
    const calls = countCalls(scorer, (k) => {
      if (k === 5)
        setImmediate(() => {
          callsAtAbort = calls.length;
          ac.abort();
        });
    });
    const err = await prune(text, { query: 'total of the items', ratio: 8, fileName: 'big.py', scorer, signal: ac.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CtxpruneError);
    expect((err as CtxpruneError).code).toBe('ABORTED');
    expect(callsAtAbort).toBeGreaterThanOrEqual(5);
    // The signal is checked before every call: at most the call already started runs after it.
    expect(calls.length - callsAtAbort).toBeLessThanOrEqual(1);
    // Without the abort the prune would have made ceil((42000 - 128) / 896) = 47 calls.
    expect(calls.length).toBeLessThan(47);
    expect(Math.max(...calls)).toBeLessThanOrEqual(1024);
    await scorer.dispose();
  });
});
