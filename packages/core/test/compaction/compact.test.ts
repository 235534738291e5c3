import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { GOAL_TERM_WEIGHTS } from '../../src/compaction/evidence.js';
import { readOverflow } from '../../src/compaction/store.js';
import { GOAL_PROMPT, type CompactOptions, type Message } from '../../src/compaction/types.js';
import type { ScorerInput } from '../../src/scorers/types.js';
import type { TokenCounter } from '../../src/text/tokens.js';
import { TWO_READS } from './two-reads.js';

/**
 * The parser read's relevance to "Fix the header parser bug in parseHeader": half its text's BM25
 * (the best, 1), half its whole message's (1, plus the goal's words: `parseHeader` defines 3 of the
 * goal's 6 stems — header, pars, parsehead — and the read holds 4 of them).
 */
const PARSER_RELEVANCE = 0.5 + 0.5 * (1 + GOAL_TERM_WEIGHTS.defined + (GOAL_TERM_WEIGHTS.share * 4) / 6);

/** One token per whitespace-separated word: budgets can be worked out by hand. */
const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

const PARSER = [
  'def parseHeader(raw):',
  '    name, value = raw.split(":", 1)',
  '    header = Header(name.strip(), value.strip())',
  '    if not header.name: raise HeaderError("empty header name")',
  '    return the header parser result for the header value and its name',
].join('\n'); // 30 words
const RENDER = [
  'def renderTemplate(tpl, ctx):',
  '    html = tpl.render(ctx)',
  '    escaped = escapeHtml(html) if ctx.autoescape else html',
  '    layout = Layout(body=escaped, title=ctx.title, footer=ctx.footer)',
  '    return layout.page() and the rendered template page html markup output text now',
].join('\n'); // 30 words
const DOCS = [
  'Known issue: the header parser drops folded continuation lines; see RFC 7230 section 3.2.4',
  'for obsolete line folding rules and the expected behaviour of parsers here today.',
].join('\n'); // 27 words

function transcript(extra: Partial<Record<'t1' | 't2', string>> = {}): Message[] {
  return [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' }, // 5
    { id: 'u1', role: 'user', content: 'Please look at the repository layout.' }, // 6 (≤ placeholder: never evicted)
    { id: 'a1', role: 'assistant', content: 'Reading the parser.' }, // 3
    { id: 't1', role: 'tool', toolName: 'read_file', content: extra.t1 ?? PARSER }, // 30
    { id: 'a2', role: 'assistant', content: 'Reading the renderer.' }, // 3
    { id: 't2', role: 'tool', toolName: 'read_file', content: extra.t2 ?? RENDER }, // 30
    { id: 'u2', role: 'user', content: 'Fix the header parser bug in parseHeader' }, // 7
    { id: 'a3', role: 'assistant', content: 'Running tests.' }, // 2
    { id: 't3', role: 'tool', toolName: 'run_tests', content: 'FAILED test_header - AssertionError' }, // 4
  ];
}
const TOTAL = 5 + 6 + 3 + 30 + 3 + 30 + 7 + 2 + 4; // 90
const PLACEHOLDER = 8; // "[tool output pruned; use read_overflow ovf_… to retrieve]"

const opts = (o: Partial<CompactOptions>): CompactOptions => ({ tokens: 1000, tokenCounter: words, ...o });
const sumTokens = (ms: Message[]) => ms.reduce((a, m) => a + words.count(m.content), 0);

describe('compact: budget already met', () => {
  it('returns the transcript unchanged, nothing in the store', async () => {
    const ms = transcript();
    const r = await compact(ms, opts({ strategy: 'task_aware_mig', tokens: TOTAL }));
    expect(r.messages).toEqual(ms);
    expect(r.kept).toEqual(ms.map((m) => m.id));
    expect(r.pruned).toEqual([]);
    expect(r.evicted).toEqual([]);
    expect(r.store.size).toBe(0);
    expect(r.tokensAfter).toBe(TOTAL);
  });
});

