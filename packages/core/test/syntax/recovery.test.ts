import { describe, expect, it } from 'vitest';
import { MAX_RECOVERY_PARSES, recoverParse, recoveryParses } from '../../src/syntax/recovery.js';
import { C_MACROS } from '../../src/syntax/shims-macros.js';
import { CONDITIONALS } from '../../src/syntax/shims-preprocessor.js';
import { errorRows, loadParser } from '../../src/syntax/index.js';

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
    const { parser } = await loadParser('c');
    let calls = 0;
    const parseText = async (text: string) => {
      calls++;
      return parser.parse(text)!;
    };
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
    expect(calls).toBeLessThanOrEqual(MAX_RECOVERY_PARSES);
    tree.delete();

    // A text over 500 KB: one reparse at most.
    calls = 0;
    const big = unit.repeat(Math.ceil(510_000 / unit.length));
    const bigTree = await recoverParse(parser.parse(big)!, big, [CONDITIONALS, C_MACROS], parseText);
    expect(calls).toBeLessThanOrEqual(1);
    bigTree.delete();
  });
});
