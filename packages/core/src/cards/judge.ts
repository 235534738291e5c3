/**
 * Pluggable judges: the caller's LLM, given a counterfactual prompt, returns the eight-field
 * schema. Answers are validated strictly (types, 0..1 ranges, required fields, size limits, no
 * prototype-pollution keys); anything malformed, thrown or late is counted, reported and replaced
 * by the deterministic proxy — a judge can never crash a run.
 */
import type { CiclTask, ContextUnit, Judgment, UtilityComponents } from './types.js';

export const JUDGMENT_FIELDS = [
  'no_context_action',
  'with_context_action',
  'action_shift',
  'necessity',
  'expected_outcome_uplift',
  'negative_transfer_risk',
  'reason',
  'confidence',
] as const;
const NUMBER_FIELDS = ['action_shift', 'necessity', 'expected_outcome_uplift', 'negative_transfer_risk', 'confidence'] as const;
const STRING_FIELDS = ['no_context_action', 'with_context_action', 'reason'] as const;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** What a judge may return: the object itself, or text holding one JSON object. */
export type JudgeAnswer = unknown;
export interface JudgeRequest {
  prompt: string;
  task: CiclTask;
  unit: ContextUnit;
  signal: AbortSignal;
}
/** The caller's judge (their LLM behind an async function). */
export type JudgeFn = (req: JudgeRequest) => Promise<JudgeAnswer>;

export type JudgeErrorCode =
  | 'not_object'
  | 'not_json'
  | 'too_large'
  | 'forbidden_key'
  | 'unknown_field'
  | 'missing_field'
  | 'wrong_type'
  | 'out_of_range'
  | 'string_too_long'
  | 'threw'
  | 'timeout';

export type ValidationResult = { ok: true; judgment: Judgment } | { ok: false; error: JudgeErrorCode; detail: string };

export interface ValidateOptions {
  /** Reject keys outside the eight fields. Default true (strict). */
  rejectUnknownFields?: boolean;
  /** Longest accepted string field, in characters. Default 2,000. */
  maxStringChars?: number;
  /** Longest accepted raw text answer, in characters. Default 32,000. */
  maxAnswerChars?: number;
}

/** The first balanced {...} in a text (LLMs wrap JSON in prose or code fences). */
function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0,
    inStr = false,
    esc = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (esc) esc = false;
      else if (c === '\\') esc = true;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** Validate one judge answer against the eight-field schema. Never throws. */
