import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/syntax/index.js';
import { LineKind } from '../../src/syntax/types.js';

/** A long `else if` chain once took time exponential in its length (20 levels: 16 s). */
describe('else-if chains', () => {
  for (const lang of ['typescript', 'javascript', 'java', 'c', 'csharp', 'php'] as const) {
    it(`${lang}: 60 levels analyze in linear time with one companion group`, async () => {
      const open = lang === 'php' ? '<?php\nfunction f($x) {\n  if ($x == 0) {\n    g(0);\n' : 'void f(int x) {\n  if (x == 0) {\n    g(0);\n';
      const cond = (i: number) => (lang === 'php' ? `$x == ${i}` : `x == ${i}`);
      let src = lang === 'typescript' || lang === 'javascript' ? 'function f(x) {\n  if (x == 0) {\n    g(0);\n' : open;
      if (lang === 'java' || lang === 'csharp') src = 'class A {\n' + src;
      for (let i = 1; i < 60; i++) src += `  } else if (${cond(i)}) {\n    g(${i});\n`;
      src += '  }\n}\n' + (lang === 'java' || lang === 'csharp' ? '}\n' : '');
      const lines = src.split('\n');
      const t0 = performance.now();
      const st = await analyze(lines, lang);
      expect(performance.now() - t0).toBeLessThan(5_000);
      const ifRow = lines.findIndex((l) => l.trim().startsWith('if ('));
      const elseRows = lines.flatMap((l, i) => (l.trim().startsWith('} else if') ? [i] : []));
      expect(elseRows.length).toBe(59);
      expect(st.kind[ifRow]).toBe(LineKind.ControlHeader);
      for (const r of elseRows) {
        expect(st.kind[r]).toBe(LineKind.Clause);
        expect(st.companionGroup[r]).toBe(ifRow);
      }
    });
  }
});

/** A generated chain thousands of links long: each link nests one level deeper in the tree. */
describe('deep else-if chains', () => {
  for (const [lang, head, link] of [
    ['typescript', 'function f(x) {\n  if (x === 0) {\n    return 0;\n', (i: number) => `  } else if (x === ${i}) {\n    return ${i};\n`],
    ['python', 'def f(x):\n    if x == 0:\n        return 0\n', (i: number) => `    elif x == ${i}:\n        return ${i}\n`],
  ] as const) {
    it(`${lang}: 4,000 links keep their structure (the walk does not overflow the call stack)`, async () => {
      let src = head;
      for (let i = 1; i < 4000; i++) src += link(i);
      src += lang === 'python' ? '' : '  }\n}\n';
      const lines = src.split('\n');
      const st = await analyze(lines, lang);
      const ifRow = lines.findIndex((l) => /^\s*if /.test(l));
      const linkRows = lines.flatMap((l, i) => (/^\s*(} else if|elif) /.test(l) ? [i] : []));
      expect(linkRows.length).toBe(3999);
      expect(st.kind[ifRow]).toBe(LineKind.ControlHeader);
      for (const r of [linkRows[0], linkRows[1999], linkRows[3998]]) {
        expect(st.kind[r]).toBe(LineKind.Clause);
        expect(st.companionGroup[r]).toBe(ifRow);
      }
    });
  }
});

describe('work cap', () => {
  it('stops a runaway analysis with a typed error instead of hanging', async () => {
    const { parse } = await import('../../src/syntax/loader.js');
    const { analyzeTree } = await import('../../src/syntax/structure.js');
    const src = Array.from({ length: 50 }, (_, i) => `def f${i}():\n    return ${i}\n`).join('');
    const tree = await parse('python', src);
    try {
      const lines = src.split('\n');
      expect(() => analyzeTree(tree, 'python', lines.length, lines, 10)).toThrow(/structure analysis stopped after 10 statements/);
      expect(analyzeTree(tree, 'python', lines.length, lines).lineCount).toBe(lines.length);
    } finally {
      tree.delete();
    }
  });
});
