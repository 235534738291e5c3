/**
 * read_pruned's line numbers and line ranges (#21): the pure helpers, and the tool itself over
 * the SDK's in-memory transport (the stdio round trip is server.test.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { numberLines } from '@ctxprune/core/integrations';
import { gaps, lineRange, numberRange, textLines } from '../src/read.js';
import { startInMemoryServer, type McpTestServer } from './harness.js';

describe('read helpers', () => {
  it('counts lines as a reader does', () => {
    expect(textLines('a\nb\n')).toEqual(['a', 'b']);
    expect(textLines('a\nb')).toEqual(['a', 'b']);
    expect(textLines('a\n\n')).toEqual(['a', '']);
  });
  it('numbers a pruned text by its original lines; markers get an empty gutter', () => {
    expect(numberLines('a\n# …\nd\n# …', [1, 4], 12)).toBe(' 1\ta\n  \t# …\n 4\td\n  \t# …');
    expect(numberLines('# …\nc', [3], 3, 100)).toBe('   \t# …\n103\tc');
    // The file's final newline stays, unnumbered, after a kept line or a marker alike.
    expect(numberLines('a\n# …\n', [1], 3)).toBe('1\ta\n \t# …\n');
    expect(numberLines('# …\nc\n', [3], 3)).toBe(' \t# …\n3\tc\n');
  });
  it('reads a range clamped to the file, or none', () => {
    expect(lineRange('a\nb\nc\n', 2, 9)).toEqual({ first: 2, last: 3, total: 3, lines: ['b', 'c'] });
    expect(lineRange('a\nb\nc\n', undefined, 1)).toEqual({ first: 1, last: 1, total: 1 + 2, lines: ['a'] });
    expect(lineRange('a\nb\n', 3, 4)).toBeNull();
    expect(lineRange('a\nb\n', 2, 1)).toBeNull();
    expect(numberRange(['x', 'y'], 9, 2)).toBe(' 9\tx\n10\ty');
  });
  it('lists the gaps between kept lines, shifted', () => {
    expect(gaps([2, 3, 7], 9)).toEqual([
      [1, 1],
      [4, 6],
      [8, 9],
    ]);
    expect(gaps([1, 2], 2)).toEqual([]);
    expect(gaps([2], 3, 10)).toEqual([
      [11, 11],
      [13, 13],
    ]);
  });
});

const FILE = [
  'import time',
  '',
  '',
  ...Array.from({ length: 60 }, (_, i) => [`def helper_${i}(x):`, `    """Helper number ${i}."""`, `    return x * ${i} + ${i}`, ''].join('\n')),
  'def parse_retry_after(value):',
  '    """Seconds to wait from a Retry-After header."""',
  '    seconds = float(value)',
  '    return max(0.0, seconds)',
  '',
].join('\n');
const TOTAL = FILE.split('\n').length - 1; // ends with '\n'

let root: string;
let server: McpTestServer;
let client: Client;
const call = (args: Record<string, unknown>) => server.call('read_pruned', args);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-read-'));
  await writeFile(join(root, 'limiter.py'), FILE);
  server = await startInMemoryServer({ root, scorer: 'lexical' });
  client = server.client;
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('read_pruned arguments', { timeout: 60_000 }, () => {
  it('offers startLine, endLine and lineNumbers', async () => {
    const { tools } = await client.listTools();
    const read = tools.find((t) => t.name === 'read_pruned')!;
    expect(Object.keys(read.inputSchema.properties ?? {}).sort()).toEqual([
      'endLine',
      'focus',
      'language',
      'lineNumbers',
      'path',
      'ratio',
      'startLine',
      'tokens',
    ]);
  });

  it("numbers a pruned read and points at a range read, with the file's own line count", async () => {
    const r = await call({ path: 'limiter.py', focus: 'Retry-After parsing', ratio: 6 });
    // The file ends with a newline, so does the read (whether its last line is kept or elided).
    expect(r.text.endsWith('\n')).toBe(true);
    const [header, ...body] = r.text.slice(0, -1).split('\n');
    expect(header).toMatch(new RegExp(`^limiter\\.py: \\[ctxprune: kept \\d+/${TOTAL} lines`));
    expect(header).toMatch(/read an elided range with read_pruned \{"path": "limiter\.py", "focus": "", "startLine": \d+, "endLine": \d+\}/);
    expect(header).not.toContain(`-${TOTAL + 1}`);
    const lines = FILE.split('\n');
    for (const l of body) {
      const m = /^ *(\d*)\t(.*)$/.exec(l)!;
      expect(m).not.toBeNull();
      if (m[1]) expect(m[2]).toBe(lines[Number(m[1]) - 1]);
      else expect(m[2].trim()).toBe('# …');
    }
    expect(body.some((l) => /^\s*\d+\tdef parse_retry_after\(value\):$/.test(l))).toBe(true);
  });

  it('reads an elided range verbatim, numbered', async () => {
    const r = await call({ path: 'limiter.py', focus: '', startLine: 5, endLine: 7 });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(`[ctxprune: limiter.py lines 5-7 of ${TOTAL}]\n  5\t    """Helper number 0."""\n  6\t    return x * 0 + 0\n  7\t`);
    const plain = await call({ path: 'limiter.py', focus: '', startLine: TOTAL - 1, lineNumbers: false });
    expect(plain.text).toBe(`[ctxprune: limiter.py lines ${TOTAL - 1}-${TOTAL} of ${TOTAL}]\n    seconds = float(value)\n    return max(0.0, seconds)`);
  });

  it('prunes within a range, numbered by the file', async () => {
    const start = TOTAL - 40;
    const r = await call({ path: 'limiter.py', focus: 'Retry-After parsing', startLine: start, ratio: 4 });
    const [header, ...body] = r.text.replace(/\n$/, '').split('\n');
    expect(header).toMatch(new RegExp(`^limiter\\.py lines ${start}-${TOTAL} of ${TOTAL}: \\[ctxprune: kept \\d+/41 lines`));
    const nums = body
      .map((l) => /^ *(\d*)\t/.exec(l)![1])
      .filter(Boolean)
      .map(Number);
    expect(Math.min(...nums)).toBeGreaterThanOrEqual(start);
    expect(Math.max(...nums)).toBeLessThanOrEqual(TOTAL);
  });

  it('a whole-file read stays verbatim unless lineNumbers is asked for', async () => {
    expect((await call({ path: 'limiter.py', focus: '' })).text).toBe(FILE);
    const numbered = (await call({ path: 'limiter.py', focus: '', lineNumbers: true })).text.split('\n');
    expect(numbered.length).toBe(TOTAL);
    expect(numbered[0]).toBe('  1\timport time');
  });

  it('a range past the end is an error that says the line count', async () => {
    const r = await call({ path: 'limiter.py', focus: '', startLine: TOTAL + 1 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`has ${TOTAL} lines`);
  });
});
