import { CtxpruneError } from '../../errors.js';
import { elidedRanges, formatRanges } from '../../integrations/focus.js';
import { prune } from '../../prune/pipeline.js';
import { resolveScorer } from '../../scorers/registry.js';
import { describeScorer } from '../../scorers/types.js';
import { boolFlag, closest, numberFlag, parseArgs, stringFlag } from '../args.js';
import { MAX_PRUNE_INPUT_BYTES, readBounded } from '../input.js';
import { decodeUtf8, invalidUtf8Note } from '../../text/utf8.js';
import { parseLanguageName } from '../../syntax/languages.js';
import { LANGUAGES } from '../../syntax/types.js';
import type { Command } from '../main.js';
import { ablationFromArgs, ABLATION_FLAGS, elisionFromArgs } from './shared.js';

export const command: Command = {
  summary: 'prune one file for a query under a token budget',
  usage: 'ctxprune prune FILE|- --query TEXT (--ratio R | --tokens N) [--language L] [--scorer lexical|neural|auto] [--elision bare|compact|verbose] [--json] [--no-repair|--no-dependency|--single-head|--no-gate]',
  async run(argv, io) {
    const args = parseArgs(argv, ['json', ...ABLATION_FLAGS], ['query', 'ratio', 'tokens', 'language', 'scorer', 'elision']);
    const file = args.positionals[0];
    if (!file) throw new CtxpruneError('INVALID_OPTION', `a FILE (or - for stdin) is required\nusage: ${this.usage}`);
    if (args.positionals.length > 1) throw new CtxpruneError('INVALID_OPTION', `one FILE at a time, got ${args.positionals.length}: ${args.positionals.join(' ')}\nusage: ${this.usage}`);
    const query = stringFlag(args, 'query');
    if (query === undefined) throw new CtxpruneError('INVALID_OPTION', `--query is required\nusage: ${this.usage}`);
    const ratio = numberFlag(args, 'ratio');
    const tokens = numberFlag(args, 'tokens');
    if (ratio !== undefined && tokens !== undefined) throw new CtxpruneError('INVALID_OPTION', '--ratio and --tokens are alternatives: give one');
    const language = stringFlag(args, 'language');
    if (language !== undefined && language !== 'auto' && !parseLanguageName(language)) {
      const hint = closest(language, LANGUAGES);
      throw new CtxpruneError('INVALID_OPTION', `unknown language "${language}"${hint ? ` (did you mean ${hint}?)` : ''}; known: ${LANGUAGES.join(', ')} (or auto)`);
    }
    // The trained model by default; `auto` falls back to the lexical scorer and says why.
    const scorer = await resolveScorer(stringFlag(args, 'scorer') ?? 'auto');
    // Invalid UTF-8 is read as U+FFFD, and the result says so (those lines differ from the file).
    const { text, replaced } = decodeUtf8(await readBounded(file, MAX_PRUNE_INPUT_BYTES));
    const result = await prune(text, {
      query,
      ratio,
      tokens,
      language,
      ...(file !== '-' ? { fileName: file } : {}),
      ablation: ablationFromArgs(args),
      elision: elisionFromArgs(args),
      scorer,
    });
    const utf8Note = invalidUtf8Note(replaced, file === '-' ? 'stdin' : file);
    if (utf8Note) result.stats.degraded.push(utf8Note);
    if (boolFlag(args, 'json')) {
      io.out(JSON.stringify(result));
    } else {
      io.out(result.text);
      const s = result.stats;
      io.err(
        `ctxprune: ${s.originalTokens} → ${s.outputTokens} tokens (budget ${s.budgetTokens}, ${s.achievedRatio.toFixed(2)}×), ` +
          `${s.keptLineCount}/${s.totalLines} lines, ${s.language ?? 'unknown language'}, scorer ${describeScorer(s)}, repair ${s.repair}, ${s.ms.toFixed(1)} ms` +
          // The markers in the text need not carry line numbers: the ranges are here, off the budget.
          (s.keptLineCount < s.totalLines ? `\nelided lines: ${formatRanges(elidedRanges(result.keptLines, s.totalLines), 40)}` : '') +
          (s.degraded.length ? `\nnote: ${s.degraded.join('; ')}` : ''),
      );
    }
    return 0;
  },
};
