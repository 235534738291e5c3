/**
 * Public surface of the syntax layer: language detection, grammar loading, per-line structure.
 */
import { analyzeByIndent } from './fallback.js';
import { splitLines } from './lexical.js';
import { parse } from './loader.js';
import { analyzeTree } from './structure.js';
import type { FileStructure, LanguageId } from './types.js';

export * from './types.js';
export { detectLanguage, resolveLanguage, parseLanguageName, languageFromFileName, isLanguageId, grammarFileFor, lineCommentPrefix } from './languages.js';
export { loadParser, parse, initTreeSitter, grammarLocation, listGrammarAssets, resetGrammarCache, type LoadedGrammar, type GrammarAsset } from './loader.js';
export { analyzeTree } from './structure.js';
export { analyzeByIndent } from './fallback.js';
export { countErrors, errorRows, isValidTree } from './validity.js';
export { splitLines, stripCr, isBlankLine, isCloserLine } from './lexical.js';

export interface AnalyzeOptions {
  /** Above this many lines, use the indentation fallback instead of parsing (default: no limit). */
  maxParseLines?: number;
}

/**
 * Parse and analyze a file. `input` is the text or its lines (split on '\n'). With `lang` null
 * (unknown language) the indentation fallback is used.
 */
export async function analyze(input: string | string[], lang: LanguageId | null, options: AnalyzeOptions = {}): Promise<FileStructure> {
  const lines = typeof input === 'string' ? splitLines(input) : input;
  if (lang === null || (options.maxParseLines !== undefined && lines.length > options.maxParseLines)) {
    return analyzeByIndent(lines, lang);
  }
  const text = typeof input === 'string' ? input : input.join('\n');
  const tree = await parse(lang, text);
  try {
    return analyzeTree(tree, lang, lines.length, lines);
  } finally {
    tree.delete();
  }
}
