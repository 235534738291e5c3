/** Transcript and option checks: bad input becomes a typed error before any work starts. */
import { CtxpruneError } from '../errors.js';
import { refuseUnknownOptions } from '../util/options.js';
import { COMPACTION_STRATEGIES, type CompactOptions, type CompactionStrategy, type Message } from './types.js';

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;

function fail(message: string): never {
  throw new CtxpruneError('INVALID_OPTION', message);
}

export function validateMessages(messages: unknown): asserts messages is Message[] {
  if (!Array.isArray(messages)) fail(`messages must be an array of {id, role, content}, got ${messages === null ? 'null' : typeof messages}`);
  const seen = new Set<string>();
  const calls = new Set<string>();
  messages.forEach((m: unknown, i) => {
    const at = `messages[${i}]`;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) fail(`${at} must be an object {id, role, content}`);
    const r = m as Record<string, unknown>;
    if (typeof r.id !== 'string' || r.id === '') fail(`${at}.id must be a non-empty string`);
    if (seen.has(r.id)) fail(`${at}.id "${r.id}" is used by an earlier message; ids must be unique`);
    seen.add(r.id);
    if (typeof r.role !== 'string' || !(ROLES as readonly string[]).includes(r.role)) {
      fail(`${at}.role must be one of ${ROLES.join(', ')} (got ${JSON.stringify(r.role)})`);
    }
    if (typeof r.content !== 'string') fail(`${at}.content must be a string (got ${r.content === null ? 'null' : typeof r.content})`);
    if (r.toolName !== undefined && typeof r.toolName !== 'string') fail(`${at}.toolName must be a string when present`);
    if (r.pinned !== undefined && typeof r.pinned !== 'boolean') fail(`${at}.pinned must be a boolean when present`);
    if (r.toolCallId !== undefined && (typeof r.toolCallId !== 'string' || r.role !== 'tool')) {
      fail(`${at}.toolCallId must be a string, on a tool message`);
    }
    if (r.toolCalls !== undefined) {
      if (!Array.isArray(r.toolCalls) || r.role !== 'assistant') fail(`${at}.toolCalls must be an array, on an assistant message`);
      (r.toolCalls as unknown[]).forEach((c, k) => {
        const cr = c as Record<string, unknown> | null;
        if (
          cr === null ||
          typeof cr !== 'object' ||
          typeof cr.id !== 'string' ||
          cr.id === '' ||
          typeof cr.name !== 'string' ||
          typeof cr.arguments !== 'string'
        ) {
          fail(`${at}.toolCalls[${k}] must be {id, name, arguments} (strings; arguments as JSON text)`);
        }
        if (calls.has(cr.id)) fail(`${at}.toolCalls[${k}].id "${String(cr.id)}" is used by an earlier call; call ids must be unique`);
        calls.add(cr.id);
      });
    }
  });
}

export function parseStrategy(s: unknown): CompactionStrategy {
  if (s === undefined) return 'reactive';
  if (typeof s !== 'string' || !(COMPACTION_STRATEGIES as readonly string[]).includes(s)) {
    fail(`unknown compaction strategy ${JSON.stringify(s)} (valid: ${COMPACTION_STRATEGIES.join(', ')})`);
  }
  return s as CompactionStrategy;
}

export interface ResolvedOptions {
  strategy: CompactionStrategy;
  budget: number;
  protectedTail: number;
  groupBy: 'role' | 'turn';
  turnWindow: number;
  lambda: number;
  temperature: number;
  levels: number[];
  similarity: 'shingles' | 'terms';
  mentionWeight: number;
}

/** A bad option value for a message: primitives as String() writes them, objects by kind (not `[object Object]`). */
function shown(v: unknown): string {
  switch (typeof v) {
    case 'object':
      return v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object';
    case 'function':
      return 'a function';
    default:
      return String(v);
  }
}

function nonNegInt(v: unknown, name: string, dflt: number, min = 0): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) fail(`${name} must be an integer ≥ ${min}, got ${shown(v)}`);
  return v;
}

