/**
 * The syntax layer as a StructureProvider for units.ts: tree-sitter structure when the file's
 * language is known and its grammar loads, the indentation fallback otherwise. Failures fall
 * back silently (fileUnits then uses its lexical splitter).
 */
import { analyze, detectLanguage } from '../syntax/index.js';
import type { StructureProvider } from './units.js';

export interface SyntaxProviderOptions {
  /** Files longer than this use the indentation fallback (default 20,000 lines). */
  maxParseLines?: number;
}

export function syntaxStructureProvider(opts: SyntaxProviderOptions = {}): StructureProvider {
  return async (path, content) => analyze(content, detectLanguage(path, content), { maxParseLines: opts.maxParseLines ?? 20_000 });
}
