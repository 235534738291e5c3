import { describe, expect, it } from 'vitest';
import { analyzeFixture, group, kinds, parents, span, uses } from './helpers.js';
import { analyze, LineKind } from '../../src/syntax/index.js';

describe('analyzeTree: python', async () => {
  const s = await analyzeFixture('sample.py');
  it('kinds', () => expect(kinds(s)).toBe('IIB.BBDDH..B..CK...XK.L.L..BBH.BHK.L.L.B'));
  it('parents: clause bodies point at the clause, clauses at the enclosing block', () => {
    expect(parents(s, [8, 10, 16, 21, 22, 23, 25, 26, 30, 34, 35, 36, 38])).toEqual([-1, 8, 15, 20, 8, 22, 24, 8, 29, 33, 32, 35, 37]);
  });
  it('spans: decorators + multi-line signature, docstring, multi-line literal', () => {
    expect(span(s, 6)).toEqual([6, 9]);
    expect(span(s, 9)).toEqual([6, 9]);
    expect(span(s, 11)).toEqual([10, 13]);
    expect(span(s, 17)).toEqual([16, 19]);
    expect(span(s, 20)).toEqual([20, 20]);
  });
  it('blocks', () => {
    expect([s.blockEnd[8], s.firstBodyLine[8], s.closer[8]]).toEqual([26, 10, -1]);
    expect([s.blockEnd[20], s.blockEnd[22], s.blockEnd[24]]).toEqual([21, 23, 25]);
    expect(s.firstBodyLine[29]).toBe(30);
  });
  it('companion groups', () => {
    expect(group(s, [20, 22, 24, 21])).toEqual([20, 20, 20, -1]);
    expect(group(s, [33, 35, 37])).toEqual([33, 33, 33]);
  });
  it('use edges and definitions', () => {
    expect(uses(s, 34)).toEqual([0, 8]);
    expect(uses(s, 21)).toEqual([3]);
    expect(uses(s, 9)).toEqual([1]);
    expect(uses(s, 29)).toEqual([]);
    expect(s.definedNames.get(1)).toEqual(['L']);
    expect(s.definedNames.get(8)).toEqual(['load']);
    expect(s.definedNames.get(30)).toEqual(['kind']);
    expect(s.errorCount).toBe(0);
    expect(s.source).toBe('tree-sitter');
  });
});

describe('analyzeTree: typescript', async () => {
  const s = await analyzeFixture('sample.ts');
  it('kinds', () => expect(kinds(s)).toBe('IIBCCCDH.BH.XBH....K..L.L.XXXBH.XB.BHK.L.L.XXBHKL..L...XXXBK.XB'));
  it('spans', () => {
    expect(span(s, 4)).toEqual([3, 5]);
    expect(span(s, 6)).toEqual([6, 7]);
    expect(span(s, 16)).toEqual([14, 17]);
    expect(span(s, 53)).toEqual([52, 55]);
  });
  it('closers and blocks', () => {
    expect([s.closer[7], s.closer[14], s.closer[19], s.closer[22], s.closer[24]]).toEqual([28, 27, 22, 24, 26]);
    expect([s.blockEnd[14], s.firstBodyLine[14]]).toEqual([27, 18]);
    expect(s.closer[46]).toBe(57);
  });
  it('parents', () => {
    expect(parents(s, [18, 20, 23, 22, 40, 41, 47, 48, 49, 51, 52, 60, 61])).toEqual([14, 19, 22, 14, 39, 36, 46, 47, 48, 47, 51, 59, -1]);
  });
  it('companion groups: try/catch/finally, if/else-if/else, do/while', () => {
    expect(group(s, [19, 22, 24, 26])).toEqual([19, 19, 19, 19]);
    expect(group(s, [37, 39, 41, 43])).toEqual([37, 37, 37, 37]);
    expect(group(s, [59, 61])).toEqual([59, 59]);
    expect(group(s, [47, 56, 48])).toEqual([47, 47, -1]);
  });
  it('uses', () => {
    expect(uses(s, 20)).toEqual([0]);
    expect(uses(s, 18)).toEqual([1]);
    expect(uses(s, 49)).toEqual([36]);
    expect(uses(s, 36)).toEqual([34]);
    expect(uses(s, 25)).toEqual([8]);
  });
});