function finite(v: unknown, name: string, dflt: number, positive: boolean): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || (positive ? v <= 0 : v < 0)) {
    fail(`${name} must be a ${positive ? 'positive' : 'non-negative'} finite number, got ${shown(v)}`);
  }
  return v;
}

/** Default weight of the files the transcript names in a message's relevance (types.ts mentionWeight). */
export const MENTION_WEIGHT = 0.3;

function unitInterval(v: unknown, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) fail(`${name} must be a number from 0 to 1, got ${shown(v)}`);
  return v;
}

/** Every option compact() reads (a Record, so that the compiler keeps it equal to CompactOptions). */
const OPTION_KEYS: Record<keyof CompactOptions, true> = {
  strategy: true,
  tokens: true,
  protectedTail: true,
  goal: true,
  summarizeGoal: true,
  relevance: true,
  hookTimeoutMs: true,
  scorer: true,
  documentScorer: true,
  mentionWeight: true,
  tokenCounter: true,
  preparations: true,
  groupBy: true,
  turnWindow: true,
  redundancyWeight: true,
  similarity: true,
  temperature: true,
  levels: true,
};

export function validateOptions(options: unknown): ResolvedOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) fail('options must be an object with at least { tokens }');
  const o = options as CompactOptions & Record<string, unknown>;
  refuseUnknownOptions(o, OPTION_KEYS);
  const strategy = parseStrategy(o.strategy);
  const t = o.tokens;
  if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) {
    throw new CtxpruneError('INVALID_BUDGET', `tokens must be a positive finite number, got ${String(t)}`);
  }
  if (o.groupBy !== undefined && o.groupBy !== 'role' && o.groupBy !== 'turn') fail(`groupBy must be "role" or "turn", got ${JSON.stringify(o.groupBy)}`);
  if (o.similarity !== undefined && o.similarity !== 'shingles' && o.similarity !== 'terms') {
    fail(`similarity must be "shingles" or "terms", got ${JSON.stringify(o.similarity)}`);
  }
  if (o.goal !== undefined && typeof o.goal !== 'string') fail(`goal must be a string, got ${typeof o.goal}`);
  if (o.levels !== undefined && (!Array.isArray(o.levels) || o.levels.some((f) => typeof f !== 'number' || !(f > 0 && f < 1)))) {
    fail(`levels must be an array of fractions between 0 and 1, got ${JSON.stringify(o.levels)}`);
  }
  for (const fn of ['summarizeGoal', 'relevance'] as const) {
    if (o[fn] !== undefined && typeof o[fn] !== 'function') fail(`${fn} must be a function when given`);
  }
  const ds = o.documentScorer;
  if (ds !== undefined && typeof ds !== 'string' && (ds === null || typeof ds !== 'object' || typeof (ds as { score?: unknown }).score !== 'function')) {
    fail('documentScorer must be a scorer name, "bm25" or an object with a score() method');
  }
  if (o.tokenCounter !== undefined && (o.tokenCounter === null || typeof o.tokenCounter.count !== 'function')) {
    fail('tokenCounter must have a count(text) method');
  }
  // By shape, not instanceof: a bundle may hold a second copy of this module.
  const prep = o.preparations as unknown;
  if (prep !== undefined && (prep === null || typeof prep !== 'object' || typeof (prep as { obtain?: unknown }).obtain !== 'function')) {
    fail('preparations must be a cache from createPreparationCache()');
  }
  return {
    strategy,
    budget: Math.floor(t),
    protectedTail: nonNegInt(o.protectedTail, 'protectedTail', 2),
    groupBy: o.groupBy ?? 'turn',
    turnWindow: nonNegInt(o.turnWindow, 'turnWindow', 1, 1),
    lambda: finite(o.redundancyWeight, 'redundancyWeight', 1, false),
    temperature: finite(o.temperature, 'temperature', 0.3, true),
    levels: [...(o.levels ?? [0.125, 0.25, 0.5])].sort((a, b) => a - b),
    similarity: o.similarity ?? 'shingles',
    mentionWeight: unitInterval(o.mentionWeight, 'mentionWeight', MENTION_WEIGHT),
  };
}
