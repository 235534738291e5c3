import type { Message } from '../../src/compaction/types.js';

/** A read of 60 one-line definitions (300 words): at a quarter of itself, one of its cuts. */
export const readOf = (name: string): string => Array.from({ length: 60 }, (_, i) => `def ${name}_${i}(value): return ${name}(value, ${i})`).join('\n');

/** A goal, two reads (the first the goal's) and a reply: what the cut-reuse tests compact. */
export const TWO_READS: Message[] = [
  { id: 'u', role: 'user', content: 'fix parse_header for empty values' },
  { id: 't1', role: 'tool', toolName: 'read_file', content: readOf('parse_header') },
  { id: 't2', role: 'tool', toolName: 'read_file', content: readOf('render_page') },
  { id: 'a', role: 'assistant', content: 'Looking.' },
];