describe('reactive (baseline)', () => {
  it('evicts the oldest tool output first, even when it is the relevant one', async () => {
    const r = await compact(transcript(), opts({ strategy: 'reactive', tokens: 70 }));
    expect(r.evicted).toEqual(['t1']);
    expect(r.kept).toEqual(['sys', 'u1', 'a1', 'a2', 't2', 'u2', 'a3', 't3']);
    expect(r.tokensAfter).toBe(TOTAL - 30 + PLACEHOLDER); // 68
    expect(r.messages.find((m) => m.id === 't1')!.content).toMatch(/^\[tool output pruned; use read_overflow ovf_[0-9a-f]{8} to retrieve\]$/);
    expect(r.dump.goal).toBeNull();
  });

  it('evicts further tool outputs until the budget holds', async () => {
    const r = await compact(transcript(), opts({ strategy: 'reactive', tokens: 50 }));
    expect(r.evicted).toEqual(['t1', 't2']);
    expect(r.tokensAfter).toBe(TOTAL - 60 + 2 * PLACEHOLDER); // 46
  });
});

describe('task_aware', () => {
  it('scores blocks against the goal (latest user message) and evicts the least relevant', async () => {
    const r = await compact(transcript(), opts({ strategy: 'task_aware', tokens: 70 }));
    expect(r.evicted).toEqual(['t2']);
    expect(r.kept).toContain('t1');
    expect(r.tokensAfter).toBe(68);
    expect(r.dump.goal).toBe('Fix the header parser bug in parseHeader');
    expect(r.dump.goalSource).toBe('latest_user');
    const rel = Object.fromEntries(r.dump.blocks.map((b) => [b.messageId, b.relevance]));
    expect(rel.t1).toBeCloseTo(PARSER_RELEVANCE, 4);
    expect(rel.t2).toBe(0);
  });

  it('uses the goal callback: the prompt starts with the instruction, and the answer is the goal', async () => {
    const seen: string[] = [];
    const r = await compact(
      transcript(),
      opts({
        strategy: 'task_aware',
        tokens: 70,
        summarizeGoal: async (req) => {
          seen.push(req.prompt);
          expect(req.maxTokens).toBe(50);
          return 'Keep the template rendering and html escaping code.';
        },
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0].startsWith(GOAL_PROMPT)).toBe(true);
    expect(seen[0]).toContain('Fix the header parser bug in parseHeader');
    expect(r.dump.goal).toBe('Keep the template rendering and html escaping code.');
    expect(r.dump.goalSource).toBe('callback');
    expect(r.evicted).toEqual(['t1']);
  });

  it('falls back to the latest user message when the callback fails or answers nothing', async () => {
    const failing = await compact(
      transcript(),
      opts({
        strategy: 'task_aware',
        tokens: 70,
        summarizeGoal: async () => {
          throw new Error('rate limited');
        },
      }),
    );
    expect(failing.dump.goalSource).toBe('latest_user');
    expect(failing.dump.goal).toBe('Fix the header parser bug in parseHeader');
    expect(failing.evicted).toEqual(['t2']);
    expect(failing.degraded).toEqual([
      { code: 'GOAL_CALLBACK_FAILED', message: 'goal callback failed (rate limited): scored against the latest user message' },
    ]);
    const empty = await compact(transcript(), opts({ strategy: 'task_aware', tokens: 70, summarizeGoal: async () => '  ' }));
    expect(empty.dump.goalSource).toBe('latest_user');
    expect(empty.degraded).toEqual([{ code: 'GOAL_CALLBACK_EMPTY', message: 'goal callback returned no text: scored against the latest user message' }]);
  });

  it('a goal given outright wins and the callback is not called', async () => {
    let calls = 0;
    const r = await compact(
      transcript(),
      opts({
        strategy: 'task_aware',
        tokens: 70,
        goal: 'template html',
        summarizeGoal: async () => {
          calls++;
          return 'x';
        },
      }),
    );
    expect(calls).toBe(0);
    expect(r.dump.goalSource).toBe('option');
    expect(r.evicted).toEqual(['t1']);
  });

  it('reactive never calls the goal callback', async () => {
    let calls = 0;
    await compact(
      transcript(),
      opts({
        strategy: 'reactive',
        tokens: 70,
        summarizeGoal: async () => {
          calls++;
          return 'x';
        },
      }),
    );
    expect(calls).toBe(0);
  });

  it('uses the relevance hook, and the lexical scorer when the hook fails', async () => {
    const hooked = await compact(
      transcript(),
      opts({
        strategy: 'task_aware',
        tokens: 70,
        relevance: async (_g, texts) => texts.map((t) => (t.includes('renderTemplate') ? 5 : 1)),
      }),
    );
    expect(hooked.dump.relevanceBackend).toBe('custom');
    expect(hooked.evicted).toEqual(['t1']);
    const broken = await compact(transcript(), opts({ strategy: 'task_aware', tokens: 70, relevance: async () => [1] }));
    expect(broken.dump.relevanceBackend).toBe('lexical-bm25');
    expect(broken.evicted).toEqual(['t2']);
    expect(broken.degraded).toEqual([
      { code: 'RELEVANCE_HOOK_FAILED', message: 'relevance hook failed (relevance hook returned 1 scores for 5 texts): used the lexical scorer' },
    ]);
  });
});

describe('mig and task_aware_mig: redundancy', () => {
  // t1 and t2 are the same read (a repeated tool call); docs is less relevant but new information.
  const repeated = (): Message[] => {
    const ms = transcript({ t2: PARSER });
    ms.splice(6, 0, { id: 'a4', role: 'assistant', content: 'Reading the docs.' }, { id: 't4', role: 'tool', toolName: 'read_file', content: DOCS });
    return ms;
  };
  // total 90 + 3 + 27 = 120; budget 102: dropping the docs (−19) gives 101, dropping a copy (−22) 98.

  it('task_aware keeps both copies of the repeated read and evicts the docs', async () => {
    const r = await compact(repeated(), opts({ strategy: 'task_aware', tokens: 102 }));
    expect(r.evicted).toEqual(['t4']);
  });

  it('task_aware_mig keeps one copy (the newer) and the docs: the older copy has redundancy 1', async () => {
    const r = await compact(repeated(), opts({ strategy: 'task_aware_mig', tokens: 102, groupBy: 'role' }));
    expect(r.evicted).toEqual(['t1']);
    expect(r.kept).toEqual(expect.arrayContaining(['t2', 't4']));
    expect(r.tokensAfter).toBe(98);
    const b = Object.fromEntries(r.dump.blocks.map((x) => [x.messageId, x]));
    expect(b.t2).toMatchObject({ selected: true });
    expect(b.t1).toMatchObject({ redundancy: 1, selected: false });
    for (const copy of [b.t1, b.t2]) expect(copy.relevance).toBeCloseTo(PARSER_RELEVANCE, 4);
    expect(b.t1.mig).toBeCloseTo(PARSER_RELEVANCE - 1, 4);
    for (const x of r.dump.blocks) expect(x.mig).toBeCloseTo(x.relevance! - x.redundancy!, 3);
    expect(b.t4.mig!).toBeGreaterThan(0);
  });

  it('mig (no goal: relevance to the latest user turn and the tail) also drops the repeat', async () => {
    const r = await compact(repeated(), opts({ strategy: 'mig', tokens: 102 }));
    expect(r.dump.goalSource).toBe('recent_context');
    expect(r.dump.goal).toBe('Fix the header parser bug in parseHeader\nRunning tests.\nFAILED test_header - AssertionError');
    expect(r.evicted).toEqual(['t1']);
  });

  it('turn groups: one group per assistant turn, allocations sum to the selection budget', async () => {
    const r = await compact(repeated(), opts({ strategy: 'task_aware_mig', tokens: 102 }));
    expect(r.dump.groupBy).toBe('turn');
    const groups = r.dump.groups!;
    expect(groups.map((g) => g.group).sort()).toEqual(['turn:a1', 'turn:a2', 'turn:a4']);
    // selection budget = 102 − protected (5+7+2+4) − small messages (6+3+3+3) − 3 placeholders (24) = 45
    expect(groups.reduce((a, g) => a + g.allocation, 0)).toBe(45);
    for (const g of groups) expect(g.mig).toBeCloseTo(g.relevance - g.redundancy, 12);
    expect(r.evicted).toEqual(['t1']);
  });
});

describe('protection', () => {
  it('system, latest user, pinned and the protected tail are never evicted, however irrelevant', async () => {
    const ms = transcript();
    ms[5] = { ...ms[5], pinned: true }; // t2, irrelevant to the goal
    for (const strategy of ['reactive', 'task_aware', 'mig', 'task_aware_mig'] as const) {
      const r = await compact(ms, opts({ strategy, tokens: 70 }));
      expect(r.evicted, strategy).toEqual(['t1']);
      const st = Object.fromEntries(r.dump.messages.map((m) => [m.id, m.protectedBy]));
      expect(st).toMatchObject({ sys: 'system', u2: 'latest-user', t2: 'pinned', a3: 'tail', t3: 'tail' });
    }
  });

  it('protectedTail widens the tail', async () => {
    const r = await compact(transcript(), opts({ strategy: 'reactive', tokens: 70, protectedTail: 4 }));
    // t2 is now in the tail (t2, u2, a3, t3): the oldest evictable tool output is still t1
    expect(r.evicted).toEqual(['t1']);
    // protected now 5 + 30 + 7 + 2 + 4 = 48 > 40: only pinned messages are inviolable, so the
    // protected ones give way (t2 is evicted: 30 words on one line each cannot be cut to its share)
    const r2 = await compact(transcript(), opts({ strategy: 'reactive', tokens: 40, protectedTail: 4 }));
    expect(r2.overBudget).toBe(false);
    expect(r2.pinnedOverBudget).toBeNull();
    expect(r2.tokensAfter).toBeLessThanOrEqual(40);
    expect(r2.tokensAfter).toBe(sumTokens(r2.messages));
    expect(r2.dump.messages.find((m) => m.id === 't2')!.status).not.toBe('protected');
    expect(r2.degraded).toEqual([
      { code: 'MESSAGES_OMITTED', message: '1 older message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store' },
      {
        code: 'PROTECTED_CUT',
        message: 'the protected messages did not fit once everything older was evicted: 0 cut line by line for the goal, the rest evicted or left out',
      },
    ]);
  });

  it('what a protected tail that could only be evicted leaves goes back to the older messages', async () => {
    // t3 is one line of 200 words: it cannot be cut, so it is evicted (8). The rest then takes
    // sys 5 + u2 7 + a3 2 + t3's placeholder 8 + u1, a1, a2 (12) + t1's and t2's placeholders (16) = 50,
    // and 30 of the 80 are free: one read comes back whole (22 more than its placeholder), not both.
    const ms = transcript();
    ms[8] = { ...ms[8], content: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') };
    const tam = await compact(ms, opts({ strategy: 'task_aware_mig', tokens: 80 }));
    expect(tam.messages.find((m) => m.id === 't1')!.content).toBe(PARSER);
    expect(tam.evicted).toContain('t3');
    expect(tam.tokensAfter).toBeLessThanOrEqual(80);
    expect(tam.tokensAfter).toBe(sumTokens(tam.messages));
    // reactive evicts the oldest tool output first, as always: t2 comes back.
    const re = await compact(ms, opts({ strategy: 'reactive', tokens: 80 }));
    expect(re.evicted).toEqual(['t1', 't3']);
    expect(re.messages.find((m) => m.id === 't2')!.content).toBe(RENDER);
    expect(re.tokensAfter).toBe(TOTAL - 4 + 200 - 30 - 200 + 2 * PLACEHOLDER); // 72
  });

  it('protected (unpinned) messages over the budget give way: the budget holds', async () => {
    const r = await compact(transcript(), opts({ strategy: 'task_aware_mig', tokens: 10 }));
    expect(r.overBudget).toBe(false);
    expect(r.tokensAfter).toBeLessThanOrEqual(10);
    expect(r.tokensAfter).toBe(sumTokens(r.messages));
  });

  it('pinned messages alone over the budget: a typed field says so, everything else is left out', async () => {
    const ms = transcript().map((m) => (['sys', 'u2', 'a3', 't3'].includes(m.id) ? { ...m, pinned: true } : m));
    const r = await compact(ms, opts({ strategy: 'task_aware_mig', tokens: 10 }));
    expect(r.overBudget).toBe(true);
    expect(r.pinnedOverBudget).toEqual({ pinnedTokens: 18, budget: 10 });
    expect(r.dump.pinnedTokens).toBe(18);
    expect(r.degraded).toEqual([
      { code: 'MESSAGES_OMITTED', message: '5 older message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store' },
      {
        code: 'PINNED_OVER_BUDGET',
        message: 'the pinned messages alone take 18 tokens, over the budget of 10: everything else was left out and the result is over budget',
      },
    ]);
    // everything unpinned is gone (left out entirely: not even placeholders fit), still retrievable
    expect(r.messages.map((m) => m.id)).toEqual(['sys', 'u2', 'a3', 't3']);
    expect(r.evicted).toEqual(['u1', 'a1', 't1', 'a2', 't2']);
    for (const m of ms.filter((x) => r.evicted.includes(x.id))) {
      const d = r.dump.messages.find((x) => x.id === m.id)!;
      expect(d.status).toBe('omitted');
      expect(r.store.get(d.key!)).toBe(m.content);
    }
  });

  it('placeholders that do not fit are left out oldest first, and the budget still holds', async () => {
    // protected 18 + small 12 + 2 placeholders 16 = 46 > 40
    const r = await compact(transcript(), opts({ strategy: 'reactive', tokens: 40 }));
    expect(r.overBudget).toBe(false);
    expect(r.tokensAfter).toBeLessThanOrEqual(40);
    expect(r.dump.messages.filter((m) => m.status === 'omitted').map((m) => m.id)).toEqual(['u1']);
    expect(r.degraded).toEqual([
      { code: 'MESSAGES_OMITTED', message: '1 older message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store' },
    ]);
  });
});

describe('nothing is lost', () => {
  it('every evicted or pruned message is retrievable byte for byte by the key its placeholder names', async () => {
    const long = Array.from({ length: 60 }, (_, i) =>
      i >= 30 && i < 36 ? `    header_value_${i} = parseHeader(raw_${i})  # header parser` : `    unrelated_${i} = compute_widget(${i}, 'x')`,
    ).join('\n');
    const ms = transcript({ t1: long });
    const total = sumTokens(ms);
    for (const strategy of ['reactive', 'task_aware', 'mig', 'task_aware_mig'] as const) {
      const r = await compact(ms, opts({ strategy, tokens: Math.floor(total / 2) }));
      expect(r.tokensAfter, strategy).toBeLessThanOrEqual(Math.floor(total / 2));
      expect(r.tokensAfter).toBe(sumTokens(r.messages));
      for (const id of [...r.evicted, ...r.pruned]) {
        const out = r.messages.find((m) => m.id === id)!;
        const key = /read_overflow (ovf_[0-9a-f]+)/.exec(out.content)![1];
        expect(readOverflow(r.store, key)).toBe(ms.find((m) => m.id === id)!.content);
        expect(r.dump.messages.find((m) => m.id === id)!.key).toBe(key);
      }
    }
  });

  it('a long tool output is cut line by line (LaMR, the goal as the query), not dropped', async () => {
    const long = Array.from({ length: 60 }, (_, i) =>
      i >= 24 && i < 30 ? `    header_value_${i} = parseHeader(raw_${i})  # header parser` : `    unrelated_${i} = compute_widget(${i}, 'x')`,
    ).join('\n');
    const ms = transcript({ t1: long });
    const r = await compact(ms, opts({ strategy: 'task_aware_mig', tokens: 150 }));
    expect(r.pruned).toEqual(['t1']);
    const out = r.messages.find((m) => m.id === 't1')!.content.split('\n');
    for (let i = 24; i < 30; i++) expect(out).toContain(`    header_value_${i} = parseHeader(raw_${i})  # header parser`);
    // every kept line is an input line, verbatim; the last line names the key of the whole output
    for (const l of out.slice(0, -1)) if (!l.trim().startsWith('#') && !l.trim().startsWith('…')) expect(long.split('\n')).toContain(l);
    expect(out[out.length - 1]).toMatch(/^\[\d+ lines pruned; use read_overflow ovf_[0-9a-f]{8} to retrieve\]$/);
    expect(r.dump.messages.find((m) => m.id === 't1')).toMatchObject({ status: 'pruned', prunedBy: 'line-pruner' });
    expect(r.tokensAfter).toBeLessThanOrEqual(150);
  });
});

describe('budget compliance on generated transcripts', { timeout: 300_000 }, () => {
  function gen(seed: number): Message[] {
    let s = seed;
    const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const vocab = ['parse', 'header', 'value', 'render', 'template', 'cache', 'session', 'cookie', 'redirect', 'timeout', 'retry', 'socket'];
    const w = () => vocab[Math.floor(rnd() * vocab.length)];
    const ms: Message[] = [
      { id: 's', role: 'system', content: 'system prompt here' },
      { id: 'u0', role: 'user', content: `fix ${w()} ${w()}` },
    ];
    const n = 3 + Math.floor(rnd() * 8);
    for (let i = 0; i < n; i++) {
      ms.push({ id: `a${i}`, role: 'assistant', content: `call ${w()}` });
      const lines = 1 + Math.floor(rnd() * 50);
      ms.push({ id: `t${i}`, role: 'tool', content: Array.from({ length: lines }, () => `${w()} ${w()} ${w()}`).join('\n'), pinned: rnd() < 0.1 });
      if (rnd() < 0.2) ms.push({ id: `u${i + 1}`, role: 'user', content: `now ${w()} ${w()} ${w()} ${w()}` });
    }
    return ms;
  }
  it('never exceeds the budget unless the pinned messages alone do', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const ms = gen(seed);
      const total = sumTokens(ms);
      for (const strategy of ['reactive', 'task_aware', 'mig', 'task_aware_mig'] as const) {
        for (const frac of [0.1, 0.25, 0.5, 0.9]) {
          const budget = Math.max(1, Math.floor(total * frac));
          const r = await compact(ms, opts({ strategy, tokens: budget }));
          const pinnedTokens = r.dump.pinnedTokens;
          expect(r.tokensAfter).toBe(sumTokens(r.messages));
          if (pinnedTokens <= budget) expect(r.tokensAfter, `${seed} ${strategy} ${frac}`).toBeLessThanOrEqual(budget);
          expect(r.overBudget).toBe(pinnedTokens > budget);
          expect(r.pinnedOverBudget).toEqual(pinnedTokens > budget ? { pinnedTokens, budget } : null);
          expect(new Set([...r.kept, ...r.pruned, ...r.evicted]).size).toBe(ms.length);
        }
      }
    }
  });
});

describe('debug dump', () => {
  it('carries the goal, per-block scores, group allocations, strategy and the outcome', async () => {
    const r = await compact(transcript(), opts({ strategy: 'task_aware_mig', tokens: 70 }));
    const d = JSON.parse(JSON.stringify(r.dump));
    expect(d).toMatchObject({
      strategy: 'task_aware_mig',
      budget: 70,
      tokenizer: 'words',
      tokensBefore: TOTAL,
      tokensAfter: 68,
      goal: 'Fix the header parser bug in parseHeader',
      goalSource: 'latest_user',
      relevanceBackend: 'lexical-bm25',
      groupBy: 'turn',
      overBudget: false,
      kept: r.kept,
      pruned: [],
      evicted: ['t2'],
    });
    expect(d.blocks.map((b: { id: string }) => b.id)).toEqual(['t1#0', 't2#0']);
    for (const b of d.blocks)
      expect(Object.keys(b).sort()).toEqual(['group', 'id', 'lines', 'messageId', 'mig', 'redundancy', 'relevance', 'selected', 'tokens']);
    expect(d.groups.length).toBe(2);
    expect(d.messages.find((m: { id: string }) => m.id === 't2')).toMatchObject({ status: 'evicted', tokensBefore: 30, tokensAfter: 8 });
  });
});

describe('compact: one scoring per message', () => {
  it("cuts a message at every size from one call of the scorer, and names the scorer's own stats", async () => {
    const { LexicalScorer } = await import('../../src/scorers/lexical.js');
    const lexical = new LexicalScorer();
    const seen: string[] = [];
    const counting = {
      name: 'counting',
      score: (input: ScorerInput) => {
        seen.push(input.lines[0]);
        return { ...lexical.score(input), scorer: 'counting' };
      },
    };
    // Two reads of 60 lines (300 words each): each offers cuts at 1/8, 1/4 and 1/2 of itself.
    const ms = TWO_READS;
    const o = { strategy: 'task_aware_mig', tokens: 200, tokenCounter: words } as const;
    const plain = await compact(ms, o);
    const r = await compact(ms, { ...o, scorer: counting });
    // The same cuts as the default scorer (the lexical one) makes, each read scored once.
    expect(r.messages).toEqual(plain.messages);
    expect(r.pruned).toEqual(['t1', 't2']);
    expect(seen.sort()).toEqual(['def parse_header_0(value): return parse_header(value, 0)', 'def render_page_0(value): return render_page(value, 0)']);
    expect(r.dump.cutScorers).toEqual(['counting']);
    expect(plain.dump.cutScorers).toEqual(['lexical']);
  });
});
