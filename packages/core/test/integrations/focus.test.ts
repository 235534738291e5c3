import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describePrune, elidedRanges, withFocus } from '../../src/integrations/index.js';
import { loadDefaultTokenCounter } from '../../src/text/tokens.js';

const SOURCE = [
  'import time',
  '',
  'class Limiter:',
  '    def __init__(self, rate):',
  '        self.rate = rate',
  '        self.updated = time.monotonic()',
  '',
  '    def describe(self):',
  '        return f"Limiter({self.rate})"',
  '',
  '    def log(self, logger):',
  '        logger.info("rate=%s", self.rate)',
  '        logger.info("updated=%s", self.updated)',
  '',
  '',
  'def parse_retry_after(value):',
  '    """Seconds to wait from a Retry-After header."""',
  '    try:',
  '        seconds = float(value)',
  '    except ValueError:',
  '        seconds = 0',
  '    return max(0, seconds)',
  '',
  '',
  'def format_rate(rate):',
  '    return f"{rate:.2f}/s"',
  '',
].join('\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ctxprune-focus-'));
  await writeFile(join(dir, 'limiter.py'), SOURCE);
  await writeFile(join(dir, 'blob.py'), Buffer.from([0, 1, 2, 3, 0, 255, 0, 10, 65, 66]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('elidedRanges', () => {
  it('lists the runs of lines not kept', () => {
    expect(elidedRanges([1, 2, 5, 9], 10)).toEqual([
      [3, 4],
      [6, 8],
      [10, 10],
    ]);
    expect(elidedRanges([], 3)).toEqual([[1, 3]]);
    expect(elidedRanges([1, 2, 3], 3)).toEqual([]);
  });
});

describe('withFocus', { timeout: 30_000 }, () => {
  const seen: unknown[] = [];
  const read = withFocus(
    async (args: { path: string }) => {
      seen.push(args);
      return readFile(join(dir, args.path), 'utf8');
    },
    { ratio: 3 },
  );

  it('without focus the tool is untouched and never sees the extra fields', async () => {
    seen.length = 0;
    expect(await read({ path: 'limiter.py' })).toBe(SOURCE);
    expect(await read({ path: 'limiter.py', focus: '   ' })).toBe(SOURCE);
    expect(seen).toEqual([{ path: 'limiter.py' }, { path: 'limiter.py' }]);
  });

  it('with focus the output is pruned, headed by what was elided and how to read it', async () => {
    seen.length = 0;
    const out = await read({ path: 'limiter.py', focus: 'how is the Retry-After header parsed?' });
    expect(seen).toEqual([{ path: 'limiter.py' }]);
    const [header, ...body] = out.split('\n');
    expect(header).toMatch(
      /^\[ctxprune: kept \d+\/\d+ lines \(\d+ → \d+ tokens, scorer lexical\); elided \d+ lines: [\d, -]+; call again without focus to read them\]$/,
    );
    expect(body.join('\n')).toContain('def parse_retry_after(value):');
    expect(body.join('\n')).not.toContain('logger.info("updated=%s"');
  });

  it('markers are `# …` by default (the header has the ranges), with ranges when asked', async () => {
    const focus = 'how is the Retry-After header parsed?';
    const bare = await withFocus(async () => SOURCE, { ratio: 3, header: false, fileName: () => 'limiter.py' })({ focus });
    const ranged = await withFocus(async () => SOURCE, { ratio: 3, header: false, fileName: () => 'limiter.py', elision: 'compact' })({ focus });
    const markers = (t: string) =>
      t
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('# …'));
    expect(markers(bare).length).toBeGreaterThan(0);
    expect(new Set(markers(bare))).toEqual(new Set(['# …']));
    expect(markers(ranged).length).toBeGreaterThan(0);
    for (const m of markers(ranged)) expect(m).toMatch(/^# … lines? \d+(–\d+)?$/);
  });

  it('a per-call token budget is honoured', async () => {
    const counter = await loadDefaultTokenCounter();
    const plain = withFocus(async (a: { path: string }) => readFile(join(dir, a.path), 'utf8'), { header: false });
    const out = await plain({ path: 'limiter.py', focus: 'Retry-After', tokens: 40 });
    expect(counter.count(out)).toBeLessThanOrEqual(40);
    expect(out.length).toBeLessThan(SOURCE.length);
  });

  it('fails open: binary output comes back whole, with a one-line note', async () => {
    const out = await read({ path: 'blob.py', focus: 'anything' });
    const [note, ...rest] = out.split('\n');
    expect(note).toMatch(/^\[ctxprune: not pruned \(.+\); full output follows\]$/);
    expect(rest.join('\n')).toBe(await readFile(join(dir, 'blob.py'), 'utf8'));
    const silent = withFocus(async () => 'x\u0000y', { header: false });
    expect(await silent({ focus: 'q' })).toBe('x\u0000y');
  });

  it('fails open when the scorer promise rejects (lexical instead)', async () => {
    const w = withFocus(async () => SOURCE, { scorer: Promise.reject(new Error('no model')), fileName: () => 'limiter.py' });
    const out = await w({ focus: 'Retry-After' });
    expect(out).toMatch(/^\[ctxprune: kept/);
  });

  it('prunes a text field of an object result with getText / setText', async () => {
    const w = withFocus(async (a: { file: string }) => ({ file: a.file, content: SOURCE, ok: true }), {
      getText: (r) => (r as { content: string }).content,
      setText: (r, t) => ({ ...(r as object), content: t }),
    });
    const out = await w({ file: 'limiter.py', focus: 'format_rate' });
    expect(out.ok).toBe(true);
    expect(out.content).toContain('def format_rate(rate):');
    expect(out.content.length).toBeLessThan(SOURCE.length + 300);
  });

  it('runs the docs example: a Vercel AI SDK tool() whose execute is the wrapped read', async () => {
    // Same shape as `import { tool } from 'ai'`: tool() returns its definition; the agent calls execute(args, options).
    const tool = <T extends { description: string; inputSchema: z.ZodTypeAny; execute: (args: never, options: never) => Promise<unknown> }>(t: T): T => t;
    // --- README (Agent integrations) example (with `dir` for the project root) ---
    const readFileTool = tool({
      description: 'Read a file. Pass `focus` (what you need from it) to get only the lines that matter.',
      inputSchema: z.object({
        path: z.string(),
        focus: z.string().optional().describe('The question you are reading this file to answer'),
      }),
      execute: withFocus(async ({ path }: { path: string }) => readFile(join(dir, path), 'utf8'), { ratio: 2 }),
    });
    // --- end of the example ---
    const args = readFileTool.inputSchema.parse({ path: 'limiter.py', focus: 'Retry-After parsing' });
    const out = await readFileTool.execute(args, { toolCallId: 'call-1', messages: [] });
    expect(out).toMatch(/^\[ctxprune: kept/);
    expect(out).toContain('def parse_retry_after(value):');
    expect(await readFileTool.execute(readFileTool.inputSchema.parse({ path: 'limiter.py' }), { toolCallId: 'call-2', messages: [] })).toBe(SOURCE);
  });

  it('describePrune says when nothing was elided', async () => {
    const { prune } = await import('../../src/prune/pipeline.js');
    const r = await prune('x = 1\n', { query: 'x', tokens: 1000 });
    expect(describePrune(r, 'n/a')).toMatch(/nothing elided/);
  });
});