describe('analyzeTree: javascript', async () => {
  const s = await analyzeFixture('sample.js');
  it('kinds', () => expect(kinds(s)).toBe('IIBCCH.K.X.XBHH.XXBHH.XXBK.XL.XB'));
  it('block comment span and callbacks as blocks', () => {
    expect(span(s, 3)).toEqual([3, 4]);
    expect([s.closer[19], s.closer[20], s.parent[20], s.parent[21], s.parent[22]]).toEqual([23, 22, 19, 20, 19]);
  });
  it('if / else on separate lines', () => {
    expect(group(s, [25, 27, 28, 30])).toEqual([25, 25, 25, 25]);
    expect([s.closer[25], s.closer[28], s.kind[27]]).toEqual([27, 30, LineKind.Closer]);
  });
  it('uses', () => {
    expect(uses(s, 21)).toEqual([5]);
    expect(uses(s, 25)).toEqual([0, 1]);
    expect(s.definedNames.get(0)).toEqual(['fs']);
  });
});

describe('analyzeTree: go', async () => {
  const s = await analyzeFixture('sample.go');
  it('kinds', () => expect(kinds(s)).toBe('IBIIIIBCH.XBH.K.L.L.XXBH.KL.L..XXK.XXB'));
  it('spans', () => {
    expect(span(s, 3)).toEqual([2, 5]);
    expect(span(s, 13)).toEqual([12, 13]);
    expect(span(s, 30)).toEqual([29, 31]);
  });
  it('blocks, parents, groups', () => {
    expect([s.closer[12], s.closer[8], s.closer[25]]).toEqual([21, 10, 32]);
    expect(group(s, [14, 16, 18, 20])).toEqual([14, 14, 14, 14]);
    expect(parents(s, [15, 16, 17, 26, 27, 29])).toEqual([14, 12, 16, 25, 26, 28]);
  });
  it('uses', () => {
    expect(uses(s, 17)).toEqual([4]);
    expect(uses(s, 27)).toEqual([3, 12]);
    expect(uses(s, 12)).toEqual([8]);
    expect([s.definedNames.get(3), s.definedNames.get(4)]).toEqual([['fmt'], ['str']]);
  });
});

describe('analyzeTree: rust', async () => {
  const s = await analyzeFixture('sample.rs');
  it('kinds', () => expect(kinds(s)).toBe('IIBCDH.XBHH...K.L.XXXBH...K.XKLL.XX.XB'));
  it('spans', () => {
    expect(span(s, 4)).toEqual([4, 5]);
    expect(span(s, 11)).toEqual([10, 11]);
  });
  it('blocks, parents, groups', () => {
    expect([s.closer[10], s.closer[9], s.closer[31]]).toEqual([19, 20, 33]);
    expect(group(s, [14, 16, 18])).toEqual([14, 14, 14]);
    expect(parents(s, [12, 15, 17, 30, 32])).toEqual([10, 14, 16, 29, 31]);
  });
  it('uses', () => {
    expect(uses(s, 27)).toEqual([10]);
    expect(uses(s, 23)).toEqual([0, 5]);
    expect(uses(s, 9)).toEqual([5]);
    expect(s.definedNames.get(1)).toEqual(['io', 'R']);
  });
});

describe('analyzeTree: java', async () => {
  const s = await analyzeFixture('Sample.java');
  it('kinds', () => expect(kinds(s)).toBe('IBIIBCCCH.BDH..XBHK.L.L.XK.L.XXBHKL..L.XXXB'));
  it('spans', () => {
    expect(span(s, 6)).toEqual([5, 7]);
    expect(span(s, 11)).toEqual([11, 12]);
    expect(span(s, 14)).toEqual([13, 14]);
  });
  it('blocks, parents, groups', () => {
    expect(group(s, [18, 20, 22, 24])).toEqual([18, 18, 18, 18]);
    expect(group(s, [25, 27, 29])).toEqual([25, 25, 25]);
    expect(parents(s, [19, 21, 20, 34, 35, 37])).toEqual([18, 20, 17, 33, 34, 33]);
    expect([s.closer[8], s.closer[18], s.blockEnd[34]]).toEqual([41, 20, 36]);
  });
  it('uses', () => {
    expect(uses(s, 23)).toEqual([32]);
    expect(uses(s, 9)).toEqual([2, 3]);
    expect(uses(s, 14)).toEqual([9]);
  });
});

