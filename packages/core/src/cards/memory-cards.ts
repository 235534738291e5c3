/**
 * Decision-aware memory cards: five mandatory fields (trigger, evidence, action_hint,
 * failure_if_ignored, scope) each capped near 28 words, plus causal_score (the unit's utility),
 * confidence and the original / compressed token costs. Built deterministically from a unit and
 * its task; rendered as compact text for a prompt.
 */
import type { TokenCounter } from '../text/tokens.js';
import type { CiclTask, ContextUnit, UnitType } from './types.js';
import { termsOf } from '../text/identifiers.js';
import { capWords, termSet } from './text.js';

export const CARD_FIELDS = ['trigger', 'evidence', 'action_hint', 'failure_if_ignored', 'scope'] as const;
export type CardField = (typeof CARD_FIELDS)[number];
export const CARD_FIELD_WORDS = 28;

export interface MemoryCard {
  id: string;
  unitId: string;
  type: UnitType;
  /** What the card is about, as a person would title it: a symbol's name and first doc line, a note's title or first sentence. */
  title: string;
  trigger: string;
  evidence: string;
  action_hint: string;
  failure_if_ignored: string;
  scope: string;
  causal_score: number;
  confidence: number;
  original_tokens: number;
  compressed_tokens: number;
}

const HINT_VERB: Record<UnitType, string> = {
  file: 'Inspect',
  symbol: 'Inspect',
  class: 'Inspect',
  rule: 'Check',
  strategy: 'Use',
  trajectory: 'Compare',
  failure: 'Check',
  api: 'Call',
  memory: 'Use',
};

const FAILURE_TEXT: Record<UnitType, string> = {
  file: 'the change may land in the wrong file',
  symbol: 'the edit may miss the code that produces the behaviour',
  class: 'the edit may break the class contract or miss the method to change',
  rule: 'the action may violate a project rule',
  strategy: 'the agent may repeat a slower or failing approach',
  trajectory: 'the agent may repeat steps that did not work before',
  failure: 'the same failure is likely to recur',
  api: 'the call may use the wrong signature or arguments',
  memory: 'a lesson from earlier work is lost',
};

/** The line (or sentence) of the unit that shares most terms with the task; ties → earliest. */
export function evidenceLine(task: CiclTask, unit: ContextUnit): string {
  const q = termSet(task.query + ' ' + (task.expectedAction ?? ''));
  const pieces = unit.content
    .split(/\n|(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  let best = pieces[0] ?? '',
    bestScore = -1;
  for (const p of pieces) {
    let s = 0;
    for (const t of termSet(p)) if (q.has(t)) s++;
    if (s > bestScore) {
      bestScore = s;
      best = p;
    }
  }
  return best;
}

/**
 * The task's own words (as written: `url_for`, `BuildError`, `Invoice.total`) that the unit
 * shares, in the task's order: a trigger a person reads, not the stems the scorer matched.
 */
export function sharedTaskWords(task: CiclTask, unit: ContextUnit, n = 4): string[] {
  const u = termSet(unit.content + ' ' + (unit.title ?? ''));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of task.query.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?|\d{2,}/g) ?? []) {
    const terms = termsOf(w);
    // A word the chosen ones already say (`url` after `url_for`) adds nothing.
    if (!terms.some((t) => u.has(t)) || terms.every((t) => seen.has(t))) continue;
    for (const t of terms) seen.add(t);
    out.push(w);
    if (out.length >= n) break;
  }
  return out;
}

function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * The first line of a symbol's own documentation, or '': a docstring right after its header
 * (Python), or a doc comment (`/** … *\/`, `///`, `//`, `#`) on the lines before it. A comment
 * inside the body is not documentation.
 */
