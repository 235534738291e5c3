/** `ctxprune compact`: fit an agent transcript into a token budget with one of the strategies. */
import { CtxpruneError } from '../../errors.js';
import { compactChat } from '../../compaction/chat.js';
import { DiskOverflowStore } from '../../compaction/disk-store.js';
import { COMPACTION_STRATEGIES } from '../../compaction/types.js';
import { parseStrategy } from '../../compaction/validate.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import { readBoundedText } from '../input.js';
import { oneShotBackend, oneShotEngineFlags, optimizedWhileScoring } from '../one-shot.js';
import { runtimeConfig } from '../../runtime/config.js';
import { resolveScorer } from '../../scorers/registry.js';
import type { Command } from '../main.js';

/** A transcript file is read up to this size (then INPUT_TOO_LARGE). */
const MAX_TRANSCRIPT_BYTES = 256 << 20;

const usage = `ctxprune compact --in TRANSCRIPT.json|- --strategy ${COMPACTION_STRATEGIES.join('|')} --tokens N [--protected-tail N] [--scorer lexical|neural|auto] [--store DIR] [--json]`;

export const command: Command = {
  summary:
    'compact an agent transcript (a messages array, or {"id"?,"goal"?,"messages":[...]}; in ctxprune\'s, OpenAI\'s or Anthropic\'s message shape) to a token budget',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, ['json'], ['in', 'strategy', 'tokens', 'protected-tail', 'scorer', 'store']);
    const inPath = stringFlag(args, 'in') ?? args.positionals[0];
    if (!inPath) throw new CtxpruneError('INVALID_OPTION', `--in TRANSCRIPT.json is required\nusage: ${usage}`);
    const strategy = parseStrategy(stringFlag(args, 'strategy') ?? 'reactive');
    const tokens = numberFlag(args, 'tokens');
    if (tokens === undefined) throw new CtxpruneError('INVALID_BUDGET', `--tokens N is required\nusage: ${usage}`);
    const protectedTail = numberFlag(args, 'protected-tail');
    const raw = await readBoundedText(inPath, MAX_TRANSCRIPT_BYTES);
    let transcript: unknown;
    try {
      transcript = JSON.parse(raw);
    } catch (e) {
      throw new CtxpruneError('INVALID_OPTION', `${inPath} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (transcript === null || typeof transcript !== 'object') {
      throw new CtxpruneError('INVALID_OPTION', `${inPath} must hold the messages: an array, or an object {"id"?, "goal"?, "messages": [...]}`);
    }
    // A harness's own messages array (OpenAI, Anthropic or ctxprune shape) as it is, or wrapped with a goal.
    const t = (Array.isArray(transcript) ? { messages: transcript } : transcript) as { id?: unknown; goal?: unknown; messages?: unknown };
    if (t.goal !== undefined && typeof t.goal !== 'string') throw new CtxpruneError('INVALID_OPTION', `"goal" in ${inPath} must be a string`);
    // The cuts by the trained model by default, as `ctxprune prune`; `auto` falls back to the lexical scorer and says why (dump.cutScorers).
    const scorer = stringFlag(args, 'scorer') ?? 'auto';
    // A process of its own (bin/ctxprune.js) starts as `prune` does: a short transcript scored on
    // the js executor (no onnxruntime start-up), V8 set for a short process (one-shot.ts).
    // Its lines: the newlines its JSON escapes (every message shape holds its text in strings).
    oneShotBackend(raw.split('\\n').length);
    const noOpt = oneShotEngineFlags(raw.length);
    // A scorer that does not resolve here is passed by name: compact() says why in its degradations.
    const loaded = noOpt && scorer !== 'lexical' && runtimeConfig.backend === 'js' ? await resolveScorer(scorer).catch(() => null) : null;
    const cutWith = loaded ? optimizedWhileScoring(loaded) : scorer;
    const c = await compactChat(t.messages as unknown[], {
      strategy,
      tokens,
      ...(protectedTail !== undefined ? { protectedTail } : {}),
      ...(typeof t.goal === 'string' ? { goal: t.goal } : {}),
      scorer: cutWith,
    });
    const r = c.result;
    // --store DIR: the originals of every placeholder, for `ctxprune overflow KEY --store DIR`.
    const dir = stringFlag(args, 'store');
    const stored = dir ? { dir, keys: new DiskOverflowStore({ dir }).save(r.store) } : null;
    if (boolFlag(args, 'json')) {
      io.out(
        JSON.stringify(
          {
            kept: r.kept,
            pruned: r.pruned,
            evicted: r.evicted,
            messages: c.messages,
            dump: r.dump,
            ...(c.shape !== 'ctxprune' ? { shape: c.shape } : {}),
            ...(stored ? { store: stored } : {}),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    const id = typeof t.id === 'string' ? t.id : inPath;
    io.out(`${id}: ${strategy}, ${r.tokensBefore} → ${r.tokensAfter} tokens (budget ${r.budget}${r.overBudget ? ', OVER BUDGET' : ''})`);
    if (r.dump.goal !== null) io.out(`goal (${r.dump.goalSource}): ${r.dump.goal.length > 160 ? r.dump.goal.slice(0, 157) + '...' : r.dump.goal}`);
    io.out(`kept ${r.kept.length}: ${r.kept.join(', ') || '-'}`);
    io.out(`pruned ${r.pruned.length}: ${r.pruned.join(', ') || '-'}`);
    io.out(`evicted ${r.evicted.length}: ${r.evicted.join(', ') || '-'}`);
    if (r.dump.cutScorers.length) io.out(`cut by: ${r.dump.cutScorers.join(', ')}`);
    for (const d of r.degraded) io.out(`note: ${d.message}`);
    if (stored) io.out(`stored ${stored.keys.length} original(s) in ${stored.dir}: ctxprune overflow KEY --store ${stored.dir}`);
    return 0;
  },
};
