/** A model whose outputs are NaN or absurd is not used as is (#16 item 8). */
import { describe, expect, it } from 'vitest';
import { FEATURE_SETS } from '../../src/features/lines.js';
import { prune } from '../../src/prune/pipeline.js';
import { DEGRADATION_CODES, degradation } from '../../src/degradations.js';
import { LexicalScorer } from '../../src/scorers/lexical.js';
import { NeuralScorer } from '../../src/scorers/neural.js';
import type { Scorer } from '../../src/scorers/types.js';
import { lineScorerOnnx } from '../fixtures/onnx.js';

const PY = [
  'import os',
  '',
  'def read(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  'def size(path):',
  '    """Size of a file in bytes."""',
  '    return os.path.getsize(path)',
  '',
].join('\n');

async function scorerWith(scale: number, extra: { gateBias?: number; doc?: number } = {}) {
  return NeuralScorer.load({ model: lineScorerOnnx({ scale, featureCount: FEATURE_SETS[1].length, featureVersion: 1, ...extra }), backend: 'wasm' });
}

describe('neural scorer: feature versions', () => {
  it('a version-2 model without a word table is refused with a typed error', async () => {
    const load = NeuralScorer.load({ model: lineScorerOnnx({ scale: 1, featureCount: FEATURE_SETS[2].length, featureVersion: 2 }), backend: 'wasm' });
    await expect(load).rejects.toMatchObject({
      code: 'ASSET_LOAD_FAILED',
      message: 'model of feature version 2 carries no word table (outputs word_keys, words)',
    });
  }, 60_000);

  it('an unknown feature version is refused with a typed error', async () => {
    const load = NeuralScorer.load({ model: lineScorerOnnx({ scale: 1, featureCount: 48, featureVersion: 9 }), backend: 'wasm' });
    await expect(load).rejects.toMatchObject({
      code: 'ASSET_LOAD_FAILED',
      message: 'model was trained on feature version 9, this build computes versions 1, 2',
    });
  }, 60_000);
});

describe('neural scorer: non-finite or absurd model outputs', () => {
  it('a sane tiny model runs as the neural scorer (the fixture honours the contract)', async () => {
    const s = await scorerWith(1);
    const r = await prune(PY, { query: 'file size', ratio: 2, scorer: s, fileName: 'f.py' });
    expect(r.stats.scorer).toBe('neural');
    expect(r.stats.fallbackReason).toBeUndefined();
    await s.dispose();
  }, 60_000);

  it.each([
    ['NaN emissions', Number.NaN, {}, /^neural model output invalid: semantic is NaN at line 1/],
    ['infinite emissions', Number.POSITIVE_INFINITY, {}, /^neural model output invalid: semantic is Infinity at line 1/],
    ['huge emissions', 1e30, {}, /^neural model output invalid: semantic is [\d.]+e\+30 at line 1/],
    ['a gate outside [0, 1]', 1, { gateBias: 7 }, /^neural model output invalid: gate is 7 at line 1/],
    ['a NaN document score', 1, { doc: Number.NaN }, /^neural model output invalid: doc is NaN/],
  ])(
    '%s: the lexical scorer runs, said in fallbackReason and stats.degraded',
    async (_label, scale, extra, why) => {
      const s = await scorerWith(scale, extra);
      const r = await prune(PY, { query: 'file size', ratio: 2, scorer: s, fileName: 'f.py' });
      expect(r.stats.scorer).toBe('lexical');
      expect(r.stats.fallbackReason).toMatch(why);
      const reason = r.stats.fallbackReason!.replace(/^neural model output invalid: /, '');
      expect(r.stats.degraded).toEqual([
        {
          code: 'SCORER_FALLBACK',
          message: `the neural model's output is invalid (${reason}): scored with the lexical scorer`,
        },
      ]);
      // A real pruning, not '# …': the lexical scorer's own.
      const lexical = await prune(PY, { query: 'file size', ratio: 2, scorer: 'lexical', fileName: 'f.py' });
      expect(r.text).toBe(lexical.text);
      expect(r.text).toContain('def size(path):');
      expect(r.lines.every((l) => Number.isFinite(l.keep) && Number.isFinite(l.semantic))).toBe(true);
      await s.dispose();
    },
    60_000,
  );
});

describe('a scorer’s degradations', () => {
  it('are coded ({ code, message } with a code of DEGRADATION_CODES) and reach stats.degraded exactly as given', async () => {
    const lexical = new LexicalScorer();
    const said = [degradation('SCORER_FALLBACK', 'my model timed out: scored with the lexical scorer')];
    const custom: Scorer = { name: 'custom', score: async (input) => ({ ...lexical.score(input), scorer: 'custom', degraded: said }) };
    const r = await prune(PY, { query: 'file size', ratio: 2, scorer: custom, fileName: 'f.py' });
    expect(r.stats.degraded).toEqual([{ code: 'SCORER_FALLBACK', message: 'my model timed out: scored with the lexical scorer' }]);
    expect(Object.keys(DEGRADATION_CODES)).toContain(r.stats.degraded[0].code);
    const plain = await prune(PY, { query: 'file size', ratio: 2, scorer: lexical, fileName: 'f.py' });
    expect(plain.stats.degraded).toEqual([]);
    expect(r.text).toBe(plain.text);
  });
});
