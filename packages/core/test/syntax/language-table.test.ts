/**
 * The per-language table (syntax/grammars.ts) is where every per-language fact lives: the
 * lookups of languages.ts, lexical.ts, names.ts, fallback.ts, repair and the features read it, so a
 * language added there is found by its extensions and aliases and gets its comments, closers and
 * import names without another edit.
 */
import { describe, expect, it } from 'vitest';
import { grammarTable, languageEntry } from '../../src/syntax/grammars.js';
import { grammarFileFor, languageFromFileName, lineCommentPrefix, parseLanguageName } from '../../src/syntax/languages.js';
import { identifierRegex, isCloserLine } from '../../src/syntax/lexical.js';
import { importNames } from '../../src/syntax/names.js';
import { LANGUAGES } from '../../src/syntax/types.js';

describe('the per-language table', () => {
  it('every language is found by its id, its aliases, its extensions and file names', () => {
    for (const lang of LANGUAGES) {
      const t = grammarTable(lang);
      expect(t.aliases, lang).toContain(lang);
      for (const a of t.aliases) expect(parseLanguageName(a.toUpperCase()), a).toBe(lang);
      for (const e of t.extensions) expect(languageFromFileName(`src/x.${e}`), e).toBe(lang);
      for (const e of t.extensionsExact ?? []) expect(languageFromFileName(`x.${e}`), e).toBe(lang);
      for (const f of t.fileNames ?? []) expect(languageFromFileName(`a/${f[0].toUpperCase()}${f.slice(1)}`), f).toBe(lang);
      expect(grammarFileFor(lang)).toBe(t.grammarFile);
    }
    // Exact extensions come first: `.C` is C++, `.c` C.
    expect([languageFromFileName('a.C'), languageFromFileName('a.c'), languageFromFileName('a.H'), languageFromFileName('a.h')]).toEqual([
      'cpp',
      'c',
      'cpp',
      'c',
    ]);
    expect([parseLanguageName('constructor'), languageFromFileName('x.constructor'), languageEntry('toString' as never)]).toEqual([null, null, undefined]);
  });

  it('comments, closers, identifiers and the model family come from the entry (defaults for no language)', () => {
    expect(LANGUAGES.map((l) => lineCommentPrefix(l))).toEqual(LANGUAGES.map((l) => grammarTable(l).lineComment));
    expect(LANGUAGES.filter((l) => lineCommentPrefix(l) === '#')).toEqual(['python', 'ruby']);
    expect(LANGUAGES.filter((l) => grammarTable(l).endKeyword)).toEqual(['ruby']);
    expect(LANGUAGES.filter((l) => identifierRegex(l).source.includes('$'))).toEqual(['typescript', 'tsx', 'javascript']);
    expect(LANGUAGES.filter((l) => grammarTable(l).modelFamily !== undefined)).toEqual(['python', 'typescript', 'tsx', 'javascript']);
    expect([lineCommentPrefix(null), identifierRegex(null).source]).toEqual(['#', '[A-Za-z_][A-Za-z0-9_]*']);
    // Closers: `end` (Ruby, and an unknown language), brackets with `#` comments (Python), brackets with `//` comments (the rest).
    const closers = ['end', '} # x', '} // x', '} while (x);'];
    expect(closers.map((c) => isCloserLine(c, 'ruby'))).toEqual([true, true, false, false]);
    expect(closers.map((c) => isCloserLine(c, 'python'))).toEqual([false, true, false, false]);
    expect(closers.map((c) => isCloserLine(c, 'go'))).toEqual([false, false, true, true]);
    expect(closers.map((c) => isCloserLine(c, null))).toEqual([true, false, true, true]);
  });

  it('import names: each language its parser, none where the entry has none', () => {
    expect(importNames('from a.b import (c,\n  d as e)', 'python')).toEqual(['c', 'e']);
    expect(importNames("import x, { y as z, type T } from 'm'", 'tsx')).toEqual(['z', 'T', 'x']);
    expect(importNames('import (\n  "fmt"\n  yaml "gopkg.in/yaml.v3"\n  "example.com/m/v2"\n)', 'go')).toEqual(['fmt', 'yaml', 'm']);
    expect(importNames('use std::{io::{self, Read as R}, fmt};', 'rust')).toEqual(['io', 'R', 'fmt']);
    expect(importNames('using static System.Math;', 'csharp')).toEqual(['Math']);
    expect(importNames('use App\\{Cart, Price as P};', 'php')).toEqual(['Cart', 'P']);
    expect(importNames("require 'json'", 'ruby')).toEqual([]);
    expect(importNames('#include <stdio.h>', 'c')).toEqual([]);
  });
});
