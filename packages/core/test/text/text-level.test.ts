/** #16 item 12, text-level parts: CR-only line endings, invalid UTF-8, a marker's indent. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { prune } from '../../src/prune/pipeline.js';
import { MAX_MARKER_INDENT, outputOrigin } from '../../src/text/elision.js';
import { decodeUtf8, invalidUtf8Note } from '../../src/text/utf8.js';

const PY_LINES = [
  'import os',
  '',
  'def read(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  'def size(path):',
  '    """The size of a file in bytes."""',
  '    return os.path.getsize(path)',
  '',
  'def exists(path):',
  '    return os.path.exists(path)',
];

/** Every kept line is in the output verbatim, where outputOrigin puts it. */
function expectVerbatim(outLines: string[], lines: string[], keptLines: number[]): void {
  const origin = outputOrigin(keptLines, lines.length);
  for (let i = 1; i < keptLines.length; i++) expect(keptLines[i]).toBeGreaterThan(keptLines[i - 1]);
  for (let i = 0; i < origin.length; i++) if (origin[i] >= 0) expect(outLines[i]).toBe(lines[origin[i]]);
}

describe('CR-only line endings', () => {
  for (const scorer of ['lexical', 'neural'] as const) {
    it(`are read as lines and written back as CRs (${scorer})`, async () => {
      const text = PY_LINES.join('\r') + '\r';
      const r = await prune(text, { query: 'file size in bytes', ratio: 2, scorer, language: 'python' });
      expect(r.stats.totalLines).toBe(PY_LINES.length);
      expect(r.keptLines.length).toBeGreaterThan(0);
      expect(r.keptLines.length).toBeLessThan(PY_LINES.length);
      expect(r.text).not.toContain('\n');
      expectVerbatim(r.text.split('\r'), PY_LINES, r.keptLines);
      expect(r.keptLines).toContain(7); // def size(path):
      expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    }, 60_000);
  }
  it('a CR-only file that fits the budget comes back unchanged', async () => {
    const text = PY_LINES.join('\r');
    const r = await prune(text, { query: 'size', ratio: 1, scorer: 'lexical' });
    expect(r.text).toBe(text);
    expect(r.keptLines).toEqual(PY_LINES.map((_, i) => i + 1));
  }, 60_000);
  it('mixed endings: a lone CR inside a CRLF or LF file stays inside its line, byte for byte', async () => {
    const lines = PY_LINES.map((l, i) => (i % 3 === 0 ? l + '\r' : i === 7 ? l + '\rtail' : l));
    const r = await prune(lines.join('\n'), { query: 'file size in bytes', ratio: 2, scorer: 'lexical', language: 'python' });
    expect(r.stats.totalLines).toBe(lines.length);
    expectVerbatim(r.text.split('\n'), lines, r.keptLines);
  }, 60_000);
});

describe('a marker never copies a huge indent', () => {
  it('200,000 spaces of indent: the marker holds at most 80 columns of it', async () => {
    const lines = ['def f(x):', ' '.repeat(200_000) + 'y = x + 1', '    return compute(x)', '', 'def size(path):', '    return os.path.getsize(path)'];
    const r = await prune(lines.join('\n'), { query: 'file size', tokens: 40, scorer: 'lexical', language: 'python' });
    expect(r.keptLines).not.toContain(2);
    for (const l of r.text.split('\n')) expect(l.length).toBeLessThanOrEqual(MAX_MARKER_INDENT + 40);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(40);
  }, 60_000);
});

describe('invalid UTF-8 read as U+FFFD is counted for a note', () => {
  it('valid text, a BOM and a spelled U+FFFD are no replacements', () => {
    const enc = new TextEncoder();
    expect(decodeUtf8(enc.encode('héllo\n'))).toEqual({ text: 'héllo\n', replaced: 0 });
    const bom = decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]));
    expect(bom).toEqual({ text: '\ufeffa', replaced: 0 });
    expect(decodeUtf8(enc.encode('a\ufffdb')).replaced).toBe(0);
    expect(invalidUtf8Note(0)).toBeNull();
  });
  it('invalid sequences are replaced and counted', () => {
    const bytes = Uint8Array.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0xef, 0xbf, 0xbd, 0x0a]);
    const d = decodeUtf8(bytes);
    expect(d.text).toBe('a\ufffdb\ufffd(\ufffd\n');
    expect(d.replaced).toBe(2);
    expect(invalidUtf8Note(d.replaced, 'x.py')).toEqual({
      code: 'INVALID_UTF8',
      message: 'x.py is not valid UTF-8: 2 invalid byte sequences read as U+FFFD (those lines are not byte-identical to the file)',
    });
  });
});

describe('the CLI notes invalid UTF-8 in stats.degraded', () => {
  it('ctxprune prune on a file with invalid bytes: the note, and U+FFFD in the text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-utf8-'));
    const file = join(dir, 'bad.py');
    const enc = new TextEncoder();
    const good = enc.encode(PY_LINES.join('\n') + '\n');
    writeFileSync(file, Buffer.concat([good, Uint8Array.from([0x23, 0x20, 0xff, 0xfe, 0x0a])]));
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['prune', file, '--query', 'file size', '--ratio', '1', '--scorer', 'lexical', '--json'], {
      out: (s: string) => out.push(s),
      err: (s: string) => err.push(s),
    });
    expect(code).toBe(0);
    const r = JSON.parse(out.join('')) as { text: string; stats: { degraded: { code: string; message: string }[] } };
    expect(r.stats.degraded).toContainEqual({
      code: 'INVALID_UTF8',
      message: `${file} is not valid UTF-8: 2 invalid byte sequences read as U+FFFD (those lines are not byte-identical to the file)`,
    });
    expect(r.text.endsWith('# \ufffd\ufffd\n')).toBe(true);
    // A valid file gets no such note.
    writeFileSync(file, good);
    out.length = 0;
    expect(
      await main(['prune', file, '--query', 'file size', '--ratio', '1', '--scorer', 'lexical', '--json'], {
        out: (s: string) => out.push(s),
        err: (s: string) => err.push(s),
      }),
    ).toBe(0);
    expect((JSON.parse(out.join('')) as { stats: { degraded: { code: string }[] } }).stats.degraded.map((d) => d.code)).not.toContain('INVALID_UTF8');
  }, 60_000);
});
