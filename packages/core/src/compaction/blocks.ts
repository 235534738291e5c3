/**
 * Units of compaction. A tool output is cut into blocks of about `blockLines` lines, ending at a
 * blank line when one is near, so a block tends to be a paragraph or a definition; any other
 * message is one block. Rendering a partly kept message puts one marker per gap.
 */
import { splitLines } from '../text/lines.js';
import type { Message } from './types.js';

export interface Block {
  id: string;
  messageIndex: number;
  /** 0-based start line, exclusive end line within the message. */
  start: number;
  end: number;
  text: string;
}

export function splitBlocks(message: Message, messageIndex: number, blockLines: number): Block[] {
  const lines = splitLines(message.content);
  const mk = (n: number, start: number, end: number): Block => ({
    id: `${message.id}#${n}`,
    messageIndex,
    start,
    end,
    text: lines.slice(start, end).join('\n'),
  });
  if (message.role !== 'tool' || lines.length <= blockLines + Math.ceil(blockLines / 2)) return [mk(0, 0, lines.length)];
  const blocks: Block[] = [];
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const len = i - start + 1;
    const blank = lines[i].trim() === '';
    const nextBlank = i + 1 < lines.length && lines[i + 1].trim() === '';
    // Close at a blank line once long enough, or hard at 1.5× the target.
    if ((len >= blockLines && (blank || nextBlank)) || len >= Math.ceil(blockLines * 1.5)) {
      blocks.push(mk(blocks.length, start, i + 1));
      start = i + 1;
    }
  }
  if (start < lines.length) {
    const tail = lines.length - start;
    // A short tail joins the previous block.
    if (blocks.length && tail < Math.ceil(blockLines / 3)) {
      const prev = blocks.pop()!;
      blocks.push(mk(blocks.length, prev.start, lines.length));
    } else blocks.push(mk(blocks.length, start, lines.length));
  }
  return blocks;
}

export function evictedPlaceholder(message: Message, key: string): string {
  const what = message.role === 'tool' ? 'tool output' : `${message.role} message`;
  return `[${what} pruned; use read_overflow ${key} to retrieve]`;
}

export function gapMarker(lines: number, key: string): string {
  return `[${lines} line${lines === 1 ? '' : 's'} pruned; use read_overflow ${key} to retrieve]`;
}

/** The message content with only the kept blocks, gaps replaced by markers. */
export function renderPartial(message: Message, blocks: Block[], keep: ReadonlySet<string>, key: string): string {
  const lines = splitLines(message.content);
  const out: string[] = [];
  let gap = 0;
  for (const b of blocks) {
    if (keep.has(b.id)) {
      if (gap) { out.push(gapMarker(gap, key)); gap = 0; }
      for (let i = b.start; i < b.end; i++) out.push(lines[i]);
    } else gap += b.end - b.start;
  }
  if (gap) out.push(gapMarker(gap, key));
  return out.join('\n');
}
