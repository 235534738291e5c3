import { describe, expect, it } from 'vitest';
import { blankParamsCollections, renameTargetWords } from '../../src/syntax/shims-csharp.js';
import { errorRows, loadParser, parse } from '../../src/syntax/index.js';

/** The ERROR and MISSING rows of the grammar's own parse, with no shim. */
async function rawErrorRows(src: string): Promise<number[]> {
  const { parser } = await loadParser('csharp');
  const tree = parser.parse(src)!;
  const rows = errorRows(tree);
  tree.delete();
  return rows;
}

async function recoveredErrorRows(src: string): Promise<number[]> {
  const tree = await parse('csharp', src);
  const rows = errorRows(tree);
  tree.delete();
  return rows;
}

describe('blankParamsCollections (C# 13 params collections)', () => {
  it('blanks `params` before a generic, qualified or nullable type, offsets unchanged', () => {
    const src = [
      'class L {',
      '    public static IDisposable Push(params ReadOnlySpan<ILogEventEnricher> enrichers) => null;',
      '    public static IDisposable Push(params IEnumerable<ILogEventEnricher> enrichers) => null;',
      '    void A(int n, params System.Collections.Generic.List<Dictionary<string, int>> xs) { }',
      '    void B(params Bag? bag) { }',
      '}',
      '',
    ].join('\n');
    const out = blankParamsCollections(src);
    expect(out).toBe(
      [
        'class L {',
        '    public static IDisposable Push(       ReadOnlySpan<ILogEventEnricher> enrichers) => null;',
        '    public static IDisposable Push(       IEnumerable<ILogEventEnricher> enrichers) => null;',
        '    void A(int n,        System.Collections.Generic.List<Dictionary<string, int>> xs) { }',
        '    void B(       Bag? bag) { }',
        '}',
        '',
      ].join('\n'),
    );
    expect(out.length).toBe(src.length);
  });
  it('leaves a params array, and text without `params`, as they are', () => {
    const arrays = 'class A {\n    void M(params object[] args) { }\n    void N(params int[]? xs) { }\n}\n';
    expect(blankParamsCollections(arrays)).toBe(arrays);
    const none = 'class A { void M(int parameters) { } }\n';
    expect(blankParamsCollections(none)).toBe(none);
  });
  it('makes a file with a params collection parse after recovery, where the grammar alone does not', async () => {
    const src = [
      'public static class LogContext',
      '{',
      '    [OverloadResolutionPriority(1)]',
      '    public static IDisposable Push(params IEnumerable<ILogEventEnricher> enrichers)',
      '    {',
      '        return Push(enrichers.ToArray());',
      '    }',
      '}',
      '',
    ].join('\n');
    expect(await rawErrorRows(src)).toEqual([3]);
    expect(await recoveredErrorRows(src)).toEqual([]);
  });
});

describe('renameTargetWords (an attribute target word as a name after `[`)', () => {
  it('renames the word where no `:` follows, offsets unchanged', () => {
    const src = [
      'testMethod.Invoke(this, [method]);',
      'Invoke(this, [method, invokeTestMethod]);',
      'SetTypeMap(new Dictionary<Type, TypeMapEntry>(snapshot) { [type] = value });',
      'var all = [',
      '    field,',
      '    param];',
      'var p = new D { [property] = 1, [typevar] = 2 };',
      '',
    ].join('\n');
    const out = renameTargetWords(src);
    expect(out).toBe(
      [
        'testMethod.Invoke(this, [metho_]);',
        'Invoke(this, [metho_, invokeTestMethod]);',
        'SetTypeMap(new Dictionary<Type, TypeMapEntry>(snapshot) { [typ_] = value });',
        'var all = [',
        '    fiel_,',
        '    param];',
        'var p = new D { [propert_] = 1, [typeva_] = 2 };',
        '',
      ].join('\n'),
    );
    expect(out.length).toBe(src.length);
  });
  it('leaves attribute targets, longer names, `@` names and other positions as they are', () => {
    const src = [
      '[method: Obsolete]',
      '[return: NotNull]',
      '[type : Serializable]',
      'var a = [types, methodName, @method];',
      'var b = x[a, method];',
      'var c = [global::System.String.Empty];',
      '',
    ].join('\n');
    expect(renameTargetWords(src)).toBe(src);
  });
  it('makes a collection expression argument and an indexer initializer parse after recovery, where the grammar alone does not', async () => {
    const invoke = [
      'class T',
      '{',
      '    void Run(MethodInfo testMethod, object method)',
      '    {',
      '        testMethod.Invoke(this, [method]);',
      '    }',
      '}',
      '',
    ].join('\n');
    expect(await rawErrorRows(invoke)).toEqual([4]);
    expect(await recoveredErrorRows(invoke)).toEqual([]);
    const initializer = [
      'class M',
      '{',
      '    void Add(Type type, TypeMapEntry value)',
      '    {',
      '        SetTypeMap(new Dictionary<Type, TypeMapEntry>(snapshot) { [type] = value });',
      '    }',
      '}',
      '',
    ].join('\n');
    expect(await rawErrorRows(initializer)).toEqual([4]);
    expect(await recoveredErrorRows(initializer)).toEqual([]);
  });
  it('never rewrites a file that parses', async () => {
    const src = 'class A\n{\n    [method: Obsolete]\n    void M(params int[] xs) { var x = [a, method]; }\n}\n';
    expect(await rawErrorRows(src)).toEqual([]);
    const tree = await parse('csharp', src);
    expect(tree.rootNode.text).toBe(src);
    tree.delete();
  });
});
