/**
 * The focus-question wrapper (SWE-Pruner's `context_focus_question`): wrap any read-file-like
 * async tool of an agent framework so that an optional `focus` argument prunes its output to the
 * lines that matter for that question. Without `focus` the tool is untouched. Fail-open: when
 * pruning fails (binary output, no grammar, a model that does not load, anything) the tool's own
 * output is returned, with a one-line note when `note` is on.
 *
 * Pure TypeScript, no framework dependency: the wrapped function takes and returns what the
 * original does, plus `focus` (and optional per-call budget fields) in its argument object.
 */
import { prune } from '../prune/pipeline.js';
import type { PruneOptions, PruneResult } from '../prune/types.js';
import { describeScorer, type Scorer } from '../scorers/types.js';
import { outputOrigin, type ElisionStyle } from '../text/elision.js';
import type { TokenCounter } from '../text/tokens.js';

/** Per-call fields the wrapped tool accepts next to the original arguments. */
export interface FocusArgs {
  /** The focus question: what the agent needs from this file. Absent or blank = no pruning. */
  focus?: string;
  /** Per-call budget: compression ratio ≥ 1 (overrides the wrapper's). */
  ratio?: number;
  /** Per-call budget: absolute tokens (overrides ratio). */
  tokens?: number;
}

export interface WithFocusOptions<A> {
  /** Default compression ratio (default 4; ignored when `tokens` is set). */
  ratio?: number;
  /** Default absolute token budget. */
  tokens?: number;
  /** Outputs at or under this many characters are returned whole (default 0: always prune). */
  minChars?: number;
  /**
   * Scorer: an instance, 'lexical' (default), or a promise of one (e.g. `resolveScorer('auto')`, the
   * neural model with a lexical fallback; resolved once, on first use).
   */
  scorer?: Scorer | 'lexical' | Promise<Scorer>;
  tokenCounter?: TokenCounter;
  /**
   * Marker style in the pruned text (default 'bare', `# …`: the header lists the elided ranges);
   * 'compact' puts each range in its marker, at about 6 tokens of the budget per marker.
   */
  elision?: ElisionStyle;
  /** File name for language detection, from the call's arguments (default: args.path / file / filePath / fileName). */
  fileName?: (args: A) => string | undefined;
  /** Language id, when the file name does not tell. */
  language?: (args: A) => string | undefined;
  /**
   * Prepend a one-line header: what was kept, the elided line ranges and how to read them (call
   * again without `focus`); and a note on fail-open. Default true.
   */
  header?: boolean;
  /** Extract the text from the tool's result (default: the result itself when it is a string). */
  getText?: (result: unknown) => string | null;
  /** Put pruned text back into the tool's result shape (default: the text itself). */
  setText?: (result: unknown, text: string) => unknown;
  /** Called with the full prune result (telemetry, tests). */
  onPrune?: (info: { args: A; result: PruneResult | null; error: unknown }) => void;
}

/** `[[from, to], ...]` 1-based inclusive runs of lines NOT in `kept`, for a file of `total` lines. */
export function elidedRanges(kept: readonly number[], total: number): [number, number][] {
  const out: [number, number][] = [];
  const set = new Set(kept);
  let start = 0;
  for (let i = 1; i <= total + 1; i++) {
    const gone = i <= total && !set.has(i);
    if (gone && start === 0) start = i;
    else if (!gone && start !== 0) {
      out.push([start, i - 1]);
      start = 0;
    }
  }
  return out;
}

export function formatRanges(ranges: readonly [number, number][], max = 12): string {
  const parts = ranges.slice(0, max).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  if (ranges.length > max) parts.push(`… (${ranges.length - max} more)`);
  return parts.join(', ');
}

/**
 * A pruned text with each line behind its original line number, `cat -n` style: the number
 * right-aligned to the widest one (`totalLines + offset`), then a tab; a marker gets an empty
 * gutter. `keptLines` are 1-based in [1, totalLines]; `offset` is added to each (a range read).
 * The text's final newline, if any, stays and is not numbered. What `ctxprune prune
 * --line-numbers`, `ctxprune pack --line-numbers` and MCP read_pruned print.
 */
