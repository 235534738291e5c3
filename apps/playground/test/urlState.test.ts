import { describe, expect, it } from 'vitest';
import { MAX_URL_CODE_CHARS, clampRatio, readUrlState, writeUrlState, type ViewState } from '../src/urlState';

const base: ViewState = {
  sample: null,
  code: null,
  fileName: null,
  language: 'auto',
  query: '',
  ratio: 4,
  tokens: null,
  engine: 'auto',
  elision: 'bare',
  layer: 'keep',
};

describe('URL state', () => {
  it('round-trips a sample view without putting the sample code in the link', () => {
    const s: ViewState = { ...base, sample: 'python-fetcher', code: 'SAMPLE', query: 'retry after', ratio: 8, layer: 'semantic' };
    const { search, codeOmitted } = writeUrlState(s, 'SAMPLE');
    expect(codeOmitted).toBe(false);
    expect(search).not.toContain('code=');
    expect(readUrlState(search)).toEqual({ sample: 'python-fetcher', query: 'retry after', ratio: 8, layer: 'semantic' });
  });

  it('carries small pasted code (UTF-8 safe) with its file name, and a token budget instead of the ratio', () => {
    const code = 'def café():\n    return "naïve ✓"\n';
    const { search } = writeUrlState({ ...base, code, fileName: 'a.py', tokens: 300, engine: 'wasm', language: 'python' }, null);
    const back = readUrlState(search);
    expect(back.code).toBe(code);
    expect(back.fileName).toBe('a.py');
    expect(back.tokens).toBe(300);
    expect(back.ratio).toBeUndefined();
    expect(back.engine).toBe('wasm');
    expect(back.language).toBe('python');
  });

  it('carries a marker style other than the default, and ignores an unknown one', () => {
    expect(writeUrlState(base, null).search).not.toContain('markers=');
    const { search } = writeUrlState({ ...base, elision: 'compact' }, null);
    expect(search).toContain('markers=compact');
    expect(readUrlState(search).elision).toBe('compact');
    expect(readUrlState('?markers=tiny').elision).toBeUndefined();
  });

  it('leaves large code out of the link and says so', () => {
    const code = 'x = 1\n'.repeat(MAX_URL_CODE_CHARS);
    const { search, codeOmitted } = writeUrlState({ ...base, code }, null);
    expect(codeOmitted).toBe(true);
    expect(search).not.toContain('code=');
  });

  it('ignores malformed values', () => {
    expect(readUrlState('?ratio=99&tokens=-5&engine=gpu&layer=nope&code=%%%')).toEqual({ ratio: 16 });
    expect(clampRatio(Number.NaN)).toBe(4);
    expect(clampRatio(0.2)).toBe(1);
    expect(clampRatio(3.3)).toBe(3.5);
  });
});
