import { CtxpruneError } from '../../errors.js';
import { elidedRanges, formatRanges, numberLines } from '../../integrations/focus.js';
import { prune } from '../../prune/pipeline.js';
import { availableScorers, resolveScorer } from '../../scorers/registry.js';
import { loadParser } from '../../syntax/loader.js';
import { loadDefaultTokenCounter } from '../../text/tokens.js';
import { describeScorer } from '../../scorers/types.js';
import { type Backend, configureRuntime, runtimeConfig } from '../../runtime/config.js';
import { lineCount, oneShotBackend, oneShotEngineFlags, optimizedWhileScoring } from '../one-shot.js';
import { boolFlag, closest, numberFlag, parseArgs, stringFlag } from '../args.js';
import { MAX_PRUNE_INPUT_BYTES, readBounded } from '../input.js';
import { decodeUtf8, invalidUtf8Note } from '../../text/utf8.js';
import { describeDegradations } from '../../degradations.js';
import { detectLanguage, parseLanguageName } from '../../syntax/languages.js';
import { LANGUAGES } from '../../syntax/types.js';
import type { Command } from '../main.js';
import { ablationFromArgs, ABLATION_FLAGS, elisionFromArgs } from './shared.js';

/** Start-up stages of one `ctxprune prune` process, in ms (`--timings`; in `--json` as `startup`). */
export interface StartupTimings {
  /** From the process's start to the command: node itself and the CLI's modules. */
  node: number;
  read: number;
  /** When each load finished, from the end of the read (they run side by side). */
  scorer: number;
  tokenizer: number;
  grammar: number;
  /** All loads (the slowest of the three). */
  loads: number;
  prune: number;
  /** Process start to result. */
  total: number;
}

const round = (x: number) => Math.round(x * 10) / 10;

const BACKENDS: readonly Backend[] = ['auto', 'webgpu', 'wasm', 'js'];

function parseBackend(v: string): Backend {
  if ((BACKENDS as readonly string[]).includes(v)) return v as Backend;
  throw new CtxpruneError('INVALID_OPTION', `unknown backend "${v}" (${BACKENDS.join(', ')})`);
}

