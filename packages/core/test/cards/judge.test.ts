import { describe, expect, it } from 'vitest';
import { judgeAll, judgeOne, judgePrompt, validateJudgment, type JudgeFn } from '../../src/cards/judge.js';
import type { ContextUnit } from '../../src/cards/types.js';

const good = {
  no_context_action: 'edit sessions.py',
  with_context_action: 'edit models.py prepare_content_length',
  action_shift: 0.8,
  necessity: 0.6,
  expected_outcome_uplift: 0.5,
  negative_transfer_risk: 0.1,
  reason: 'the header is set in models.py',
  confidence: 0.9,
};
const unit = (id: string): ContextUnit => ({ id, type: 'file', source: `${id}.py`, content: 'def f():\n    pass', tokens: 5, confidence: 1 });
const task = { query: 'GET requests send Content-Length' };

describe('validateJudgment', () => {
  it('accepts the eight fields as an object, as JSON text, and inside prose or a code fence', () => {
    expect(validateJudgment(good)).toEqual({ ok: true, judgment: good });
    expect(validateJudgment(JSON.stringify(good))).toEqual({ ok: true, judgment: good });
    expect(validateJudgment('Here you go:\n```json\n' + JSON.stringify(good) + '\n```')).toEqual({ ok: true, judgment: good });
    expect(validateJudgment({ ...good, action_shift: 0, necessity: 1 }).ok).toBe(true);
  });

  const bad: [string, unknown, string][] = [
    ['null', null, 'not_object'],
    ['a number', 42, 'not_object'],
    ['an array', [good], 'not_object'],
    ['prose without JSON', 'I think it matters a lot', 'not_json'],
    ['broken JSON', '{"action_shift": 0.5,', 'not_json'],
    ['a missing field', { ...good, reason: undefined }, 'missing_field'],
    ['a number as a string', { ...good, necessity: '0.6' }, 'wrong_type'],
    ['a boolean', { ...good, confidence: true }, 'wrong_type'],
    ['an action that is not a string', { ...good, with_context_action: { do: 'x' } }, 'wrong_type'],
    ['NaN', { ...good, action_shift: Number.NaN }, 'out_of_range'],
    ['Infinity', { ...good, negative_transfer_risk: Number.POSITIVE_INFINITY }, 'out_of_range'],
    ['a value above 1', { ...good, expected_outcome_uplift: 1.01 }, 'out_of_range'],
    ['a negative value', { ...good, confidence: -0.1 }, 'out_of_range'],
    ['an unknown field', { ...good, llm_score: 1 }, 'unknown_field'],
    ['a huge string field', { ...good, reason: 'x'.repeat(5000) }, 'string_too_long'],
    ['a huge answer', 'x'.repeat(40_000), 'too_large'],
    ['a __proto__ key', JSON.parse(`{"__proto__": {"polluted": 1}, ${JSON.stringify(good).slice(1)}`), 'forbidden_key'],
    ['a constructor key', { ...good, constructor: { prototype: { polluted: 1 } } }, 'forbidden_key'],
  ];
  for (const [what, answer, code] of bad) {
    it(`rejects ${what} (${code})`, () => {
      const r = validateJudgment(answer);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toBe(code);
    });
  }

  it('rejects hostile objects without throwing: throwing getters, throwing proxies, class instances', () => {
    const getter = { ...good };
    Object.defineProperty(getter, 'necessity', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(validateJudgment(getter)).toMatchObject({ ok: false, error: 'wrong_type' });
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(validateJudgment(proxy)).toMatchObject({ ok: false, error: 'wrong_type' });
    class J {
      constructor() {
        Object.assign(this, good);
      }
    }
    expect(validateJudgment(new J())).toMatchObject({ ok: false, error: 'not_object' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('can allow extra fields when asked', () => {
    expect(validateJudgment({ ...good, extra: 1 }, { rejectUnknownFields: false }).ok).toBe(true);
    expect(validateJudgment({ ...good, __proto__: null, constructor: 1 }, { rejectUnknownFields: false }).ok).toBe(false);
  });
});

describe('judgeAll', () => {
  it('counts malformed, thrown and timed-out answers and never rejects', async () => {
    const units = ['ok', 'str', 'nan', 'throw', 'syncthrow', 'hang', 'undef', 'huge'].map(unit);
    const judge: JudgeFn = (req) => {
      switch (req.unit.id) {
        case 'ok':
          return Promise.resolve(good);
        case 'str':
          return Promise.resolve(JSON.stringify(good));
        case 'nan':
          return Promise.resolve({ ...good, necessity: Number.NaN });
        case 'throw':
          return Promise.reject(new Error('rate limited'));
        case 'syncthrow':
          throw new Error('sync failure');
        case 'hang':
          return new Promise(() => undefined);
        case 'undef':
          return Promise.resolve(undefined);
        default:
          return Promise.resolve('{' + '"a":1,'.repeat(10_000) + '}');
      }
    };
    const { outcomes, stats } = await judgeAll(judge, task, units, { timeoutMs: 30, concurrency: 3 });
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.error))).toEqual(['ok', 'ok', 'out_of_range', 'threw', 'threw', 'timeout', 'not_object', 'too_large']);
    expect(stats).toMatchObject({ calls: 8, ok: 2, malformed: 3, threw: 2, timeouts: 1 });
    expect(stats.byError).toEqual({ out_of_range: 1, threw: 2, timeout: 1, not_object: 1, too_large: 1 });
    expect(stats.examples.length).toBe(6);
  });

  it('aborts the judge signal on timeout', async () => {
    let aborted = false;
    const judge: JudgeFn = (req) =>
      new Promise(() => {
        req.signal.addEventListener('abort', () => {
          aborted = true;
        });
      });
    const o = await judgeOne(judge, task, unit('a'), { timeoutMs: 10 });
    expect(o).toMatchObject({ ok: false, error: 'timeout' });
    expect(aborted).toBe(true);
  });

  it('builds a prompt that names the eight fields', () => {
    const p = judgePrompt(task, unit('x'));
    for (const f of Object.keys(good)) expect(p).toContain(`"${f}"`);
    expect(p).toContain(task.query);
  });
});
