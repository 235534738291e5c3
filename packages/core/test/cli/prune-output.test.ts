/**
 * What `ctxprune prune` prints (#21): the pruned text as it is, ending with a newline exactly when
 * the file does (the playground's default sample at 8× ends with a marker: it used to end without
 * one, so a terminal printed the summary on the marker's line), and `--line-numbers` in the
 * `cat -n` gutter of `pack --line-numbers` and MCP read_pruned.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { numberLines } from '../../src/integrations/focus.js';
import type { PruneResult } from '../../src/prune/types.js';

const FETCHER = join(import.meta.dirname, '../../../../apps/playground/src/samples/fetcher.py');
const QUERY = 'Retry-After sent as an HTTP date is ignored, so we retry a 429 too soon';

/** stdout exactly as written (raw), and stderr. */
function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (s: string) => out.push(s.endsWith('\n') ? s : s + '\n'), raw: (s: string) => out.push(s), err: (s: string) => err.push(s) };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function run(argv: string[]) {
  const c = capture();
  expect(await main(argv, c.io), argv.join(' ')).toBe(0);
  return c;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ctxprune-prune-output-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ctxprune prune output', { timeout: 120_000 }, () => {
  it('ends with a newline when the file does, also when its last line is elided', async () => {
    const source = await readFile(FETCHER, 'utf8');
    expect(source.endsWith('\n')).toBe(true);
    for (const scorer of ['lexical', 'auto']) {
      // At 10× neither scorer keeps the file's last line (`raise FetchError(…)`, which the model keeps at 8×).
      const c = await run(['prune', FETCHER, '--query', QUERY, '--ratio', '10', '--scorer', scorer]);
      const out = c.stdout();
      const lines = out.split('\n');
      // The file's last line is elided: the text ends with its marker, then the file's newline, once.
      expect(lines.at(-2)!.trim(), scorer).toBe('# …');
      expect(lines.at(-1), scorer).toBe('');
      expect(c.stderr()).toMatch(/^ctxprune: \d+ → \d+ tokens/);
    }
  });

  it('prints the file byte for byte when everything fits, with or without a final newline', async () => {
    const source = await readFile(FETCHER, 'utf8');
    for (const [name, text] of [
      ['with.py', source],
      ['without.py', source.slice(0, -1)],
    ]) {
      await writeFile(join(dir, name), text);
      expect((await run(['prune', join(dir, name), '--query', QUERY, '--ratio', '1', '--scorer', 'lexical'])).stdout(), name).toBe(text);
    }
    // Pruned, a file without a final newline gives a text without one.
    const pruned = (await run(['prune', join(dir, 'without.py'), '--query', QUERY, '--ratio', '8', '--scorer', 'lexical'])).stdout();
    expect(pruned.endsWith('\n')).toBe(false);
    expect(pruned.split('\n').at(-1)!.trim()).toBe('# …');
  });

  it('--line-numbers: each kept line behind its original number, markers with an empty gutter', async () => {
    const source = (await readFile(FETCHER, 'utf8')).split('\n');
    const argv = ['prune', FETCHER, '--query', QUERY, '--ratio', '4', '--scorer', 'lexical'];
    const json = JSON.parse((await run([...argv, '--json'])).stdout()) as PruneResult;
    const numbered = (await run([...argv, '--line-numbers'])).stdout();
    // The same gutter as MCP read_pruned and pack --line-numbers (one function), final newline kept.
    expect(numbered).toBe(numberLines(json.text, json.keptLines, json.stats.totalLines));
    expect(numbered.endsWith('\n')).toBe(true);
    const rows = numbered.slice(0, -1).split('\n');
    const width = String(json.stats.totalLines).length;
    const seen: number[] = [];
    for (const row of rows) {
      const m = /^( *)(\d*)\t(.*)$/.exec(row)!;
      expect(m, row).not.toBeNull();
      expect(m[1].length + m[2].length).toBe(width);
      if (m[2]) {
        expect(m[3]).toBe(source[Number(m[2]) - 1]);
        seen.push(Number(m[2]));
      } else expect(m[3].trim()).toBe('# …');
    }
    expect(seen).toEqual(json.keptLines);
    // With --json the text is numbered the same way.
    const both = JSON.parse((await run([...argv, '--json', '--line-numbers'])).stdout()) as PruneResult;
    expect(both.text).toBe(numbered);
  });
});
