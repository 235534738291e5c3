/**
 * The pruning goal (SWE-Pruner): one sentence from the caller's LLM, or the latest user message
 * when there is no callback or it fails. A goal given outright wins over both.
 */
import { degradation, type CompactionDegradation } from '../degradations.js';
import { hookTimeout, withTimeout } from './hooks.js';
import { GOAL_PROMPT, type CompactOptions, type Message } from './types.js';

export interface ResolvedGoal {
  goal: string;
  source: 'option' | 'callback' | 'latest_user';
  degraded: CompactionDegradation[];
}

export function latestUserIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}

/** The prompt for the goal callback: the instruction, then the latest user turn and what follows it. */
export function goalPrompt(messages: readonly Message[], maxChars = 6000): string {
  const u = latestUserIndex(messages);
  const recent = messages.slice(Math.max(0, u)).filter((m) => m.role !== 'system');
  const parts: string[] = [];
  let left = maxChars;
  for (const m of recent) {
    const body = m.content.length > 1500 ? m.content.slice(0, 1500) + ' …' : m.content;
    const line = `${m.role}${m.toolName ? ` (${m.toolName})` : ''}: ${body}`;
    if (line.length > left) break;
    parts.push(line);
    left -= line.length;
  }
  return `${GOAL_PROMPT}\n\nConversation (most recent part):\n${parts.join('\n\n')}`;
}

export async function resolveGoal(messages: readonly Message[], options: CompactOptions): Promise<ResolvedGoal> {
  const degraded: CompactionDegradation[] = [];
  const limit = hookTimeout(options.hookTimeoutMs);
  if (options.goal !== undefined && options.goal.trim() !== '') return { goal: options.goal.trim(), source: 'option', degraded };
  const u = latestUserIndex(messages);
  const fallback = u >= 0 ? messages[u].content : '';
  if (options.summarizeGoal) {
    try {
      const g = await withTimeout(options.summarizeGoal({ prompt: goalPrompt(messages), messages, maxTokens: 50 }), limit, 'goal callback');
      if (typeof g === 'string' && g.trim() !== '') return { goal: g.trim(), source: 'callback', degraded };
      degraded.push(degradation('GOAL_CALLBACK_EMPTY', 'goal callback returned no text: scored against the latest user message'));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      degraded.push(degradation('GOAL_CALLBACK_FAILED', `goal callback failed (${why}): scored against the latest user message`));
    }
  }
  if (fallback.trim() === '') degraded.push(degradation('NO_GOAL', 'no goal and no user message: relevance is flat, recency breaks ties'));
  return { goal: fallback, source: 'latest_user', degraded };
}