describe('analyzeTree: c', async () => {
  const s = await analyzeFixture('sample.c');
  it('kinds', () => expect(kinds(s)).toBe('IIB.BCCH..K.X.XBH..XBH.K..L.XKL..L.XK.X.XB'));
  it('spans', () => {
    expect(span(s, 5)).toEqual([5, 6]);
    expect(span(s, 8)).toEqual([7, 8]);
    expect(span(s, 25)).toEqual([24, 25]);
  });
  it('blocks, parents, groups', () => {
    expect(group(s, [23, 26, 28])).toEqual([23, 23, 23]);
    expect(group(s, [36, 38])).toEqual([36, 36]);
    expect(parents(s, [30, 31, 33, 37])).toEqual([29, 30, 29, 36]);
    expect([s.closer[7], s.closer[16], s.closer[29]]).toEqual([14, 19, 35]);
  });
  it('uses', () => {
    expect(uses(s, 23)).toEqual([7]);
    expect(uses(s, 22)).toEqual([3]);
  });
});

describe('analyzeTree: cpp', async () => {
  const s = await analyzeFixture('sample.cpp');
  it('kinds', () => expect(kinds(s)).toBe('IIBHB.H.H.XBH.XB..XBH.KK.XL.X.XBXB'));
  it('spans', () => {
    expect(span(s, 5)).toEqual([5, 6]);
    expect(span(s, 21)).toEqual([20, 21]);
  });
  it('blocks, parents, groups', () => {
    expect(parents(s, [6, 8, 9, 17, 23, 24, 27])).toEqual([3, 6, 8, 6, 22, 23, 26]);
    expect(group(s, [22, 26, 28])).toEqual([22, 22, 22]);
    expect([s.closer[3], s.closer[6], s.closer[22]]).toEqual([32, 18, 26]);
  });
  it('uses', () => {
    expect(uses(s, 9)).toEqual([17]);
    expect(uses(s, 23)).toEqual([12]);
  });
});

describe('analyzeTree: csharp', async () => {
  const s = await analyzeFixture('Sample.cs');
  it('kinds', () => expect(kinds(s)).toBe('IIBH.CDH..BHBH..K..XL..XXBH.K..XL..XXXXB'));
  it('Allman headers span to the opening brace', () => {
    expect(span(s, 3)).toEqual([3, 4]);
    expect(span(s, 7)).toEqual([6, 8]);
    expect(span(s, 14)).toEqual([13, 15]);
    expect(span(s, 21)).toEqual([20, 21]);
  });
  it('blocks, parents, groups', () => {
    expect(group(s, [16, 19, 20, 23])).toEqual([16, 16, 16, 16]);
    expect(group(s, [28, 31, 32, 35])).toEqual([28, 28, 28, 28]);
    expect(parents(s, [18, 20, 22, 30, 34])).toEqual([16, 13, 20, 28, 32]);
    expect([s.closer[13], s.firstBodyLine[13], s.closer[16]]).toEqual([24, 16, 19]);
  });
  it('uses', () => {
    expect(uses(s, 18)).toEqual([9]);
    expect(uses(s, 1)).toEqual([]);
  });
});

describe('analyzeTree: ruby', async () => {
  const s = await analyzeFixture('sample.rb');
  it('kinds', () => expect(kinds(s)).toBe('IIBCCH.BH.XBH.K.L.L.XXBHK.XL.L.XXB.B'));
  it('spans and end closers', () => {
    expect(span(s, 13)).toEqual([12, 13]);
    expect([s.closer[8], s.closer[5], s.closer[18], s.closer[24]]).toEqual([10, 32, 20, 26]);
  });
  it('parents and groups', () => {
    expect(group(s, [14, 16, 18, 20])).toEqual([14, 14, 14, 14]);
    expect(parents(s, [15, 17, 19, 25, 28])).toEqual([14, 16, 18, 24, 27]);
    expect(group(s, [23, 27, 29])).toEqual([23, 23, 23]);
  });
  it('uses', () => {
    expect(uses(s, 19)).toEqual([23]);
    expect(uses(s, 34)).toEqual([5]);
  });
});

describe('analyzeTree: php', async () => {
  const s = await analyzeFixture('sample.php');
  it('kinds', () => expect(kinds(s)).toBe('.BIBIIBCCCH..BH..K.L.L.XXBH.K.L.XXXB'));
  it('spans', () => {
    expect(span(s, 8)).toEqual([7, 9]);
    expect(span(s, 15)).toEqual([14, 16]);
  });
  it('parents and groups', () => {
    expect(group(s, [17, 19, 21, 23])).toEqual([17, 17, 17, 17]);
    expect(group(s, [28, 30, 32])).toEqual([28, 28, 28]);
    expect(parents(s, [18, 20, 22, 29, 31])).toEqual([17, 19, 21, 28, 30]);
  });
  it('uses', () => {
    expect(uses(s, 18)).toEqual([4]);
    expect(uses(s, 10)).toEqual([5]);
  });
});

