/**
 * The ctxprune MCP server: read_pruned, search_pruned, locate_files, compact_history over a root
 * directory. Fail-open everywhere: a failure to prune returns the full content (bounded) with a
 * one-line note, never an error the agent must handle. The only refusals are paths outside the
 * root, files with more than one hard link, binary files (files.ts), and schema violations, which
 * the SDK reports.
 */
import { stat } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  compact,
  compactChat,
  COMPACTION_STRATEGIES,
  createPreparationCache,
  describeScorer,
  isCtxpruneError,
  prune,
  resolveScorer,
  type Message,
  type PruneOptions,
  type Scorer,
} from '@ctxprune/core';
import { packDirectory } from '@ctxprune/core/node';
import { describePrune, formatRanges, numberLines } from '@ctxprune/core/integrations';
import { binaryReason, hardLinkReason, readBounded } from './files.js';
import { registerOverflowTool } from './overflow.js';
import { registerPackTool } from './pack.js';
import { PathRefused, resolveInside } from './paths.js';
import { locateJob, type LocateJobOptions, type LocateJobResult } from './locate.js';
import { createCorePool, type PackJobOptions } from './pool.js';
import { searchJob, type SearchJobOptions, type SearchJobResult } from './search.js';
import { gaps, lineRange, numberRange, rangeHint, textLines } from './read.js';

export const SERVER_NAME = 'ctxprune';
export const SERVER_VERSION = '0.1.0';

export interface ServerLimits {
  /** Files larger than this are not pruned; their first bytes are returned (default 2 MiB). */
  maxFileBytes: number;
  /** Any text returned is cut to this many characters (default 200,000). */
  maxOutputChars: number;
  /** search_pruned: hits reported at most (default 100) and files with hits (default 20). */
  maxMatches: number;
  maxMatchFiles: number;
  /** search_pruned / locate_files: files read at most under the root (default 20,000). */
  maxFiles: number;
  /** compact_history: messages (default 2,000) and total characters (default 4,000,000). */
  maxMessages: number;
  maxHistoryChars: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxFileBytes: 2 << 20,
  maxOutputChars: 200_000,
  maxMatches: 100,
  maxMatchFiles: 20,
  maxFiles: 20_000,
  maxMessages: 2_000,
  maxHistoryChars: 4_000_000,
};

export interface CtxpruneServerOptions {
  /** The directory the tools may read under. */
  root: string;
  /** 'auto' (default: the neural model when it loads, else lexical, said in each header), 'neural' or 'lexical'. */
  scorer?: 'auto' | 'neural' | 'lexical';
  limits?: Partial<ServerLimits>;
  /**
   * Run prune, compact and pack in worker threads (pool.ts), so that no call keeps the server from
   * answering the next one. runStdioServer sets it; off by default (tests of the tools in-process).
   */
  isolate?: boolean;
  /** Where compact_history keeps the originals read_overflow returns (runStdioServer: core's defaultStateDir(process.env)). */
  stateDir: string;
}

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });
const oneLine = (e: unknown) =>
  (e instanceof Error ? `${(e as { code?: string }).code ? `${(e as { code?: string }).code}: ` : ''}${e.message}` : String(e)).split('\n')[0].slice(0, 240);

