/** The placeholder an evicted message leaves: it names the store key of the original. */
import type { Message } from './types.js';

export function evictedPlaceholder(message: Message, key: string): string {
  const what = message.role === 'tool' ? 'tool output' : `${message.role} message`;
  return `[${what} pruned; use read_overflow ${key} to retrieve]`;
}
