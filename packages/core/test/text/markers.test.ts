import { Lexer } from 'marked';
import postcss from 'postcss';
import { beforeAll, describe, expect, it } from 'vitest';
import { elidedRanges, withFocus } from '../../src/integrations/focus.js';
import { prune } from '../../src/prune/pipeline.js';
import { commentCloser, elisionMarker, markerPrefixForFile, outputOrigin, renderKept } from '../../src/text/elision.js';
import { lineCount, splitLines } from '../../src/text/lines.js';
import { loadDefaultTokenCounter, type TokenCounter } from '../../src/text/tokens.js';

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadDefaultTokenCounter();
});

describe('line counts', () => {
  it('a final newline ends the last line and starts none', () => {
    expect(lineCount(splitLines('a\nb\n'))).toBe(2);
    expect(lineCount(splitLines('a\nb'))).toBe(2);
    expect(lineCount(splitLines('a\n\n'))).toBe(2);
    expect(lineCount(splitLines('\n'))).toBe(1);
    expect(lineCount(splitLines('x'))).toBe(1);
  });
  it('a marker never covers the empty string after the final newline', () => {
    const lines = splitLines('a\nb\nc\n');
    expect(elisionMarker(lines, 1, 3, '#', '', -1, 'compact')).toBe('# … lines 2–3');
    expect(elisionMarker(lines, 3, 3, '#', '', -1, 'compact')).toBe('');
    // Last line kept: the text keeps the file's final newline, whatever keep says of the empty string.
    expect(renderKept(lines, Uint8Array.from([1, 0, 1, 0]), '#', '').text).toBe('a\n# …\nc\n');
    expect(renderKept(lines, Uint8Array.from([1, 0, 1, 1]), '#', '').text).toBe('a\n# …\nc\n');
    // Last line elided: one marker for it, and the file's final newline after the marker.
    const r = renderKept(lines, Uint8Array.from([1, 0, 0, 1]), '#', '', 'compact');
    expect(r.text).toBe('a\n# … lines 2–3\n');
    expect(Array.from(r.origin)).toEqual([0, -1]);
  });
  it('the text ends with a newline exactly when the file does, whatever is kept (#21)', () => {
    for (const [source, cr] of [
      ['a\nb\nc\n', ''],
      ['a\nb\nc', ''],
      ['a\r\nb\r\nc\r\n', '\r'],
    ] as const) {
      const lines = splitLines(source);
      const n = lineCount(lines);
      for (let mask = 0; mask < 1 << n; mask++) {
        const keep = Uint8Array.from({ length: lines.length }, (_, i) => (i < n ? (mask >> i) & 1 : 0));
        const text = renderKept(lines, keep, '#', cr).text;
        expect(text.endsWith('\n'), `${JSON.stringify(source)} keep ${mask.toString(2)}`).toBe(source.endsWith('\n'));
        // Kept lines are the file's lines byte for byte (the last one too, with or without its newline).
        const out = splitLines(text);
        const kept = [...Array(n).keys()].filter((i) => keep[i]).map((i) => i + 1);
        outputOrigin(kept, n).forEach((t, k) => {
          if (t >= 0) expect(out[k]).toBe(lines[t]);
        });
      }
    }
    // A CRLF file whose last line is elided ends with the marker's own CRLF.
    expect(renderKept(splitLines('a\r\nb\r\n'), Uint8Array.from([1, 0, 0]), '//', '\r').text).toBe('a\r\n// …\r\n');
  });
  it('outputOrigin agrees with renderKept on files ending with a newline', () => {
    const n = 7;
    const text = [...Array.from({ length: n }, (_, i) => `x${i}`), ''];
    for (let mask = 1; mask < 1 << (n + 1); mask++) {
      const keep = Uint8Array.from({ length: n + 1 }, (_, i) => (mask >> i) & 1);
      const kept = [...keep.keys()].filter((i) => keep[i] && i < n).map((i) => i + 1);
      if (kept.length === 0) continue;
      expect(Array.from(outputOrigin(kept, n))).toEqual(Array.from(renderKept(text, keep, '#', '').origin));
    }
  });
  it('prune counts, numbers and reports the lines a reader sees', async () => {
    const body = Array.from({ length: 120 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join('\n');
    const text = `import os\n\n${body}`;
    const real = text.split('\n').length - 1; // the file ends with '\n'
    const r = await prune(text, { query: 'f17 adds 17', ratio: 8, fileName: 'm.py', tokenCounter: counter });
    expect(r.stats.totalLines).toBe(real);
    expect(r.lines.length).toBe(real);
    expect(Math.max(...r.keptLines)).toBeLessThanOrEqual(real);
    for (const [, b] of elidedRanges(r.keptLines, r.stats.totalLines)) expect(b).toBeLessThanOrEqual(real);
    const all = await prune(text, { query: 'f17', ratio: 1, fileName: 'm.py', tokenCounter: counter });
    expect(all.text).toBe(text);
    expect(all.stats.totalLines).toBe(real);
    expect(all.keptLines.length).toBe(real);
  });
  it('withFocus says the same count in its header', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `def g${i}():\n    return ${i}\n`).join('\n');
    const read = withFocus(async (_a: { path: string }) => text, { ratio: 6 });
    const out = await read({ path: 'g.py', focus: 'g42 returns 42' });
    expect(out).toMatch(new RegExp(`^\\[ctxprune: kept \\d+/${text.split('\n').length - 1} lines`));
  });
});

