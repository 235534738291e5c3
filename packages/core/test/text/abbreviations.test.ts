import { describe, expect, it } from 'vitest';
import { abbreviationKey } from '../../src/text/abbreviations.js';
import { termsOf } from '../../src/text/identifiers.js';
import { prune } from '../../src/index.js';

describe('abbreviationKey', () => {
  it('gives the long and short forms of a word one term that no text can spell', () => {
    expect(['config', 'configs', 'configuration', 'cfg', 'conf'].map(abbreviationKey)).toEqual(Array(5).fill('config~'));
    expect(abbreviationKey('msg')).toBe('message~');
    expect(abbreviationKey('messages')).toBe('message~');
    expect(termsOf('config~ cfg~')).toEqual(['config', 'cfg']);
  });

  it('has no group for ambiguous short forms or ordinary words', () => {
    for (const w of ['res', 'ms', 'ts', 'el', 'id', 'mod', 'cookie', 'general', 'generate']) expect(abbreviationKey(w)).toBeUndefined();
  });
});

describe('abbreviations in the terms', () => {
  it('replace a part where terms are stemmed, the stem still following it', () => {
    expect(termsOf('cfg = load_config(path)', [], true)).toEqual(['config~', 'loadconfig', 'load', 'config~', 'path']);
    expect(termsOf('Read configurations', [], true)).toEqual(['read', 'config~', 'configur']);
  });

  it('leave terms as written alone (long queries, compaction, retrieval)', () => {
    expect(termsOf('cfg = load_config(path)')).toEqual(['cfg', 'loadconfig', 'load', 'config', 'path']);
  });

  it('let a short query reach the line that shortens its word', async () => {
    const source = [
      'def render(page):',
      '    html = page.body',
      '    return html',
      '',
      'def start(app):',
      '    cfg = read_settings()',
      '    app.run(debug=False)',
      '',
    ].join('\n');
    const r = await prune(source, { query: 'configuration', tokens: 20, scorer: 'lexical', language: 'python' });
    const best = r.lines.reduce((a, b) => (b.semantic > a.semantic ? b : a));
    expect(best.line).toBe(6);
    expect(r.keptLines).toContain(6);
  });
});
