/**
 * The syntax a prune reads: the language (asked for, or detected), the file's structure from its
 * parse (or from indentation when it cannot be parsed), each fallback said in `degraded`; and the
 * parse errors of an output, which fitVerified checks.
 */
import { degradation, type Degradation } from '../degradations.js';
import { CtxpruneError } from '../errors.js';
import { analyzeByIndent, analyzeTree, errorRows, parse, resolveLanguage } from '../syntax/index.js';
import { analyzeTreeAsync } from '../syntax/structure.js';
import type { FileStructure, LanguageId } from '../syntax/types.js';
import { bracketFormat, bracketNesting } from '../text/brackets.js';
import type { Checkpoint } from './checkpoint.js';
import type { PruneOptions } from './types.js';

/** Above these sizes the parse is skipped and structure comes from indentation. */
const MAX_PARSE_CHARS = 2 * 1024 * 1024;
const MAX_MEAN_LINE_CHARS = 1000;

export interface SyntaxInfo {
  structure: FileStructure;
  language: LanguageId | null;
  parsed: boolean;
  /** A data or style file without a grammar whose bracket nesting is known (text/brackets.ts): repaired so that its brackets close. */
  brackets?: boolean;
}

export async function resolveSyntax(text: string, lines: string[], opts: PruneOptions, degraded: Degradation[], cp?: Checkpoint): Promise<SyntaxInfo> {
  let language: LanguageId | null = null;
  const requested = opts.language;
  if (requested && requested !== 'auto') {
    language = resolveLanguage(text, opts);
    if (!language) degraded.push(degradation('UNKNOWN_LANGUAGE', `unknown language "${requested}": pruned line by line without syntax repair`));
  } else {
    language = resolveLanguage(text, opts);
    const format = language ? null : bracketFormat(opts.fileName);
    const nesting = format ? bracketNesting(lines, format) : null;
    if (nesting) {
      degraded.push(degradation('NO_GRAMMAR', `no grammar for ${format}: pruned line by line, keeping its brackets balanced`));
      return { structure: { ...analyzeByIndent(lines, null), ...nesting }, language: null, parsed: false, brackets: true };
    }
    if (!language) degraded.push(degradation('LANGUAGE_NOT_DETECTED', 'language not detected: pruned line by line without syntax repair'));
  }
  if (!language) return { structure: analyzeByIndent(lines, null), language: null, parsed: false };
  if (text.length > MAX_PARSE_CHARS || text.length / lines.length > MAX_MEAN_LINE_CHARS) {
    degraded.push(degradation('TOO_LARGE_TO_PARSE', 'input too large or minified to parse: structure from indentation, no syntax repair'));
    return { structure: analyzeByIndent(lines, language), language, parsed: false };
  }
  try {
    const tree = await parse(language, text, cp?.pause);
    try {
      const structure = cp ? await analyzeTreeAsync(tree, language, lines.length, lines, cp.pause) : analyzeTree(tree, language, lines.length, lines);
      return { structure, language, parsed: true };
    } finally {
      tree.delete();
    }
  } catch (e) {
    if (e instanceof CtxpruneError && e.code === 'ABORTED') throw e;
    const why = e instanceof Error ? e.message : String(e);
    degraded.push(degradation('SYNTAX_UNAVAILABLE', `syntax unavailable for ${language} (${why}): structure from indentation, no syntax repair`));
    return { structure: analyzeByIndent(lines, language), language, parsed: false };
  }
}

export async function outputErrorRows(language: LanguageId, text: string, pause?: () => Promise<void>): Promise<number[]> {
  const tree = await parse(language, text, pause);
  try {
    return errorRows(tree);
  } finally {
    tree.delete();
  }
}
