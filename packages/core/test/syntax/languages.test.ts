import { describe, expect, it } from 'vitest';
import { detectLanguage, grammarFileFor, lineCommentPrefix, parseLanguageName, resolveLanguage } from '../../src/syntax/index.js';

describe('detectLanguage', () => {
  it('by extension', () => {
    const cases: Array<[string, string]> = [
      ['a.py', 'python'],
      ['a.pyi', 'python'],
      ['a.ts', 'typescript'],
      ['a.mts', 'typescript'],
      ['a.cts', 'typescript'],
      ['a.tsx', 'tsx'],
      ['a.js', 'javascript'],
      ['a.mjs', 'javascript'],
      ['a.cjs', 'javascript'],
      ['a.jsx', 'javascript'],
      ['main.go', 'go'],
      ['lib.rs', 'rust'],
      ['A.java', 'java'],
      ['x.c', 'c'],
      ['x.h', 'c'],
      ['x.cc', 'cpp'],
      ['x.cpp', 'cpp'],
      ['x.cxx', 'cpp'],
      ['x.hpp', 'cpp'],
      ['x.hh', 'cpp'],
      ['x.hxx', 'cpp'],
      ['P.cs', 'csharp'],
      ['x.rb', 'ruby'],
      ['index.php', 'php'],
      ['src/deep/dir/Mod.PY', 'python'],
      ['Rakefile', 'ruby'],
    ];
    for (const [name, lang] of cases) expect([name, detectLanguage(name, '')]).toEqual([name, lang]);
  });
  it('extension wins over content', () => {
    expect(detectLanguage('x.rb', 'def f():\n    return 1\n')).toBe('ruby');
  });
  it('a `.h` header is C unless its content is clearly C++', () => {
    const cppHeader =
      '#include <QObject>\n\nnamespace qt {\nclass Adapter : public QObject {\npublic:\n  explicit Adapter(QObject *parent = nullptr);\nprivate:\n  std::string name_;\n};\n}\n';
    expect(detectLanguage('adapters/qt.h', cppHeader)).toBe('cpp');
    expect(detectLanguage('adapters/qt.c', cppHeader)).toBe('c');
    expect(detectLanguage('sds.h', '#include <stddef.h>\n\ntypedef struct sds { size_t len; } sds;\nsds sdsnew(const char *init);\n')).toBe('c');
    expect(detectLanguage('empty.h', '')).toBe('c');
  });
  it('by content', () => {
    const c = (s: string) => detectLanguage(undefined, s);
    expect(c('#!/usr/bin/env python3\nprint(1)\n')).toBe('python');
    expect(c('#!/usr/bin/env node\nconsole.log(1)\n')).toBe('javascript');
    expect(c('<?php\necho "hi";\n')).toBe('php');
    expect(c('package main\n\nimport "fmt"\n\nfunc main() {\n\tx := 1\n\tfmt.Println(x)\n}\n')).toBe('go');
    expect(c('import os\nfrom typing import Any\n\ndef run(x):\n    return os.path.join(x)\n')).toBe('python');
    expect(c('use std::io;\n\nfn main() {\n    let mut s = String::new();\n}\n')).toBe('rust');
    expect(c('#include <stdio.h>\n\nint main(void) {\n    printf("hi");\n    return 0;\n}\n')).toBe('c');
    expect(c('#include <vector>\n\nnamespace app {\nstd::vector<int> v;\n}\n')).toBe('cpp');
    expect(c('package com.x;\n\nimport java.util.List;\n\npublic class A {\n}\n')).toBe('java');
    expect(c('using System;\nusing System.Linq;\n\nnamespace App\n{\n    public class A { public int X { get; set; } }\n}\n')).toBe('csharp');
    expect(c("require 'json'\n\nclass A\n  def run\n    1\n  end\nend\n")).toBe('ruby');
    expect(c('export interface User {\n  name: string;\n}\nexport const f = (u: User): string => u.name;\n')).toBe('typescript');
    expect(c("const fs = require('fs');\nfunction go() {\n  console.log(fs);\n}\n")).toBe('javascript');
  });
  it('a script for another interpreter, or a format without a grammar, is not read as code (#21)', () => {
    // A shell script full of printf scored as C (and got `// …` markers, a command in sh).
    const sh = '#!/bin/sh\nusage() {\n  printf "%s\\n" "$1"\n  printf "%s\\n" "$2"\n}\nprintf "x"\n';
    expect(detectLanguage(undefined, sh)).toBeNull();
    expect(detectLanguage('resurrect.sh', sh.slice(sh.indexOf('\n') + 1))).toBeNull();
    expect(detectLanguage(undefined, '#!/usr/bin/env bash\nconst() { printf "%d" "$x"; }\n')).toBeNull();
    const cLike = '#include <stdio.h>\n\nint main(void) {\n    printf("hi");\n    return 0;\n}\n';
    for (const name of ['notes.md', 'ci.yml', 'pyproject.toml', 'page.html', 'site.css', 'config.json', 'Makefile', 'Dockerfile'])
      expect(detectLanguage(name, cLike), name).toBeNull();
    // A name that says nothing still lets the content decide.
    expect(detectLanguage('snippet.txt', cLike)).toBe('c');
    expect(detectLanguage('notes', cLike)).toBe('c');
  });
  it('null when unsure', () => {
    expect(detectLanguage(undefined, 'hello world\nthis is prose.\n')).toBeNull();
    expect(detectLanguage('notes.txt', '')).toBeNull();
    expect(detectLanguage(undefined, '')).toBeNull();
  });
});

describe('parseLanguageName', () => {
  it('accepts aliases', () => {
    const cases: Array<[string, string | null]> = [
      ['py', 'python'],
      ['Python', 'python'],
      ['ts', 'typescript'],
      ['tsx', 'tsx'],
      ['js', 'javascript'],
      ['node', 'javascript'],
      ['golang', 'go'],
      ['rs', 'rust'],
      ['java', 'java'],
      ['c', 'c'],
      ['c++', 'cpp'],
      ['cpp', 'cpp'],
      ['c#', 'csharp'],
      ['cs', 'csharp'],
      ['csharp', 'csharp'],
      ['rb', 'ruby'],
      ['php', 'php'],
      ['cobol', null],
      ['', null],
    ];
    for (const [name, lang] of cases) expect([name, parseLanguageName(name)]).toEqual([name, lang]);
  });
});

describe('grammar file names and comment prefixes', () => {
  it('maps languages', () => {
    expect(grammarFileFor('csharp')).toBe('tree-sitter-c-sharp.wasm');
    expect(grammarFileFor('tsx')).toBe('tree-sitter-tsx.wasm');
    expect(lineCommentPrefix('python')).toBe('#');
    expect(lineCommentPrefix('ruby')).toBe('#');
    expect(lineCommentPrefix('php')).toBe('//');
    expect(lineCommentPrefix('go')).toBe('//');
  });
});

describe('resolveLanguage', () => {
  it('takes a named language, TypeScript in a .tsx file as TSX, else detects', () => {
    expect(resolveLanguage('x = 1', { language: 'Python' })).toBe('python');
    expect(resolveLanguage('', { language: 'typescript', fileName: 'src/Card.tsx' })).toBe('tsx');
    expect(resolveLanguage('', { language: 'typescript', fileName: 'src/card.ts' })).toBe('typescript');
    expect(resolveLanguage('', { language: 'pyhton' })).toBe(null);
    expect(resolveLanguage('const a = 1;', { language: 'auto', fileName: 'a.tsx' })).toBe('tsx');
    expect(resolveLanguage('def f():\n    return 1\n', {})).toBe('python');
  });
});