describe('markers per language', () => {
  it('picks a comment that is valid and inert in each format', () => {
    expect(markerPrefixForFile('README.md')).toBe('<!--');
    expect(markerPrefixForFile('docs/index.html')).toBe('<!--');
    expect(markerPrefixForFile('a/b/style.css')).toBe('/*');
    expect(markerPrefixForFile('pyproject.toml')).toBe('#');
    expect(markerPrefixForFile('.github/workflows/ci.yml')).toBe('#');
    expect(markerPrefixForFile('run.sh')).toBe('#');
    expect(markerPrefixForFile('Makefile')).toBe('#');
    expect(markerPrefixForFile('schema.sql')).toBe('--');
    expect(markerPrefixForFile('tsconfig.json')).toBe('//');
    expect(markerPrefixForFile(undefined, 'markdown')).toBe('<!--');
    expect(markerPrefixForFile('x.unknown')).toBe('#');
    expect(commentCloser('<!--')).toBe(' -->');
    expect(commentCloser('/*')).toBe(' */');
    expect(commentCloser('#')).toBe('');
    expect(elisionMarker(['<p>', '  <b>x</b>', '</p>'], 1, 1, '<!--', '', 2)).toBe('<!-- … -->');
    expect(elisionMarker(['a {', '  color: red;', '}'], 1, 1, '/*', '', 2, 'compact')).toBe('  /* … line 2 */');
  });

  const markdown = [
    '# Project',
    '',
    'Intro paragraph about the project.',
    '',
    ...Array.from({ length: 40 }, (_, i) => [`## Section ${i}`, '', `Text of section ${i} about topic${i}.`, ''].join('\n')),
    '## Retry policy',
    '',
    'Retry-After headers are honoured up to 30 seconds.',
    '',
  ].join('\n');
  it('Markdown: the markers are HTML comments, no heading is added', async () => {
    const r = await prune(markdown, { query: 'Retry-After honoured', ratio: 8, fileName: 'README.md', tokenCounter: counter });
    expect(r.keptLines.length).toBeLessThan(r.stats.totalLines);
    expect(r.text).toContain('<!-- … -->');
    expect(r.text).not.toMatch(/^\s*# …/m);
    const headings = (s: string) =>
      new Lexer()
        .lex(s)
        .filter((t) => t.type === 'heading')
        .map((t) => (t as { text: string }).text);
    const inOriginal = new Set(headings(markdown));
    for (const h of headings(r.text)) expect(inOriginal.has(h)).toBe(true);
  });

  const css =
    Array.from({ length: 60 }, (_, i) => `.item-${i} {\n  color: #${String(i).padStart(3, '0')};\n  margin: ${i}px;\n}\n`).join('\n') +
    '\n.retry-banner {\n  display: none;\n}\n';
  it('CSS: the markers are block comments and the output parses', async () => {
    expect(() => postcss.parse(css)).not.toThrow();
    const r = await prune(css, { query: 'retry banner display', ratio: 8, fileName: 'site.css', tokenCounter: counter });
    expect(r.text).toContain('/* … */');
    const root = postcss.parse(r.text);
    const comments: string[] = [];
    root.walkComments((c) => {
      comments.push(c.text);
    });
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.every((c) => c === '…')).toBe(true);
  });

  /** Brackets outside strings balance (the scan the repair uses, checked independently of it). */
  const balanced = (s: string) => {
    const stack: string[] = [];
    for (const line of s.split('\n')) {
      for (const ch of line.replace(/"[^"]*"/g, '""').replace(/#.*$/, '')) {
        if ('([{'.includes(ch)) stack.push(ch);
        else if (')]}'.includes(ch) && stack.pop() !== '([{'[')]}'.indexOf(ch)]) return false;
      }
    }
    return stack.length === 0;
  };
  it('TOML: a kept line inside a multi-line array keeps the array closed', async () => {
    const toml = [
      '[project]',
      'name = "demo"',
      'version = "1.0"',
      'dependencies = [',
      ...Array.from({ length: 40 }, (_, i) => `  "package-${i} >= ${i}.0",`),
      '  "retrying-backoff >= 2.0",',
      ...Array.from({ length: 20 }, (_, i) => `  "extra-${i}",`),
      ']',
      '',
      '[tool.other]',
      ...Array.from({ length: 30 }, (_, i) => `option_${i} = ${i}`),
      '',
    ].join('\n');
    expect(balanced(toml)).toBe(true);
    const r = await prune(toml, { query: 'retrying-backoff dependency version', ratio: 8, fileName: 'pyproject.toml', tokenCounter: counter });
    const kept = new Set(r.keptLines);
    expect(r.text).toContain('retrying-backoff');
    expect(kept.has(4)).toBe(true); // dependencies = [
    expect(kept.has(66)).toBe(true); // ]
    expect(balanced(r.text)).toBe(true);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
  });

  it('JSON: brackets stay balanced; markers are JSONC line comments', async () => {
    const json =
      JSON.stringify(
        { name: 'x', scripts: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`task${i}`, `run ${i}`])), retry: { afterSeconds: 30, max: 5 } },
        null,
        2,
      ) + '\n';
    const r = await prune(json, { query: 'retry afterSeconds', ratio: 6, fileName: 'config.json', tokenCounter: counter });
    expect(r.text).toContain('"afterSeconds": 30');
    expect(balanced(r.text)).toBe(true);
    for (const line of r.text.split('\n')) if (line.includes('…')) expect(line.trim()).toBe('// …');
  });

  it('TOML, YAML and shell: `#` comments', async () => {
    const toml = ['[project]', 'name = "demo"', ...Array.from({ length: 60 }, (_, i) => `key${i} = ${i}`), 'retry_after = 30', ''].join('\n');
    const r = await prune(toml, { query: 'retry_after', ratio: 6, fileName: 'pyproject.toml', tokenCounter: counter });
    for (const line of r.text.split('\n')) if (line.includes('…')) expect(line.trim()).toBe('# …');
  });
});