export const command: Command = {
  summary: 'prune one file for a query under a token budget',
  usage:
    'ctxprune prune FILE|- --query TEXT (--ratio R | --tokens N) [--language L] [--scorer lexical|neural|auto] [--backend js|wasm|auto] [--elision bare|indented|compact|verbose] [--line-numbers] [--json] [--timings] [--no-repair|--no-dependency|--single-head|--no-gate]',
  async run(argv, io) {
    const args = parseArgs(
      argv,
      ['json', 'timings', 'line-numbers', ...ABLATION_FLAGS],
      ['query', 'ratio', 'tokens', 'language', 'scorer', 'elision', 'backend'],
    );
    const file = args.positionals[0];
    if (!file) throw new CtxpruneError('INVALID_OPTION', `a FILE (or - for stdin) is required\nusage: ${this.usage}`);
    if (args.positionals.length > 1)
      throw new CtxpruneError('INVALID_OPTION', `one FILE at a time, got ${args.positionals.length}: ${args.positionals.join(' ')}\nusage: ${this.usage}`);
    const query = stringFlag(args, 'query');
    if (query === undefined) throw new CtxpruneError('INVALID_OPTION', `--query is required\nusage: ${this.usage}`);
    const ratio = numberFlag(args, 'ratio');
    const tokens = numberFlag(args, 'tokens');
    if (ratio !== undefined && tokens !== undefined) throw new CtxpruneError('INVALID_OPTION', '--ratio and --tokens are alternatives: give one');
    const language = stringFlag(args, 'language');
    if (language !== undefined && language !== 'auto' && !parseLanguageName(language)) {
      const hint = closest(language, LANGUAGES);
      throw new CtxpruneError(
        'INVALID_OPTION',
        `unknown language "${language}"${hint ? ` (did you mean ${hint}?)` : ''}; known: ${LANGUAGES.join(', ')} (or auto)`,
      );
    }
    // The trained model by default; `auto` falls back to the lexical scorer and says why.
    const scorerName = stringFlag(args, 'scorer') ?? 'auto';
    if (!availableScorers().includes(scorerName)) await resolveScorer(scorerName); // the INVALID_OPTION, before any I/O
    const backendFlag = stringFlag(args, 'backend');
    const backend = backendFlag === undefined ? undefined : parseBackend(backendFlag);
    const timings = boolFlag(args, 'timings');
    const t0 = performance.now(); // ms since the process started: node itself and the CLI's modules
    // Invalid UTF-8 is read as U+FFFD, and the result says so (those lines differ from the file).
    const { text, replaced } = decodeUtf8(await readBounded(file, MAX_PRUNE_INPUT_BYTES));
    const tRead = performance.now();
    if (backend !== undefined) configureRuntime({ backend });
    else oneShotBackend(lineCount(text));
    const noOpt = oneShotEngineFlags(text.length);
    // Everything this file needs loads at once: the scorer (and ORT, for the model), the tokenizer,
    // and the file's grammar only. Each stage's time is when its load finished.
    const lang = language !== undefined && language !== 'auto' ? parseLanguageName(language) : detectLanguage(file !== '-' ? file : undefined, text);
    const since = <T>(p: Promise<T>): Promise<[T, number]> => p.then((v) => [v, performance.now() - tRead]);
    const [[scorer, scorerMs], [tokenCounter, tokenizerMs], [, grammarMs]] = await Promise.all([
      since(resolveScorer(scorerName)),
      since(loadDefaultTokenCounter()),
      since(lang ? loadParser(lang).catch(() => null) : Promise.resolve(null)), // a failure degrades inside prune()
    ]);
    const tLoaded = performance.now();
    const result = await prune(text, {
      query,
      ratio,
      tokens,
      language,
      ...(file !== '-' ? { fileName: file } : {}),
      ablation: ablationFromArgs(args),
      elision: elisionFromArgs(args),
      scorer: noOpt && scorerName !== 'lexical' && runtimeConfig.backend === 'js' ? optimizedWhileScoring(scorer) : scorer,
      tokenCounter,
    });
    const startup: StartupTimings = {
      node: round(t0),
      read: round(tRead - t0),
      scorer: round(scorerMs),
      tokenizer: round(tokenizerMs),
      grammar: round(grammarMs),
      loads: round(tLoaded - tRead),
      prune: round(performance.now() - tLoaded),
      total: 0,
    };
    startup.total = round(performance.now());
    const utf8Note = invalidUtf8Note(replaced, file === '-' ? 'stdin' : file);
    if (utf8Note) result.stats.degraded.push(utf8Note);
    // Original line numbers in a `cat -n` gutter, as `pack --line-numbers` and MCP read_pruned
    // (outside the budget: stats count the pruned text itself).
    if (boolFlag(args, 'line-numbers')) result.text = numberLines(result.text, result.keptLines, result.stats.totalLines);
    if (boolFlag(args, 'json')) {
      io.out(JSON.stringify(timings ? { ...result, startup } : result));
    } else {
      // The text as it is: it ends with a newline exactly when the file does (`--ratio 1` prints
      // the file byte for byte).
      (io.raw ?? io.out)(result.text);
      // A file without a final newline leaves the terminal's cursor after its last line.
      const glued = result.text !== '' && !result.text.endsWith('\n') && process.stdout.isTTY === true;
      const s = result.stats;
      io.err(
        (glued ? '\n' : '') +
          `ctxprune: ${s.originalTokens} → ${s.outputTokens} tokens (budget ${s.budgetTokens}, ${s.achievedRatio.toFixed(2)}×), ` +
          `${s.keptLineCount}/${s.totalLines} lines, ${s.language ?? 'unknown language'}, scorer ${describeScorer(s)}, repair ${s.repair}, ${s.ms.toFixed(1)} ms` +
          // The markers in the text need not carry line numbers: the ranges are here, off the budget.
          (s.keptLineCount < s.totalLines ? `\nelided lines: ${formatRanges(elidedRanges(result.keptLines, s.totalLines), 40)}` : '') +
          (s.degraded.length ? `\nnote: ${describeDegradations(s.degraded)}` : ''),
      );
    }
    if (timings) {
      io.err(
        `timings (ms): node and modules ${startup.node}, read ${startup.read}, loads in parallel ${startup.loads} ` +
          `(scorer ${startup.scorer}, tokenizer ${startup.tokenizer}, grammar ${startup.grammar}), prune ${startup.prune}, total ${startup.total}`,
      );
    }
    return 0;
  },
};
