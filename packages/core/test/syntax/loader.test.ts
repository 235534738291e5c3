import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { configure, env } from '../../src/config.js';
import { CtxpruneError } from '../../src/errors.js';
import { countErrors, listGrammarAssets, loadParser, parse, resetGrammarCache, LANGUAGES } from '../../src/syntax/index.js';

const realFetch = env.fetch;
afterEach(() => {
  env.assets.grammarUrls = {};
  env.assets.grammarBaseUrl = null;
  configure({ fetch: realFetch });
  resetGrammarCache();
});

describe('loader', () => {
  it('loads a grammar once and parses', async () => {
    const a = await loadParser('go');
    const b = await loadParser('go');
    expect(a).toBe(b);
    const tree = await parse('go', 'package main\nfunc main() {}\n');
    expect(tree.rootNode.type).toBe('source_file');
    expect(countErrors(tree)).toBe(0);
    tree.delete();
  });

  it('a missing grammar file fails with GRAMMAR_LOAD_FAILED naming the path', async () => {
    configure({ assets: { grammarUrls: { php: '/nonexistent/dir/tree-sitter-php.wasm' } } });
    const err = await loadParser('php').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CtxpruneError);
    expect((err as CtxpruneError).code).toBe('GRAMMAR_LOAD_FAILED');
    expect((err as CtxpruneError).message).toContain('/nonexistent/dir/tree-sitter-php.wasm');
    // The failure is not cached: with the override gone the default loads.
    env.assets.grammarUrls = {};
    await expect(loadParser('php')).resolves.toBeTruthy();
  });

  it('a bad grammar URL fetched through env.fetch fails with GRAMMAR_LOAD_FAILED', async () => {
    const seen: string[] = [];
    configure({
      fetch: async (input) => {
        seen.push(String(input));
        return new Response('nope', { status: 404, statusText: 'Not Found' });
      },
      assets: { grammarBaseUrl: 'https://assets.example.test/grammars/' },
    });
    const err = await loadParser('ruby').catch((e: unknown) => e);
    expect((err as CtxpruneError).code).toBe('GRAMMAR_LOAD_FAILED');
    expect((err as CtxpruneError).message).toContain('https://assets.example.test/grammars/tree-sitter-ruby.wasm');
    expect(seen).toEqual(['https://assets.example.test/grammars/tree-sitter-ruby.wasm']);
  });

  it('bytes that are not a grammar fail with GRAMMAR_LOAD_FAILED', async () => {
    configure({
      fetch: async () => new Response(new Uint8Array([1, 2, 3, 4])),
      assets: { grammarUrls: { java: 'https://cdn.example.test/java.wasm' } },
    });
    const err = await loadParser('java').catch((e: unknown) => e);
    expect((err as CtxpruneError).code).toBe('GRAMMAR_LOAD_FAILED');
  });

  it('unknown language is rejected', async () => {
    const err = await loadParser('cobol' as never).catch((e: unknown) => e);
    expect((err as CtxpruneError).code).toBe('UNKNOWN_LANGUAGE');
  });

  it('lists grammar assets that exist in node_modules', async () => {
    const assets = await listGrammarAssets();
    expect(assets.map((a) => a.id)).toEqual(['runtime', ...LANGUAGES]);
    for (const a of assets) expect([a.fileName, existsSync(a.sourcePath)]).toEqual([a.fileName, true]);
    expect(assets[0].fileName).toBe('web-tree-sitter.wasm');
  });
});

describe('countErrors', () => {
  it('counts ERROR and MISSING nodes', async () => {
    const ok = await parse('python', 'def f(x):\n    return x\n');
    expect(countErrors(ok)).toBe(0);
    const missing = await parse('javascript', 'function f() {\n  return g(1;\n}\n');
    expect(countErrors(missing)).toBe(1);
    const broken = await parse('python', 'def f(:\n    return )\n');
    expect(countErrors(broken)).toBeGreaterThan(0);
    ok.delete();
    missing.delete();
    broken.delete();
  });
});
