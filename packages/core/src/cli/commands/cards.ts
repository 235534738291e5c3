/** `ctxprune cards`: CICL context for a task from a repository and memories, as memory cards under a token budget. */
import { CtxpruneError } from '../../errors.js';
import { assembleContext, type CompressionMode, type Selector } from '../../cards/assemble.js';
import { buildContextGraph } from '../../cards/graph.js';
import { syntaxStructureProvider } from '../../cards/syntax-provider.js';
import { readTree } from '../../cards/tree-node.js';
import type { MemoryInput } from '../../cards/units.js';
import { UNIT_TYPES } from '../../cards/types.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import { readBoundedText } from '../input.js';
import type { Command } from '../main.js';

const usage =
  'ctxprune cards --task TEXT|--task-file F --tokens N [--repo DIR] [--memories M.jsonl] [--rules R.txt] ' +
  '[--mode post-selection|pre-budget|raw] [--selector reference|mig] [--max-units N] [--syntax] [--json]';

/** Task, memories and rules files, read up to 64 MiB each (then INPUT_TOO_LARGE). */
function read(path: string): Promise<string> {
  return readBoundedText(path, 64 << 20);
}

const MEMORY_TYPES = UNIT_TYPES.filter((t) => t !== 'file' && t !== 'symbol' && t !== 'class');

function parseMemories(text: string, path: string): MemoryInput[] {
  const out: MemoryInput[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new CtxpruneError('INVALID_OPTION', `${path} line ${i + 1} is not JSON`);
    }
    if (!o || typeof o !== 'object' || typeof o.content !== 'string')
      throw new CtxpruneError('INVALID_OPTION', `${path} line ${i + 1}: "content" must be a string`);
    if (o.type !== undefined && !(MEMORY_TYPES as readonly unknown[]).includes(o.type)) {
      throw new CtxpruneError('INVALID_OPTION', `${path} line ${i + 1}: "type" must be one of ${MEMORY_TYPES.join(', ')}`);
    }
    const strs = (k: string) => (Array.isArray(o[k]) ? (o[k] as unknown[]).filter((x): x is string => typeof x === 'string') : undefined);
    out.push({
      content: o.content,
      ...(typeof o.id === 'string' ? { id: o.id } : {}),
      ...(o.type !== undefined ? { type: o.type as MemoryInput['type'] } : {}),
      ...(typeof o.title === 'string' ? { title: o.title } : {}),
      ...(typeof o.source === 'string' ? { source: o.source } : {}),
      ...(typeof o.confidence === 'number' ? { confidence: o.confidence } : {}),
      ...(typeof o.stale === 'boolean' ? { stale: o.stale } : {}),
      ...(strs('about') ? { about: strs('about') } : {}),
      ...(strs('conflictsWith') ? { conflictsWith: strs('conflictsWith') } : {}),
      ...(strs('requires') ? { requires: strs('requires') } : {}),
    });
  });
  return out;
}

export const command: Command = {
  summary: 'decision-aware context (CICL) for a task: memory cards under a token budget, with the card audit',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, ['json', 'syntax'], ['task', 'task-file', 'tokens', 'repo', 'memories', 'rules', 'mode', 'selector', 'max-units']);
    const taskFile = stringFlag(args, 'task-file');
    const query = stringFlag(args, 'task') ?? (taskFile ? await read(taskFile) : undefined);
    if (!query || !query.trim()) throw new CtxpruneError('INVALID_OPTION', `--task or --task-file is required\nusage: ${usage}`);
    const tokens = numberFlag(args, 'tokens');
    if (tokens === undefined || !(tokens >= 0)) throw new CtxpruneError('INVALID_BUDGET', `--tokens N (≥ 0) is required\nusage: ${usage}`);
    const mode = (stringFlag(args, 'mode') ?? 'post-selection') as CompressionMode;
    if (!['post-selection', 'pre-budget', 'raw'].includes(mode)) throw new CtxpruneError('INVALID_OPTION', `--mode must be post-selection, pre-budget or raw`);
    const selector = (stringFlag(args, 'selector') ?? 'reference') as Selector;
    if (!['reference', 'mig'].includes(selector)) throw new CtxpruneError('INVALID_OPTION', `--selector must be reference or mig`);
    const maxUnits = numberFlag(args, 'max-units');
    if (maxUnits !== undefined && !(Number.isInteger(maxUnits) && maxUnits >= 1)) {
      throw new CtxpruneError('INVALID_OPTION', `--max-units must be a whole number ≥ 1 (default: one per 60 tokens of budget, at least 5)`);
    }
    const repo = stringFlag(args, 'repo');
    const memPath = stringFlag(args, 'memories');
    const rulesPath = stringFlag(args, 'rules');
    const graph = await buildContextGraph({
      files: repo ? await readTree(repo) : new Map(),
      memories: memPath ? parseMemories(await read(memPath), memPath) : [],
      rules: rulesPath
        ? (await read(rulesPath))
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
        : [],
      ...(boolFlag(args, 'syntax') ? { analyze: syntaxStructureProvider() } : {}),
    });
    const r = await assembleContext({ query }, graph, { budget: tokens, mode, selector, ...(maxUnits !== undefined ? { maxUnits } : {}) });
    if (boolFlag(args, 'json')) {
      io.out(
        JSON.stringify(
          {
            tokens: r.tokens,
            budget: r.budget,
            mode: r.mode,
            selector: r.selector,
            cards: r.cards,
            audit: { ...r.audit, perCard: undefined },
            items: r.items.map((i) => ({ id: i.unit.id, type: i.unit.type, score: i.score, tokens: i.tokens, card: !!i.card })),
            candidates: r.candidates.slice(0, 30).map((c) => ({ id: c.unit.id, score: c.score, retrieval: c.retrieval, via: c.via, ...c.components })),
            decisions: r.decisions,
          },
          null,
          2,
        ),
      );
      return 0;
    }
    io.out(r.text || '(nothing selected)');
    io.out(
      `\n-- ${r.items.length} units, ${r.tokens}/${r.budget} tokens, ${r.mode}/${r.selector}; audit ${r.audit.verdict}${r.audit.reasons.length ? ` (${r.audit.reasons.join('; ')})` : ''}`,
    );
    return 0;
  },
};
