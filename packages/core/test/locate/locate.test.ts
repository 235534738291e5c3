import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/cards/tree-node.js';
import { main } from '../../src/cli/main.js';
import { rankMetrics } from '../../src/bench/metrics.js';
import { documentScoreFromJudge } from '../../src/locate/document-score.js';
import { buildFileIndex } from '../../src/locate/file-index.js';
import { locateFiles } from '../../src/locate/rank.js';
import { isTestPath, mentionedFiles } from '../../src/locate/signals.js';
import { parseInstances, runLocate } from '../../src/bench/locate.js';
import { importGraph } from '../../src/cards/imports.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const POOLS = join(here, 'fixtures/pools');
const INSTANCES = join(here, 'fixtures/instances.jsonl');
const TREE = join(POOLS, 'acme+web/0123abcd');

describe('locate on the fixture tree', () => {
  it('reads the tree and its import graph', async () => {
    const files = await readTree(TREE, { extensions: ['.py'] });
    expect([...files.keys()]).toEqual(['tests/test_requests.py', 'web/__init__.py', 'web/models.py', 'web/sessions.py', 'web/utils.py']);
    expect(Object.fromEntries(importGraph(files))).toEqual({
      'tests/test_requests.py': ['web/__init__.py'],
      'web/__init__.py': ['web/models.py', 'web/sessions.py'],
      'web/models.py': [],
      'web/sessions.py': ['web/models.py', 'web/utils.py'],
      'web/utils.py': [],
    });
  });

  it('BM25 alone ranks the test file first; the rerank puts the fix location first', async () => {
    const ix = buildFileIndex(await readTree(TREE, { extensions: ['.py'] }));
    const q = parseInstances(await readFile(INSTANCES, 'utf8'))[0].problem_statement;
    expect((await locateFiles(q, ix, { bm25Only: true })).ranked[0]).toBe('tests/test_requests.py');
    const r = await locateFiles(q, ix);
    expect(r.ranked).toEqual(['web/models.py', 'tests/test_requests.py', 'web/sessions.py', 'web/utils.py', 'web/__init__.py']);
    expect(r.signals.find((s) => s.path === 'tests/test_requests.py')!.test).toBe(true);
  });

  it('uses an injected document score on the reranked pool', async () => {
    const ix = buildFileIndex(await readTree(TREE, { extensions: ['.py'] }));
    let seen = 0;
    const r = await locateFiles('header value', ix, {
      rerankTop: 3,
      weights: { bm25: 0, mentioned: 0, pathTerms: 0, defines: 0, document: 1 },
      documentScore: async (_q, texts) => {
        seen = texts.length;
        return texts.map((t) => (t.includes('parse_header_links') ? 1 : 0));
      },
    });
    expect(seen).toBe(3);
    expect(r.ranked[0]).toBe('web/utils.py');
  });

  it('reranks with a judge (eight-field schema, fixed aggregation); bad answers score 0 and are counted', async () => {
    const ix = buildFileIndex(await readTree(TREE, { extensions: ['.py'] }));
    let stats: { ok: number; malformed: number; threw: number } | null = null;
    const judge = async ({ unit }: { unit: { content: string } }) => {
      if (unit.content.includes('class Session')) return 'sorry, no idea';
      if (unit.content.includes('def test_')) throw new Error('rate limited');
      const hit = unit.content.includes('parse_header_links');
      return {
        no_context_action: 'search',
        with_context_action: hit ? 'edit parse_header_links' : 'search',
        action_shift: hit ? 0.9 : 0.1,
        necessity: hit ? 0.9 : 0.1,
        expected_outcome_uplift: hit ? 0.8 : 0.1,
        negative_transfer_risk: 0.1,
        reason: 'r',
        confidence: 0.9,
      };
    };
    const r = await locateFiles('Content-Length header', ix, {
      weights: { bm25: 0, mentioned: 0, pathTerms: 0, defines: 0, document: 1 },
      documentScore: documentScoreFromJudge(judge, {
        onStats: (s) => {
          stats = s;
        },
      }),
    });
    expect(r.ranked[0]).toBe('web/utils.py');
    expect(stats).toMatchObject({ ok: 3, malformed: 1, threw: 1 });
  });

  it('finds files named by traceback frames and dotted modules', async () => {
    const ix = buildFileIndex(await readTree(TREE, { extensions: ['.py'] }));
    const m = mentionedFiles('File "/site-packages/web/utils.py", line 3\nsee web.sessions.Session', ix);
    expect(Object.fromEntries([...m].map(([i, w]) => [ix.paths[i], w]))).toEqual({ 'web/utils.py': 1, 'web/sessions.py': 0.8 });
  });

  it('runLocate: hit@1 and MRR@10 over the instances, missing trees reported', async () => {
    const got: string[] = [];
    const r = await runLocate(parseInstances(await readFile(INSTANCES, 'utf8')), POOLS, { onResult: (x) => got.push(`${x.instance_id}:${x.ranked[0]}`) });
    expect(got).toEqual(['acme__web-1:web/models.py', 'acme__web-2:web/utils.py', 'acme__web-3:web/sessions.py']);
    expect(r).toMatchObject({ instances: 3, scored: 3, hit1: 1, mrr: 1, missingTrees: ['acme__web-4'] });
    const bm = await runLocate(parseInstances(await readFile(INSTANCES, 'utf8')), POOLS, { bm25Only: true });
    expect(bm.hit1).toBeCloseTo(2 / 3, 12);
    expect(bm.mrr).toBeCloseTo(5 / 6, 12);
  });

  it('ctxprune locate writes one JSON line per instance and prints the metrics', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctxprune-locate-'));
    try {
      const out: string[] = [],
        err: string[] = [];
      const code = await main(['locate', '--instances', INSTANCES, '--pools', POOLS, '--out', join(dir, 'r.jsonl'), '--quiet'], {
        out: (s) => out.push(s),
        err: (s) => err.push(s),
      });
      expect(code).toBe(0);
      expect(out.length).toBe(1);
      expect(out[0]).toMatch(/^instances 3 \(scored 3\): hit@1 1\.000 {2}MRR@10 1\.000 {2}\d+ ms\/instance/);
      expect(err).toEqual([`no tree for acme__web-4 under ${POOLS}`]);
      const lines = (await readFile(join(dir, 'r.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.instance_id, l.ranked.length, l.ranked[0]])).toEqual([
        ['acme__web-1', 5, 'web/models.py'],
        ['acme__web-2', 5, 'web/utils.py'],
        ['acme__web-3', 5, 'web/sessions.py'],
      ]);
      expect(await main(['locate', '--pools', POOLS], { out: () => undefined, err: (s) => err.push(s) })).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('helpers', () => {
  it('rankMetrics', () => {
    expect(rankMetrics(['a', 'b', 'c'], ['a'])).toEqual({ hit1: 1, rr: 1 });
    expect(rankMetrics(['a', 'b', 'c'], ['c', 'x'])).toEqual({ hit1: 0, rr: 1 / 3 });
    expect(rankMetrics(['a', 'b', 'c'], ['c'], 2)).toEqual({ hit1: 0, rr: 0 });
    expect(rankMetrics([], ['a'])).toEqual({ hit1: 0, rr: 0 });
  });
  it('isTestPath', () => {
    for (const p of [
      'tests/test_x.py',
      'src/pkg/test_api.py',
      'testing/python/raises.py',
      'conftest.py',
      'pkg/foo_test.py',
      'doc/conf.py',
      'src/__tests__/a.ts',
      'src/button.test.tsx',
      'lib/x.spec.mjs',
      'e2e/app.ts',
    ])
      expect(isTestPath(p)).toBe(true);
    for (const p of ['src/_pytest/python.py', 'requests/models.py', 'pylint/testutils/x.py', 'src/contest.ts', 'lib/inspect.js', 'src/test-utils.ts'])
      expect(isTestPath(p)).toBe(false);
  });
  it('parseInstances rejects bad lines', () => {
    expect(() => parseInstances('{"instance_id": 1}')).toThrow(/line 1/);
    expect(() => parseInstances('\nnot json')).toThrow(/line 2 is not JSON/);
    expect(() => parseInstances('{"instance_id":"a","repo":"../x","base_commit":"c","problem_statement":"p"}')).toThrow(/bad repo/);
    expect(() => parseInstances('{"instance_id":"a","repo":"o/x","base_commit":"..","problem_statement":"p"}')).toThrow(/bad repo/);
  });
});