export function firstDocLine(content: string): string {
  const lines = content.split('\n').map((l) => l.trim());
  const strip = (s: string) =>
    s
      .replace(/("""|'''|\*\/)\s*$/, '')
      .replace(/^\*\s?/, '')
      .trim();
  // Leading comment lines (the span may start with them).
  const first = lines[0] ?? '';
  const js = /^\/\*\*?(.*)$/.exec(first);
  if (js) return strip(js[1]) || strip(lines[1] ?? '');
  const line = /^(?:\/\/\/?|#)\s*(\S.*)$/.exec(first);
  if (line && !/^#(include|define|\[|!)/.test(first)) return line[1].trim();
  // A docstring: the first statement after the header (the first line ending with ':' or '{').
  const head = lines.findIndex((l) => /[:{]\s*(#.*)?$/.test(l));
  if (head < 0 || head > 8) return '';
  const next = lines.slice(head + 1).find((l) => l !== '') ?? '';
  const py = /^[rRuUbB]?("""|''')(.*)$/.exec(next);
  if (py) return strip(py[2]) || strip(lines[lines.indexOf(next) + 1] ?? '');
  return '';
}

/** A unit's title as a person would write it. */
export function unitHeading(unit: ContextUnit): string {
  const clip = (s: string) => capWords(s, 10);
  if (unit.type === 'symbol' || unit.type === 'class') {
    const name = unit.title ?? unit.source;
    const doc = firstDocLine(unit.content);
    return doc ? `${name}: ${clip(doc)}` : name;
  }
  if (unit.type === 'file') return unit.title ?? unit.source;
  if (unit.title) return unit.title;
  const first = unit.content.trim().split(/\n|(?<=[.!?])\s+/)[0] ?? '';
  return clip(first) || unit.type;
}

/** Where the unit comes from, when that says more than its type (a memory's source is its type by default). */
function unitWhere(unit: ContextUnit): string {
  if (unit.span) return `${unit.source}:${unit.span.startLine}-${unit.span.endLine}`;
  return unit.source === unit.type ? '' : unit.source;
}

export interface CardInput {
  unit: ContextUnit;
  score: number;
  /** When the unit was judged: the with-context action becomes the hint. */
  withContextAction?: string;
  confidence?: number;
}

/** One card for one scored unit. Fields are capped at `maxWords` words. */
export function makeCard(task: CiclTask, input: CardInput, counter: TokenCounter, maxWords = CARD_FIELD_WORDS): MemoryCard {
  const { unit } = input;
  const name = unit.title ?? unit.source;
  const shared = sharedTaskWords(task, unit);
  const trigger = shared.length ? `When the task mentions ${joinWords(shared)}` : `When working on ${name}`;
  const hintBase = input.withContextAction?.trim()
    ? input.withContextAction.trim()
    : `${HINT_VERB[unit.type]} ${name}${unit.span ? ` lines ${unit.span.startLine}-${unit.span.endLine}` : ''} before acting`;
  const card: MemoryCard = {
    id: `card:${unit.id}`,
    unitId: unit.id,
    type: unit.type,
    title: capWords(unitHeading(unit), maxWords),
    trigger: capWords(trigger, maxWords),
    evidence: capWords(evidenceLine(task, unit), maxWords),
    action_hint: capWords(hintBase, maxWords),
    failure_if_ignored: capWords(`If ignored, ${FAILURE_TEXT[unit.type]}`, maxWords),
    scope: capWords(unitWhere(unit) || unit.source, maxWords),
    causal_score: input.score,
    confidence: input.confidence ?? unit.confidence,
    original_tokens: unit.tokens,
    compressed_tokens: 0,
  };
  card.compressed_tokens = counter.count(renderCard(card));
  return card;
}

/** Compact prompt text of one card (one header line + five short lines). */
export function renderCard(card: MemoryCard): string {
  return [
    `[${card.type}] ${card.title}${card.scope && card.scope !== card.title && card.scope !== card.type ? ` (${card.scope})` : ''}, score ${card.causal_score.toFixed(2)}`,
    `when: ${card.trigger}`,
    `evidence: ${card.evidence}`,
    `do: ${card.action_hint}`,
    `risk: ${card.failure_if_ignored}`,
  ].join('\n');
}

export function renderCards(cards: readonly MemoryCard[]): string {
  return cards.map(renderCard).join('\n\n');
}
