/**
 * Bytes read from a file or a request become text here: UTF-8, every invalid sequence replaced
 * by U+FFFD as the WHATWG decoder does, a leading BOM kept (a kept first line stays byte for
 * byte), and how many replacements were made, so a read path can say so in stats.degraded.
 */
import { degradation, type Degradation } from '../degradations.js';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

export interface DecodedText {
  text: string;
  /** U+FFFD characters that stand for invalid bytes (not those the input spelled as EF BF BD). */
  replaced: number;
}

export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strict.decode(bytes), replaced: 0 };
  } catch {
    const text = lenient.decode(bytes);
    let inText = 0;
    for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) inText++;
    let spelled = 0;
    for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) spelled++;
    return { text, replaced: Math.max(1, inText - spelled) };
  }
}

/** The stats.degraded note (an INVALID_UTF8 degradation) for a decoded input with replacements (null when none). */
export function invalidUtf8Note(replaced: number, what = 'input'): Degradation | null {
  if (replaced <= 0) return null;
  return degradation(
    'INVALID_UTF8',
    `${what} is not valid UTF-8: ${replaced} invalid byte sequence${replaced === 1 ? '' : 's'} read as U+FFFD (those lines are not byte-identical to the file)`,
  );
}