export function numberLines(text: string, keptLines: readonly number[], totalLines: number, offset = 0): string {
  if (text === '') return '';
  const final = text.endsWith('\n');
  const out = (final ? text.slice(0, -1) : text).split('\n');
  const origin = outputOrigin(keptLines, totalLines);
  const width = String(totalLines + offset).length;
  const blank = ' '.repeat(width);
  const numbered = out.map((line, i) => `${i < origin.length && origin[i] >= 0 ? String(origin[i] + 1 + offset).padStart(width) : blank}\t${line}`);
  return numbered.join('\n') + (final ? '\n' : '');
}

/** The header of a pruned read: what was elided and how to read the rest. */
export function describePrune(r: PruneResult, readHint: string): string {
  const ranges = elidedRanges(r.keptLines, r.stats.totalLines);
  const elided = r.stats.totalLines - r.stats.keptLineCount;
  if (elided === 0) return `[ctxprune: nothing elided; ${r.stats.totalLines} lines, ${r.stats.outputTokens} tokens]`;
  return (
    `[ctxprune: kept ${r.stats.keptLineCount}/${r.stats.totalLines} lines (${r.stats.originalTokens} → ${r.stats.outputTokens} tokens, scorer ${describeScorer(r.stats)}); ` +
    `elided ${elided} lines: ${formatRanges(ranges)}; ${readHint}]`
  );
}

const pickFileName = (args: unknown): string | undefined => {
  if (!args || typeof args !== 'object') return undefined;
  const a = args as Record<string, unknown>;
  for (const k of ['path', 'file', 'filePath', 'fileName', 'filename']) if (typeof a[k] === 'string') return a[k];
  return undefined;
};

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200);

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument --
   A tool's extra arguments (an SDK's call options) pass through untouched, whatever their types:
   `any[]` accepts every read function and lets callers pass them even when `readTool` ignores
   them (a `Rest` parameter inferred from `readTool` would refuse the SDK's second argument). */
/**
 * Wrap `readTool` so that `{ ...args, focus }` returns the output pruned for `focus`.
 *
 *     const read = withFocus(async ({ path }: { path: string }) => fs.readFile(path, 'utf8'), { ratio: 4 });
 *     await read({ path: 'src/limiter.py', focus: 'where is Retry-After parsed?' });
 */
export function withFocus<A extends object, R>(
  readTool: (args: A, ...rest: any[]) => Promise<R> | R,
  options: WithFocusOptions<A> = {},
): (args: A & FocusArgs, ...rest: any[]) => Promise<R> {
  const header = options.header ?? true;
  const getText = options.getText ?? ((r: unknown) => (typeof r === 'string' ? r : null));
  const setText = options.setText ?? ((_r: unknown, t: string) => t);
  let scorer: Promise<Scorer | 'lexical'> | null = null;
  const getScorer = () => (scorer ??= Promise.resolve(options.scorer ?? 'lexical').catch(() => 'lexical' as const));

  return async (args: A & FocusArgs, ...rest: any[]): Promise<R> => {
    const { focus, ratio, tokens, ...orig } = args ?? {};
    // The original tool never sees our fields (strict schemas would reject them).
    const result = await readTool(orig as A, ...rest);
    if (typeof focus !== 'string' || focus.trim() === '') return result;
    const text = getText(result);
    if (text === null || text.length <= (options.minChars ?? 0)) return result;
    try {
      const opts: PruneOptions = { query: focus, scorer: await getScorer() };
      const t = tokens ?? options.tokens;
      const r0 = ratio ?? options.ratio;
      if (t !== undefined) opts.tokens = t;
      else opts.ratio = r0 ?? 4;
      const fileName = (options.fileName ?? pickFileName)(orig as A);
      if (fileName) opts.fileName = fileName;
      const language = options.language?.(orig as A);
      if (language) opts.language = language;
      if (options.tokenCounter) opts.tokenCounter = options.tokenCounter;
      if (options.elision) opts.elision = options.elision;
      const pr = await prune(text, opts);
      options.onPrune?.({ args: orig as A, result: pr, error: null });
      const out = header ? `${describePrune(pr, 'call again without focus to read them')}\n${pr.text}` : pr.text;
      return setText(result, out) as R;
    } catch (e) {
      options.onPrune?.({ args: orig as A, result: null, error: e });
      if (!header) return result;
      return setText(result, `[ctxprune: not pruned (${errText(e)}); full output follows]\n${text}`) as R;
    }
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */
