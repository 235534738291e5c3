import { describe, expect, it } from 'vitest';
import { assembleContext, defaultMaxUnits, migPack, referencePack, type PackCandidate } from '../../src/cards/assemble.js';
import { buildContextGraph, ContextGraph } from '../../src/cards/graph.js';
import { lexicalSpans } from '../../src/cards/units.js';
import type { ContextUnit } from '../../src/cards/types.js';
import { approximateCounter } from '../../src/text/tokens.js';

const FILES: Record<string, string> = {
  'pkg/__init__.py': 'from .models import PreparedRequest\nfrom .sessions import Session\n',
  'pkg/models.py': [
    'import os',
    '',
    'class PreparedRequest:',
    '    """A prepared HTTP request."""',
    '',
    '    def prepare_content_length(self, body):',
    "        self.headers['Content-Length'] = '0'",
    '        if body is not None:',
    "            self.headers['Content-Length'] = str(len(body))",
    '',
    '    def prepare_auth(self, auth):',
    '        self.auth = auth',
    '        return auth',
    '',
    'def helper():',
    '    return 1',
  ].join('\n'),
  'pkg/sessions.py': [
    'from .models import PreparedRequest',
    '',
    'class Session:',
    '    def request(self, method, url):',
    '        req = PreparedRequest()',
    '        return self.send(req)',
    '',
    '    def send(self, req):',
    '        return req',
  ].join('\n'),
};

const unit = (id: string, content: string, tokens: number, over: Partial<ContextUnit> = {}): ContextUnit => ({
  id,
  type: 'memory',
  source: 'm',
  content,
  tokens,
  confidence: 1,
  ...over,
});

describe('units and graph', () => {
  it('splits Python files into class and symbol spans with parents', () => {
    const spans = lexicalSpans('pkg/models.py', FILES['pkg/models.py'].split('\n'));
    expect(spans.map((s) => [s.qualifiedName, s.kind, s.start, s.end, s.parent])).toEqual([
      ['PreparedRequest', 'class', 2, 12, -1],
      ['PreparedRequest.prepare_content_length', 'symbol', 5, 8, 0],
      ['PreparedRequest.prepare_auth', 'symbol', 10, 12, 0],
      ['helper', 'symbol', 14, 15, -1],
    ]);
  });

  it('builds containment, precondition, task-memory and conflict edges; retrieves with one-hop expansion', async () => {
    const g = await buildContextGraph({
      files: FILES,
      counter: approximateCounter,
      memories: [
        { id: 'memory:cl', content: 'Last time the Content-Length bug was in pkg/models.py, not in the session.' },
        { id: 'memory:a', content: 'Always send Content-Length for GET requests', stale: true },
        { id: 'memory:b', content: 'Never send Content-Length for GET requests' },
      ],
      rules: ['Run the test suite before committing.'],
    });
    const edges = (type: string) =>
      g.edges
        .filter((e) => e.type === type)
        .map((e) => `${e.from} -> ${e.to}`)
        .sort();
    expect(edges('containment')).toContain('file:pkg/models.py -> class:pkg/models.py#PreparedRequest');
    expect(edges('containment')).toContain('class:pkg/models.py#PreparedRequest -> symbol:pkg/models.py#PreparedRequest.prepare_content_length');
    expect(edges('precondition')).toEqual([
      'file:pkg/__init__.py -> file:pkg/models.py',
      'file:pkg/__init__.py -> file:pkg/sessions.py',
      'file:pkg/sessions.py -> file:pkg/models.py',
    ]);
    expect(edges('task-memory')).toContain('memory:cl -> file:pkg/models.py');
    expect(edges('conflict')).toEqual(['memory:a -> memory:b']);
    expect(g.get('rule:3')?.type).toBe('rule');

    const r = g.retrieve('GET sends Content-Length: prepare_content_length', { k: 3, expandTop: 1 });
    expect(r[0].unit.id).toBe('symbol:pkg/models.py#PreparedRequest.prepare_content_length');
    const n = r.filter((x) => x.via === 'neighbour');
    expect(n.length).toBeGreaterThan(0);
    for (const x of n) expect(x.score).toBeCloseTo(r[0].score * 0.6, 12);
  });
});

describe('reference packer', () => {
  it('thresholds: 0.02 for the first unit, 0.06 after; at most 5 units', () => {
    const c = (i: number, score: number): PackCandidate => ({ unit: unit(`u${i}`, `alpha${i} beta${i} gamma${i}`, 10), score });
    const r = referencePack([c(0, 0.05), c(1, 0.059), c(2, 0.07)], { budget: 1000 });
    expect(r.selected.map((s) => s.unit.id)).toEqual(['u2']);
    expect(referencePack([c(0, 0.03)], { budget: 1000 }).selected.length).toBe(1);
    expect(referencePack([c(0, 0.019)], { budget: 1000 }).selected.length).toBe(0);
    const many = referencePack(
      Array.from({ length: 8 }, (_, i) => c(i, 0.5 - i * 0.01)),
      { budget: 1000 },
    );
    expect(many.selected.length).toBe(5);
    expect(many.decisions.filter((d) => d.decision === 'max_units').length).toBe(3);
  });

  it('skips redundant (Jaccard ≥ 0.82) and conflicting units, penalises stale ones, respects the budget', () => {
    const g = new ContextGraph();
    const a = unit('a', 'retry the request with backoff and jitter', 30);
    const a2 = unit('a2', 'retry the request with backoff and jitter!', 30);
    const b = unit('b', 'never retry a POST request', 30);
    const s = unit('s', 'timeout defaults to thirty seconds', 30, { stale: true });
    const big = unit('big', 'huge unrelated content', 500);
    for (const u of [a, a2, b, s, big]) g.addUnit(u);
    g.addEdge('a', 'b', 'conflict');
    const r = referencePack(
      [
        { unit: a, score: 0.5 },
        { unit: a2, score: 0.45 },
        { unit: b, score: 0.4 },
        { unit: s, score: 0.3 },
        { unit: big, score: 0.35 },
      ],
      { budget: 100, graph: g, expandFraction: 0 },
    );
    const d = Object.fromEntries(r.decisions.map((x) => [x.id, x.decision]));
    expect(d).toEqual({ a: 'selected', a2: 'redundant', b: 'conflict', big: 'over_budget', s: 'selected' });
    expect(r.decisions.find((x) => x.id === 's')!.score).toBeCloseTo(0.2, 12);
    expect(r.used).toBe(60);
  });

  it('expands the top third one hop at × 0.6', () => {
    const g = new ContextGraph();
    const units = ['x', 'y', 'z', 'n'].map((id, i) => unit(id, `term${i} other${i}`, 10));
    for (const u of units) g.addUnit(u);
    g.addEdge('x', 'n', 'containment');
    const r = referencePack(
      units.slice(0, 3).map((u, i) => ({ unit: u, score: 0.5 - i * 0.1 })),
      { budget: 1000, graph: g },
    );
    const n = r.decisions.find((x) => x.id === 'n')!;
    expect(n.expandedFrom).toBe('x');
    expect(n.score).toBeCloseTo(0.3, 12);
  });

  it('MIG selection stays within budget and blocks conflicts', () => {
    const g = new ContextGraph();
    const us = Array.from({ length: 6 }, (_, i) => unit(`m${i}`, `topic${i % 3} detail${i}`, 40));
    for (const u of us) g.addUnit(u);
    g.addEdge('m0', 'm1', 'conflict');
    const r = migPack(
      us.map((u, i) => ({ unit: u, score: 0.6 - i * 0.05 })),
      { budget: 130, graph: g },
    );
    expect(r.used).toBeLessThanOrEqual(130);
    const ids = r.selected.map((s) => s.unit.id);
    expect(ids.includes('m0') && ids.includes('m1')).toBe(false);
  });
});

describe('assembleContext budget compliance', () => {
  it('never exceeds the budget in any mode or selector', async () => {
    const g = await buildContextGraph({
      files: FILES,
      counter: approximateCounter,
      memories: [{ content: 'The Content-Length header for GET must be omitted; check prepare_content_length.' }],
    });
    const task = { query: 'requests.get always sends a Content-Length header; GET should not send it' };
    for (const budget of [0, 20, 60, 120, 300, 2000]) {
      for (const mode of ['raw', 'post-selection', 'pre-budget'] as const) {
        for (const selector of ['reference', 'mig'] as const) {
          const r = await assembleContext(task, g, { budget, mode, selector, counter: approximateCounter });
          expect(r.tokens).toBeLessThanOrEqual(budget);
          expect(approximateCounter.count(r.text)).toBe(r.tokens);
          if (selector === 'reference') expect(r.items.length).toBeLessThanOrEqual(defaultMaxUnits(budget));
          if (mode === 'raw') expect(r.cards.length).toBe(0);
        }
      }
    }
    const r = await assembleContext(task, g, { budget: 400, counter: approximateCounter });
    expect(r.items.map((i) => i.unit.id).slice(0, 2)).toEqual(['memory:0', 'symbol:pkg/models.py#PreparedRequest.prepare_content_length']);
    expect(r.cards.length).toBeGreaterThan(0);
    expect(r.text).toContain('do: Inspect');
    expect(['PASS', 'WARN']).toContain(r.audit.verdict);
  });

  it('post-selection fills the budget: ids are packed under the largest raw budget whose cards fit (#21)', async () => {
    const g = await buildContextGraph({
      files: FILES,
      counter: approximateCounter,
      memories: [{ content: 'The Content-Length header for GET must be omitted; check prepare_content_length.' }],
    });
    const task = { query: 'requests.get always sends a Content-Length header; GET should not send it' };
    for (const budget of [60, 120, 200]) {
      const post = await assembleContext(task, g, { budget, mode: 'post-selection', counter: approximateCounter });
      expect(post.tokens).toBeLessThanOrEqual(budget);
      expect(post.packBudget).toBeGreaterThanOrEqual(budget);
      // The ids are those packed on raw costs under packBudget (the cap still the budget's own).
      const raw = await assembleContext(task, g, { budget: post.packBudget, maxUnits: defaultMaxUnits(budget), mode: 'raw', counter: approximateCounter });
      expect(raw.packBudget).toBe(post.packBudget);
      expect(post.items.map((i) => i.unit.id)).toEqual(raw.items.map((i) => i.unit.id));
    }
    const r = await assembleContext(task, g, { budget: 200, mode: 'post-selection', counter: approximateCounter });
    expect(r.packBudget).toBeGreaterThan(200);
    // The unit cap still holds.
    const capped = await assembleContext(task, g, { budget: 200, mode: 'post-selection', maxUnits: 2, counter: approximateCounter });
    expect(capped.items.length).toBeLessThanOrEqual(2);
    expect(capped.decisions.some((d) => d.decision === 'max_units')).toBe(true);
  });

  it('falls back to the proxy when the judge misbehaves, and reports it', async () => {
    const g = await buildContextGraph({ files: FILES, counter: approximateCounter });
    const r = await assembleContext({ query: 'Content-Length header on GET' }, g, {
      budget: 300,
      counter: approximateCounter,
      judge: async () => 'not json at all',
      judgeOptions: { timeoutMs: 50 },
    });
    expect(r.judgeStats?.malformed).toBe(r.candidates.length);
    expect(r.candidates.every((c) => c.origin === 'proxy-fallback')).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(300);
  });
});