describe('multi-line imports define each name on the line that lists it', () => {
  it('typescript', async () => {
    const text = "import {\n  alpha,\n  beta as b,\n} from './x';\nimport { gamma } from './y';\nexport const z = b(alpha) + gamma;\n";
    const s = await analyze(text, 'typescript');
    expect([s.definedNames.get(1), s.definedNames.get(2), s.definedNames.get(4)]).toEqual([['alpha'], ['b'], ['gamma']]);
    expect(uses(s, 5)).toEqual([1, 2, 4]);
  });
  it('python', async () => {
    const text = 'from x import (\n    alpha,\n    beta,\n)\n\nprint(beta)\n';
    const s = await analyze(text, 'python');
    expect(uses(s, 5)).toEqual([2]);
    expect(kinds(s)).toBe('IIIIB.B');
  });
});

describe('closures inside a long statement head their own blocks', () => {
  const text = [
    /* 0 */ 'export const plugin = {',
    /* 1 */ "  name: 'p',",
    /* 2 */ '  load(id) {',
    /* 3 */ '    return id;',
    /* 4 */ '  },',
    /* 5 */ "  enforce: 'pre',",
    /* 6 */ '  transform(code) {',
    /* 7 */ '    if (code) {',
    /* 8 */ '      return code;',
    /* 9 */ '    }',
    /* 10 */ '  },',
    /* 11 */ '};',
    '',
  ].join('\n');
  it('a method of an object literal is a block whose header is its own line, not the one the previous ended on', async () => {
    const s = await analyze(text, 'typescript');
    expect([s.kind[2], s.kind[6], s.kind[7]]).toEqual([LineKind.DefHeader, LineKind.DefHeader, LineKind.ControlHeader]);
    expect(parents(s, [3, 7, 8])).toEqual([2, 6, 7]);
    expect([s.closer[2], s.closer[6]]).toEqual([4, 10]);
    expect(span(s, 6)).toEqual([6, 6]);
  });
});

describe('a statement segmented around its closures keeps the kind it was given', () => {
  it('a require() import holding a closure is an import up to the closure, as one without is', async () => {
    const withClosure = await analyze(
      [/* 0 */ "const debug = require('debug')(", /* 1 */ "  'app',", /* 2 */ '  () => {', /* 3 */ '    return 1;', /* 4 */ '  },', /* 5 */ ');', ''].join(
        '\n',
      ),
      'javascript',
    );
    expect([withClosure.kind[0], withClosure.kind[1], withClosure.kind[2], withClosure.kind[3]]).toEqual([
      LineKind.Import,
      LineKind.Import,
      LineKind.DefHeader,
      LineKind.Code,
    ]);
    expect(withClosure.definedNames.get(0)).toEqual(['debug']);
    const plain = await analyze("const debug = require('debug')(\n  'app',\n);\n", 'javascript');
    expect([plain.kind[0], plain.kind[1], plain.kind[2]]).toEqual([LineKind.Import, LineKind.Import, LineKind.Import]);
  });
});

describe('analyzeTree: comments between a header and its first statement', () => {
  it('are not part of the header span (Ruby, Python)', async () => {
    const rb = await analyze(
      [
        'module Rack',
        '  module Protection',
        '    # Prevented attack:: Cookie Tossing',
        '    # Options:',
        '    class Tossing < Base',
        '    end',
        '  end',
        'end',
      ].join('\n'),
      'ruby',
    );
    expect([rb.spanStart[1], rb.spanEnd[1]]).toEqual([1, 1]);
    expect([rb.parent[2], rb.parent[3], rb.parent[4]]).toEqual([1, 1, 1]);
    const py = await analyze(['def f(x):', '    # one', '    # two', '    return x'].join('\n'), 'python');
    expect([py.spanStart[0], py.spanEnd[0]]).toEqual([0, 0]);
    expect([py.parent[1], py.parent[2], py.parent[3]]).toEqual([0, 0, 0]);
  });
});

describe('classLike', () => {
  it('marks the headers of class-like definitions only (GrammarTable.classLike)', async () => {
    const src = [
      'export class Client {',
      '  send(req: Req) {',
      '    return 1;',
      '  }',
      '}',
      'function make() {',
      '  return new Client();',
      '}',
      'module.exports = function f() {',
      '  return 2;',
      '};',
      '',
    ];
    const st = await analyze(src.join('\n'), 'typescript');
    expect(Array.from(st.classLike ?? [])).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