function bound(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}\n[ctxprune: output cut at ${max} characters of ${s.length}]`;
}

/** Control characters other than tab/newline shown as U+FFFD so binary bytes do not reach the agent raw. */
function printable(s: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\ufffd');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** A note for the header when the file is not valid UTF-8: its invalid bytes were read as U+FFFD (#16 item 12). */
function invalidUtf8Note(rel: string, buf: Uint8Array): string {
  try {
    strictUtf8.decode(buf);
    return '';
  } catch {
    return ` [ctxprune: ${rel} is not valid UTF-8: invalid bytes read as U+FFFD, so those lines differ from the file]`;
  }
}

export function createCtxpruneServer(options: CtxpruneServerOptions): McpServer {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const scorerName = options.scorer ?? 'auto';
  let rootPromise: Promise<string> | null = null;
  const root = () => (rootPromise ??= realpath(options.root));
  let scorerPromise: Promise<Scorer | 'lexical'> | null = null;
  const scorer = () =>
    (scorerPromise ??= scorerName === 'lexical' ? Promise.resolve('lexical' as const) : resolveScorer(scorerName).catch(() => 'lexical' as const));

  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'ctxprune prunes code for a focus question: read_pruned reads one file keeping the lines that matter ' +
        '(with original line numbers; elided line ranges are listed: read one with focus "" and startLine/endLine), ' +
        'search_pruned greps under the root and prunes the code around each hit, locate_files ranks the files ' +
        'likely to matter, compact_history shrinks an agent transcript to a token budget.',
    },
  );

  const overflow = registerOverflowTool(server, options.stateDir);

  /** Resolve a path under the root; a refusal is the one error result these tools return. */
  async function where(p: string): Promise<{ real: string; rel: string; refused?: undefined } | { refused: CallToolResult }> {
    try {
      return await resolveInside(await root(), p);
    } catch (e) {
      if (e instanceof PathRefused) return { refused: text(`[ctxprune: refused: ${e.message}]`, true) };
      const code = (e as { code?: string }).code;
      return { refused: text(`[ctxprune: ${code === 'ENOENT' ? `no such file or directory under the root: ${p}` : oneLine(e)}]`, true) };
    }
  }

  // With `isolate`, the heavy calls run in worker threads with their own scorer of the same name.
  const pool = options.isolate ? createCorePool({ scorer: scorerName }) : null;
  const runPrune = async (t: string, o: Omit<PruneOptions, 'scorer'>) => (pool ? pool.prune(t, o) : prune(t, { ...o, scorer: await scorer() }));
  // Tool outputs are cut by the server's scorer too (the model where it loads; the pool's workers use
  // their own), with the cuts' preparations kept across calls (each pool worker keeps its own).
  const preparations = createPreparationCache();
  const runCompact = async (m: Message[], o: Parameters<typeof compact>[1]) =>
    pool ? pool.compact(m, o) : compact(m, { ...o, scorer: await scorer(), preparations });
  const runPack = async (o: PackJobOptions) => (pool ? pool.pack(o) : packDirectory({ ...o, scorer: await scorer() }));
  const runLocate = (o: LocateJobOptions) => (pool ? pool.locate(o) : locateJob(o, scorer));
  const runSearch = (o: SearchJobOptions) => (pool ? pool.search(o) : searchJob(o));

  const budgetOf = (ratio?: number, tokens?: number): Pick<PruneOptions, 'ratio' | 'tokens'> => (tokens !== undefined ? { tokens } : { ratio: ratio ?? 4 });

  server.registerTool(
    'read_pruned',
    {
      title: 'Read a file pruned for a focus question',
      description:
        'Read a file under the root, keeping only the lines relevant to `focus` (plus the structure that makes ' +
        'them readable) within a token budget (`ratio`: keep 1/ratio of the tokens, default 4; or `tokens`). ' +
        'Each line is shown behind its original line number (`lineNumbers`, default true; the markers stand for elided lines). ' +
        'The first line says which line ranges were elided; read one with focus "" and `startLine`/`endLine` ' +
        '(focus "" without a range returns the whole file as it is). If pruning fails the full file is returned with a note.',
      inputSchema: {
        path: z.string().min(1).max(4096).describe('File path, relative to the root (or absolute inside it)'),
        focus: z.string().max(4000).describe('What you need from this file (a question or task). Empty = whole file.'),
        ratio: z.number().min(1).max(1000).optional().describe('Compression ratio ≥ 1 (default 4)'),
        tokens: z.number().int().min(1).max(1_000_000).optional().describe('Token budget (overrides ratio)'),
        language: z.string().max(40).optional().describe('Language id (python, typescript, go, …); default: from the file name'),
        startLine: z.number().int().min(1).optional().describe('First line to read (1-based; with endLine, read only that range, e.g. an elided one)'),
        endLine: z.number().int().min(1).optional().describe('Last line to read (1-based, inclusive)'),
        lineNumbers: z
          .boolean()
          .optional()
          .describe('Original line numbers in a gutter before each line (default true; a whole-file read without a range is verbatim unless true)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path, focus, ratio, tokens, language, startLine, endLine, lineNumbers }) => {
      const w = await where(path);
      if (w.refused) return w.refused;
      let raw = '';
      let note = '';
      try {
        const st = await stat(w.real);
        if (!st.isFile()) return text(`[ctxprune: ${w.rel} is not a file]`, true);
        const linked = hardLinkReason(w.rel, st);
        if (linked) return text(`[ctxprune: refused: ${linked}]`, true);
        const buf = await readBounded(w.real, st.size, limits.maxFileBytes);
        const binary = binaryReason(buf);
        if (binary) return text(`[ctxprune: ${w.rel} looks binary (${binary}): not shown]`, true);
        raw = buf.toString('utf8');
        if (st.size > limits.maxFileBytes) {
          note = `file is ${st.size} bytes, over the ${limits.maxFileBytes}-byte limit; first ${buf.length} bytes shown`;
          return text(bound(`[ctxprune: not pruned (${note})]\n${printable(raw)}`, limits.maxOutputChars));
        }
        const ranged = startLine !== undefined || endLine !== undefined;
        const numbered = lineNumbers ?? true;
        if (focus.trim() === '' && !ranged)
          return text(bound(lineNumbers ? numberRange(textLines(raw), 1, String(textLines(raw).length).length) : raw, limits.maxOutputChars));
        const range = ranged ? lineRange(raw, startLine, endLine) : null;
        if (ranged && !range) {
          return text(`[ctxprune: ${w.rel} has ${textLines(raw).length} lines; no line in startLine ${startLine ?? 1} … endLine ${endLine ?? 'end'}]`, true);
        }
        if (focus.trim() === '') {
          const g = range!;
          const body = numbered ? numberRange(g.lines, g.first, String(g.total).length) : g.lines.join('\n');
          return text(bound(`[ctxprune: ${w.rel} lines ${g.first}-${g.last} of ${g.total}]\n${body}`, limits.maxOutputChars));
        }
        // A range with a focus: prune that range alone (its line numbers stay the file's).
        const input = range ? range.lines.join('\n') + '\n' : raw;
        const offset = range ? range.first - 1 : 0;
        const r = await runPrune(input, {
          query: focus,
          ...budgetOf(ratio, tokens),
          fileName: w.rel,
          ...(language ? { language } : {}),
        });
        const elided = gaps(r.keptLines, r.stats.totalLines, offset);
        const hint = rangeHint(w.rel, elided[0]);
        let header = `${w.rel}: ${describePrune(r, hint)}`;
        if (range) {
          header =
            `${w.rel} lines ${range.first}-${range.last} of ${range.total}: ` +
            (elided.length
              ? `[ctxprune: kept ${r.stats.keptLineCount}/${r.stats.totalLines} lines (${r.stats.originalTokens} → ${r.stats.outputTokens} tokens, scorer ${describeScorer(r.stats)}); elided ${r.stats.totalLines - r.stats.keptLineCount} lines: ${formatRanges(elided)}; ${hint}]`
              : `[ctxprune: nothing elided; ${r.stats.totalLines} lines, ${r.stats.outputTokens} tokens]`);
        }
        header += invalidUtf8Note(w.rel, buf);
        const body = numbered ? numberLines(r.text, r.keptLines, r.stats.totalLines, offset) : r.text;
        return text(bound(`${header}\n${body}`, limits.maxOutputChars));
      } catch (e) {
        return text(bound(`[ctxprune: not pruned (${oneLine(e)}); full content follows]\n${printable(raw)}`, limits.maxOutputChars));
      }
    },
  );

  server.registerTool(
    'search_pruned',
    {
      title: 'Search files and prune the code around each hit',
      description:
        'Search files under the root (or under `path`) for `pattern` (a regular expression in RE2 syntax: no lookaround ' +
        'or backreferences; or a literal string when it does not compile as one), line by line. Each file with hits shows the code around the hits pruned ' +
        'for `focus` within `tokens` (default 2000 for all files), with original line numbers; hit lines are always shown.',
      inputSchema: {
        pattern: z.string().min(1).max(500).describe('Regex or literal, matched per line'),
        focus: z.string().max(4000).describe('What you are looking for (guides the pruning)'),
        path: z.string().max(4096).optional().describe('File or directory under the root to search (default: the root)'),
        tokens: z.number().int().min(50).max(200_000).optional().describe('Token budget for the pruned context of all hits (default 2000)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ pattern, focus, path, tokens }) => {
      const w = await where(path ?? '.');
      if (w.refused) return w.refused;
      const budget = tokens ?? 2000;
      // Reading and matching (seconds over a large tree) run in a pool worker with `isolate`.
      let found: SearchJobResult;
      try {
        found = await runSearch({
          real: w.real,
          rel: w.rel,
          pattern,
          maxFiles: limits.maxFiles,
          maxFileBytes: limits.maxFileBytes,
          maxMatches: limits.maxMatches,
          maxMatchFiles: limits.maxMatchFiles,
        });
      } catch (e) {
        return text(`[ctxprune: search failed (${oneLine(e)})]`);
      }
      const { count, truncated } = found;
      const hits = found.hits.map((h) => ({ ...h, lines: h.text.split('\n') }));
      const head = `[ctxprune: ${count} hit${count === 1 ? '' : 's'} for ${found.kind} ${JSON.stringify(pattern)}${found.why ? ` (${found.why})` : ''} in ${hits.length} file${hits.length === 1 ? '' : 's'} (${found.searched} searched)${truncated ? `; stopped at ${limits.maxMatches} hits / ${limits.maxMatchFiles} files, narrow the pattern or path` : ''}]`;
      if (!hits.length) return text(head);
      const perFile = Math.max(60, Math.floor(budget / hits.length));
      const out: string[] = [head];
      let scorerUsed = '';
      for (const h of hits) {
        // The file itself is the context; prune it to this file's share, then force the hit lines in.
        const numbered = (ls: number[]) => {
          const res: string[] = [];
          let prev = 0;
          for (const n of ls) {
            if (n > prev + 1) res.push(`     … lines ${prev + 1}-${n - 1} elided`);
            res.push(`${String(n).padStart(5)}${h.at.includes(n) ? '>' : ':'} ${printable(h.lines[n - 1])}`);
            prev = n;
          }
          if (prev < h.lines.length) res.push(`     … lines ${prev + 1}-${h.lines.length} elided`);
          return res;
        };
        let kept: number[];
        let note = '';
        try {
          const r = await runPrune(h.text, {
            query: `${focus}\n${pattern}`,
            tokens: perFile,
            fileName: h.path,
          });
          scorerUsed ||= describeScorer(r.stats);
          kept = [...new Set([...r.keptLines, ...h.at])].sort((a, b) => a - b);
        } catch (e) {
          // Fail-open: the hits with a few lines around them, unpruned.
          note = ` (not pruned: ${oneLine(e)})`;
          const s = new Set<number>();
          for (const a of h.at) for (let n = Math.max(1, a - 3); n <= Math.min(h.lines.length, a + 3); n++) s.add(n);
          kept = [...s].sort((a, b) => a - b);
        }
        out.push(
          `\n== ${h.path} (hits at lines ${formatRanges(
            h.at.map((a) => [a, a] as [number, number]),
            20,
          )})${note}`,
        );
        out.push(...numbered(kept));
      }
      if (scorerUsed) out[0] = out[0].replace(/]$/, `; scorer ${scorerUsed}; read elided lines with read_pruned]`);
      return text(bound(out.join('\n'), limits.maxOutputChars));
    },
  );

  server.registerTool(
    'locate_files',
    {
      title: 'Rank the files most likely to matter for a task',
      description:
        'Rank the source files under the root (or under `path`) by how likely they are to matter for `focus` ' +
        '(BM25 over identifiers, reranked with path, definition, mention and import signals). Returns the top `k` (default 10).',
      inputSchema: {
        focus: z.string().min(1).max(20_000).describe('The task or issue text'),
        path: z.string().max(4096).optional().describe('Directory under the root (default: the root)'),
        k: z.number().int().min(1).max(200).optional().describe('How many files (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ focus, path, k }) => {
      const w = await where(path ?? '.');
      if (w.refused) return w.refused;
      const top = k ?? 10;
      let r: LocateJobResult;
      try {
        r = await runLocate({ real: w.real, rel: w.rel, focus, maxFiles: limits.maxFiles, maxFileBytes: limits.maxFileBytes });
      } catch (e) {
        return text(`[ctxprune: cannot list files (${oneLine(e)})]`);
      }
      if (!r.paths.length) return text(`[ctxprune: no source files under ${w.rel}]`);
      if (!r.ranked) {
        // Fail-open: the file list, unranked.
        const list = r.paths.slice(0, top).map((p, i) => `${i + 1}. ${p}`);
        return text(`[ctxprune: not ranked (${oneLine(r.rankError)}); first ${list.length} files in path order]\n${list.join('\n')}`);
      }
      const sig = new Map(r.scores);
      const lines = r.ranked.slice(0, top).map((p, i) => `${i + 1}. ${p}${sig.has(p) ? `  (score ${sig.get(p)!.toFixed(3)})` : ''}`);
      return text(`[ctxprune: ${Math.min(top, r.ranked.length)} of ${r.paths.length} files, best first; document score: ${r.scorer}]\n${lines.join('\n')}`);
    },
  );

  // compact_history takes ctxprune's messages ({id, role, content, toolName?, pinned?, toolCalls?, toolCallId?}),
  // OpenAI chat-completions messages (content parts, tool_calls, role tool + tool_call_id) or Anthropic
  // messages (content blocks, tool_use / tool_result, the system prompt apart): core's compactChat reads the
  // shape and returns the same one; a malformed message is a typed error (isError, code INVALID_OPTION).
  const systemSchema = z.union([
    z.string().max(1_000_000),
    z.array(z.object({ type: z.literal('text'), text: z.string().max(1_000_000) }).passthrough()).max(100),
  ]);

  server.registerTool(
    'compact_history',
    {
      title: 'Compact an agent transcript to a token budget',
      description:
        'Fit `messages` into `tokens` (o200k_base) with a compaction strategy: reactive (oldest tool outputs first), ' +
        "task_aware, mig, task_aware_mig. `messages` may be ctxprune's ({id, role, content, toolName?, pinned?, toolCalls?, toolCallId?}), " +
        'OpenAI chat-completions messages (tool_calls / tool_call_id, content parts) or Anthropic messages (tool_use / tool_result ' +
        'blocks; pass the system prompt as `system`); they come back in the same shape, a call and its results kept, cut or ' +
        "evicted together. Returns the compacted messages as JSON plus what was kept, pruned and evicted (ids: ctxprune's, else " +
        'm<k> for the k-th message and m<k>.r<j> for its j-th block). Malformed messages are an error with a code; on any other ' +
        'failure the messages come back unchanged with a note.',
      inputSchema: {
        messages: z.array(z.object({}).passthrough()).min(1).max(limits.maxMessages),
        strategy: z.enum(COMPACTION_STRATEGIES),
        tokens: z.number().int().min(1).max(10_000_000),
        goal: z.string().max(4000).optional().describe('The task goal (task_aware strategies); default: the latest user turn'),
        system: systemSchema.optional().describe('A system prompt kept apart from the messages (Anthropic), compacted with them and returned in `system`'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ messages, strategy, tokens, goal, system }) => {
      const chars = JSON.stringify(messages).length + (system === undefined ? 0 : JSON.stringify(system).length);
      const unchanged = (why: string) =>
        text(
          bound(
            `[ctxprune: not compacted (${why}); messages unchanged]\n${JSON.stringify({ messages, ...(system !== undefined ? { system } : {}) }, null, 1)}`,
            limits.maxOutputChars,
          ),
        );
      if (chars > limits.maxHistoryChars) return unchanged(`${chars} characters, over the ${limits.maxHistoryChars} limit`);
      try {
        const c = await compactChat(messages, { strategy, tokens, ...(goal ? { goal } : {}), ...(system !== undefined ? { system } : {}) }, runCompact);
        const r = c.result;
        const saved = overflow.save(r.store);
        const head =
          `[ctxprune: ${strategy}, ${r.tokensBefore} → ${r.tokensAfter} tokens (budget ${r.budget}${r.overBudget ? ', over budget: the pinned messages alone exceed it' : ''}); ` +
          `kept ${r.kept.length}, pruned ${r.pruned.length}, evicted ${r.evicted.length}` +
          (r.dump.cutScorers.length ? `; cut by ${r.dump.cutScorers.join(', ')}` : '') +
          (saved.error ? `; originals NOT saved (${saved.error})]` : saved.keys.length ? `; originals: read_overflow KEY]` : ']');
        const body = {
          shape: c.shape,
          messages: c.messages,
          ...(c.system !== undefined ? { system: c.system } : {}),
          kept: r.kept,
          pruned: r.pruned,
          evicted: r.evicted,
          pinnedOverBudget: r.pinnedOverBudget,
          degraded: r.degraded,
        };
        return text(bound(`${head}\n${JSON.stringify(body, null, 1)}`, limits.maxOutputChars));
      } catch (e) {
        // Malformed input is the caller's to fix: a typed error. Anything else fails open.
        if (isCtxpruneError(e) && e.code === 'INVALID_OPTION') {
          return {
            content: [{ type: 'text', text: `[ctxprune: ${e.code}: ${e.message}]` }],
            structuredContent: { error: { code: e.code, message: e.message } },
            isError: true,
          };
        }
        return unchanged(oneLine(e));
      }
    },
  );

  registerPackTool(server, { where, pack: runPack, limits });

  return server;
}
