/** Issue 16 (hardening): option tables, scorer names. */
import { describe, expect, it } from 'vitest';
import { CtxpruneError } from '../../src/errors.js';
import { prune } from '../../src/prune/pipeline.js';
import { resolveScorer } from '../../src/scorers/registry.js';
import { detectLanguage, parseLanguageName } from '../../src/syntax/index.js';
import { grammarFileFor } from '../../src/syntax/languages.js';
import { grammarTable } from '../../src/syntax/grammars.js';

const PY = ['import os', '', 'def read(path):', '    with open(path) as f:', '        return f.read()', '', 'def size(path):', '    return os.path.getsize(path)', ''].join('\n');

describe("Object.prototype's names are not languages, scorers or extensions (#16 item 9)", () => {
  const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  it('parseLanguageName / detectLanguage return null for them', () => {
    for (const n of names) {
      expect(parseLanguageName(n)).toBeNull();
      expect(detectLanguage(`a.${n}`, 'x y z')).toBeNull();
      expect(detectLanguage(n, 'x y z')).toBeNull();
    }
  });
  it('prune says "unknown language" for language: "constructor" and a file named a.constructor', async () => {
    for (const n of names) {
      const r = await prune(PY, { query: 'file size', ratio: 2, language: n });
      expect(r.stats.language).toBeNull();
      expect(r.stats.degraded).toContain(`unknown language "${n}": pruned line by line without syntax repair`);
      expect(r.stats.degraded.join(' ')).not.toMatch(/function Object|native code/);
    }
    const byName = await prune('a b c\nd e f\n', { query: 'a', ratio: 1, fileName: 'a.constructor' });
    expect(byName.stats.language).toBeNull();
    expect(byName.stats.degraded).toContain('language not detected: pruned line by line without syntax repair');
  });
  it('resolveScorer and the table getters give typed errors', async () => {
    for (const n of names) {
      await expect(resolveScorer(n)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
      expect(() => grammarFileFor(n as never)).toThrow(CtxpruneError);
      expect(() => grammarTable(n as never)).toThrow(CtxpruneError);
    }
  });
});

describe('scorer names passed to prune (#16 item 14)', () => {
  it("'lexical' and 'auto' are resolved, not called as objects", async () => {
    const lex = await prune(PY, { query: 'file size', ratio: 2, scorer: 'lexical' });
    expect(lex.stats.scorer).toBe('lexical');
    const auto = await prune(PY, { query: 'file size', ratio: 2, scorer: 'auto' });
    // 'auto' is the model when it loads (python is modelled), else lexical with the reason.
    expect(['neural', 'lexical']).toContain(auto.stats.scorer);
    if (auto.stats.scorer === 'lexical') expect(auto.stats.fallbackReason).toMatch(/^neural unavailable/);
  }, 60_000);
  it('an unknown name or a non-scorer object is INVALID_OPTION', async () => {
    await expect(prune(PY, { query: 'x', scorer: 'bm25' })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('unknown scorer "bm25"') });
    await expect(prune(PY, { query: 'x', scorer: 'constructor' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(prune(PY, { query: 'x', scorer: {} as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(prune(PY, { query: 'x', scorer: 42 as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
