import { describe, expect, it } from 'vitest';
import { MAX_RECOVERY_PARSES, recoverParse, recoveryParses } from '../../src/syntax/recovery.js';
import { C_MACROS } from '../../src/syntax/shims-macros.js';
import { C_PREPROCESSOR, CONDITIONALS, flattenConditionals } from '../../src/syntax/shims-preprocessor.js';
import { errorRows, loadParser } from '../../src/syntax/index.js';

/** The C parser, and a parse function for recoverParse that counts its reparses. */
async function countingParser() {
  const { parser } = await loadParser('c');
  const counter = { calls: 0 };
  const parseText = async (text: string) => {
    counter.calls++;
    return parser.parse(text)!;
  };
  return { parser, parseText, counter };
}

describe('recoverParse', () => {
  it('spends fewer reparses on larger texts: eight up to 125 KB, one at 1 MB, none past it', () => {
    expect([recoveryParses(100), recoveryParses(125_000), recoveryParses(200_000), recoveryParses(1_000_000), recoveryParses(2_000_000)]).toEqual([
      MAX_RECOVERY_PARSES,
      8,
      5,
      1,
      0,
    ]);
  });

  it('keeps a rewrite only when it leaves fewer errors, within its reparses', { timeout: 60_000 }, async () => {
    const { parser, parseText, counter } = await countingParser();
    // Errors no rewrite repairs (a stray `)`), beside a macro that one does.
    const unit = 'FOO_BAR int broken = ) ;\nint CJSON_CDECL entry(void) { return 0; }\n';
    const text = unit.repeat(3);
    const first = parser.parse(text)!;
    const before = errorRows(first).length;
    const tree = await recoverParse(first, text, [CONDITIONALS, C_MACROS], parseText);
    const after = errorRows(tree);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(before);
    // CJSON_CDECL went, the stray `)` stayed.
    expect(tree.rootNode.text).toContain('int             entry(void)');
    expect(tree.rootNode.text).toContain('= ) ;');
    expect(counter.calls).toBeLessThanOrEqual(MAX_RECOVERY_PARSES);
    tree.delete();

    // A text over 500 KB: one reparse at most.
    counter.calls = 0;
    const big = unit.repeat(Math.ceil(510_000 / unit.length));
    const bigTree = await recoverParse(parser.parse(big)!, big, [CONDITIONALS, C_MACROS], parseText);
    expect(counter.calls).toBeLessThanOrEqual(1);
    bigTree.delete();
  });

  it('tries the later shims on a dropped rewrite, and keeps the combination when it ends with fewer errors', { timeout: 60_000 }, async () => {
    const { parser, parseText, counter } = await countingParser();
    // A C++-only `extern "C" {` whose `}` was cut, and member macros: flattening the `#ifdef`
    // alone moves an error instead of removing one, and the macros alone leave the brace's.
    const text = [
      '/* A tiny event library. */',
      '#ifdef __cplusplus',
      'extern "C" {',
      '#endif',
      '',
      'struct tiny_req {',
      '  TINY_REQ_MEMBERS',
      '};',
      '',
      'struct tiny_timer {',
      '  TINY_HANDLE_MEMBERS',
      '  int repeat;',
      '};',
      '',
      'struct tiny_stat {',
      '  union {',
      '    long quad;',
      '  } size;',
      '};',
      '',
    ].join('\n');
    const rowsOf = (t: string) => {
      const tree = parser.parse(t)!;
      const rows = errorRows(tree);
      tree.delete();
      return rows;
    };
    expect(rowsOf(text)).toEqual([1, 11, 7]);
    expect(rowsOf(flattenConditionals(text, true))).toEqual([5, 11, 7]);

    const alone = await recoverParse(parser.parse(text)!, text, [C_MACROS], parseText);
    expect(errorRows(alone)).toEqual([1]);
    alone.delete();

    counter.calls = 0;
    const tree = await recoverParse(parser.parse(text)!, text, [C_PREPROCESSOR, C_MACROS], parseText);
    expect(errorRows(tree)).toEqual([]);
    // Both rewrites are in the tree's text: the C++-only branch and the macros are blank.
    expect(tree.rootNode.text).not.toContain('extern');
    expect(tree.rootNode.text).not.toContain('TINY_REQ_MEMBERS');
    expect(tree.rootNode.text).toContain('  int repeat;');
    expect(counter.calls).toBeLessThanOrEqual(MAX_RECOVERY_PARSES);
    tree.delete();
  });
});