export function validateJudgment(answer: unknown, opts: ValidateOptions = {}): ValidationResult {
  const maxStr = opts.maxStringChars ?? 2000;
  const maxAnswer = opts.maxAnswerChars ?? 32_000;
  const strict = opts.rejectUnknownFields ?? true;
  try {
    let obj: unknown = answer;
    if (typeof answer === 'string') {
      if (answer.length > maxAnswer) return { ok: false, error: 'too_large', detail: `answer has ${answer.length} characters (max ${maxAnswer})` };
      const json = extractJsonObject(answer);
      if (json === null) return { ok: false, error: 'not_json', detail: 'no JSON object in the answer' };
      try {
        obj = JSON.parse(json);
      } catch (e) {
        return { ok: false, error: 'not_json', detail: e instanceof Error ? e.message : String(e) };
      }
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      return { ok: false, error: 'not_object', detail: `answer is ${obj === null ? 'null' : Array.isArray(obj) ? 'an array' : typeof obj}` };
    }
    const proto: unknown = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) return { ok: false, error: 'not_object', detail: 'answer is not a plain object' };
    const keys = Reflect.ownKeys(obj);
    for (const k of keys) {
      if (typeof k !== 'string') return { ok: false, error: 'forbidden_key', detail: 'symbol key' };
      if (FORBIDDEN_KEYS.has(k)) return { ok: false, error: 'forbidden_key', detail: `key "${k}"` };
      if (strict && !(JUDGMENT_FIELDS as readonly string[]).includes(k)) {
        return { ok: false, error: 'unknown_field', detail: `unexpected field "${k.slice(0, 40)}"` };
      }
    }
    const rec = obj as Record<string, unknown>;
    const read = (k: string): unknown => {
      const d = Object.getOwnPropertyDescriptor(rec, k);
      if (!d) return undefined;
      if (!('value' in d)) throw new TypeError(`field "${k}" is an accessor`);
      return d.value;
    };
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of STRING_FIELDS) {
      const v = read(k);
      if (v === undefined) return { ok: false, error: 'missing_field', detail: k };
      if (typeof v !== 'string') return { ok: false, error: 'wrong_type', detail: `${k} must be a string, got ${v === null ? 'null' : typeof v}` };
      if (v.length > maxStr) return { ok: false, error: 'string_too_long', detail: `${k} has ${v.length} characters (max ${maxStr})` };
      out[k] = v;
    }
    for (const k of NUMBER_FIELDS) {
      const v = read(k);
      if (v === undefined) return { ok: false, error: 'missing_field', detail: k };
      if (typeof v !== 'number') return { ok: false, error: 'wrong_type', detail: `${k} must be a number, got ${v === null ? 'null' : typeof v}` };
      if (!Number.isFinite(v) || v < 0 || v > 1) return { ok: false, error: 'out_of_range', detail: `${k} = ${String(v)} is not in [0, 1]` };
      out[k] = v;
    }
    return {
      ok: true,
      judgment: {
        no_context_action: out.no_context_action as string,
        with_context_action: out.with_context_action as string,
        action_shift: out.action_shift as number,
        necessity: out.necessity as number,
        expected_outcome_uplift: out.expected_outcome_uplift as number,
        negative_transfer_risk: out.negative_transfer_risk as number,
        reason: out.reason as string,
        confidence: out.confidence as number,
      },
    };
  } catch (e) {
    // Proxies and accessors can throw while being inspected.
    return { ok: false, error: 'wrong_type', detail: `answer could not be inspected: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export function judgmentComponents(j: Judgment): UtilityComponents {
  return {
    action_shift: j.action_shift,
    necessity: j.necessity,
    expected_outcome_uplift: j.expected_outcome_uplift,
    negative_transfer_risk: j.negative_transfer_risk,
  };
}

/** The counterfactual prompt: task, candidate, and the schema to answer in. */
export function judgePrompt(task: CiclTask, unit: ContextUnit, maxUnitChars = 6000): string {
  const content = unit.content.length > maxUnitChars ? unit.content.slice(0, maxUnitChars) + '\n…(truncated)' : unit.content;
  return [
    'You judge whether one piece of context changes what a coding agent does next.',
    '',
    `TASK:\n${task.query}`,
    task.expectedAction ? `\nEXPECTED NEXT ACTION:\n${task.expectedAction}` : '',
    `\nCANDIDATE CONTEXT (${unit.type}, ${unit.source}):\n${content}`,
    '',
    'Compare the next action without this context and with it. Answer with one JSON object and nothing else:',
    '{"no_context_action": string, "with_context_action": string, "action_shift": 0..1, "necessity": 0..1,',
    ' "expected_outcome_uplift": 0..1, "negative_transfer_risk": 0..1, "reason": string, "confidence": 0..1}',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

export interface JudgeStats {
  calls: number;
  ok: number;
  /** Answers that came back but failed validation. */
  malformed: number;
  threw: number;
  timeouts: number;
  /** Count per error code. */
  byError: Partial<Record<JudgeErrorCode, number>>;
  /** First few failures, for the report (unit id, code, detail truncated to 200 chars). */
  examples: { unitId: string; error: JudgeErrorCode; detail: string }[];
}

export function emptyJudgeStats(): JudgeStats {
  return { calls: 0, ok: 0, malformed: 0, threw: 0, timeouts: 0, byError: {}, examples: [] };
}

export interface JudgeRunOptions extends ValidateOptions {
  /** Per-call timeout in ms. Default 30,000. */
  timeoutMs?: number;
  /** Judge calls in flight at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
}

export type JudgeOutcome = { unitId: string } & ValidationResult;

const TIMEOUT = Symbol('timeout');

/** Call the judge once with a timeout; every failure becomes a JudgeOutcome. */
export async function judgeOne(judge: JudgeFn, task: CiclTask, unit: ContextUnit, opts: JudgeRunOptions = {}): Promise<JudgeOutcome> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const call = (async () => judge({ prompt: judgePrompt(task, unit), task, unit, signal: ac.signal }))();
    call.catch(() => undefined); // a late rejection after a timeout must not go unhandled
    const late = new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), timeoutMs);
    });
    let answer: unknown;
    try {
      answer = await Promise.race([call, late]);
    } catch (e) {
      return { unitId: unit.id, ok: false, error: 'threw', detail: e instanceof Error ? e.message : String(e) };
    }
    if (answer === TIMEOUT) {
      ac.abort();
      return { unitId: unit.id, ok: false, error: 'timeout', detail: `no answer within ${timeoutMs} ms` };
    }
    return { unitId: unit.id, ...validateJudgment(answer, opts) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

export function recordOutcome(stats: JudgeStats, o: JudgeOutcome): void {
  stats.calls++;
  if (o.ok) {
    stats.ok++;
    return;
  }
  if (o.error === 'threw') stats.threw++;
  else if (o.error === 'timeout') stats.timeouts++;
  else stats.malformed++;
  stats.byError[o.error] = (stats.byError[o.error] ?? 0) + 1;
  if (stats.examples.length < 10) stats.examples.push({ unitId: o.unitId, error: o.error, detail: String(o.detail).slice(0, 200) });
}

/** Judge every unit (bounded concurrency); outcomes in input order, stats for the report. */
export async function judgeAll(
  judge: JudgeFn,
  task: CiclTask,
  units: readonly ContextUnit[],
  opts: JudgeRunOptions = {},
): Promise<{ outcomes: JudgeOutcome[]; stats: JudgeStats }> {
  const outcomes = new Array<JudgeOutcome>(units.length);
  const stats = emptyJudgeStats();
  let next = 0;
  const worker = async () => {
    while (next < units.length) {
      const i = next++;
      outcomes[i] = await judgeOne(judge, task, units[i], opts);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 4, units.length));
  await Promise.all(Array.from({ length: n }, worker));
  for (const o of outcomes) recordOutcome(stats, o);
  return { outcomes, stats };
}
