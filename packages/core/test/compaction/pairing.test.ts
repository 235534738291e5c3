import { describe, expect, it } from 'vitest';
import { compact } from '../../src/compaction/compact.js';
import { compactChat, detectShape } from '../../src/compaction/chat.js';
import type { Message } from '../../src/compaction/types.js';
import type { TokenCounter } from '../../src/text/tokens.js';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const sum = (xs: string[]) => xs.reduce((a, t) => a + words.count(t), 0);

const file = (name: string, hot: number) =>
  Array.from({ length: 40 }, (_, i) =>
    i === hot ? `def parse_header(raw): return raw.split(":", 1)  # ${name}` : `def ${name}_helper_${i}(x): return x + ${i}`,
  ).join('\n');

type OA = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
function openai(): OA[] {
  const call = (id: string, path: string) => ({ id, type: 'function' as const, function: { name: 'read_file', arguments: JSON.stringify({ path }) } });
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix parse_header: it drops the value after a second colon.' },
    { role: 'assistant', content: null, tool_calls: [call('c1', 'src/render.py'), call('c2', 'src/cache.py')] },
    { role: 'tool', tool_call_id: 'c1', content: file('render', -1) },
    { role: 'tool', tool_call_id: 'c2', content: file('cache', -1) },
    { role: 'assistant', content: 'Reading the parser.', tool_calls: [call('c3', 'src/parser.py')] },
    { role: 'tool', tool_call_id: 'c3', content: file('parser', 20) },
    { role: 'assistant', content: 'Found it.' },
  ];
}

/** Every call in the output has its result and every result its call (what chat APIs check). */
function assertPairedOpenAI(ms: OA[]): void {
  const calls = ms.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
  const results = ms.filter((m) => m.role === 'tool').map((m) => m.tool_call_id!);
  expect(results.sort()).toEqual([...calls].sort());
  ms.forEach((m, i) => {
    if (m.role === 'tool') expect(ms.slice(0, i).some((p) => p.tool_calls?.some((c) => c.id === m.tool_call_id))).toBe(true);
  });
}

describe('tool-call pairing, OpenAI shape', { timeout: 60_000 }, () => {
  it('is detected, compacted and returned in the same shape, calls and results together', async () => {
    const ms = openai();
    expect(detectShape(ms)).toBe('openai');
    const total = sum(ms.map((m) => m.content ?? ''));
    const r = await compactChat(ms, { strategy: 'task_aware_mig', tokens: Math.floor(total / 3), tokenCounter: words });
    expect(r.shape).toBe('openai');
    const out = r.messages as OA[];
    expect(out.length).toBe(ms.length);
    assertPairedOpenAI(out);
    // unchanged messages are the caller's own objects; the others keep every field but content
    expect(out[0]).toBe(ms[0]);
    for (let i = 0; i < ms.length; i++) {
      expect({ ...out[i], content: null }).toEqual({ ...ms[i], content: null });
    }
    // the parser read (the goal's file) keeps its hot line; every shortened read names its original
    expect(out[6].content).toContain('def parse_header(raw)');
    const short = out.filter((m, i) => m.role === 'tool' && m.content !== ms[i].content);
    expect(short.length).toBe(3);
    for (const m of short) expect(m.content!.split('\n').pop()).toMatch(/use read_overflow ovf_[0-9a-f]{8} to retrieve\]$/);
    expect(r.result.tokensAfter).toBeLessThanOrEqual(Math.floor(total / 3));
  });

  it("the path argument of the call names the result's file (language for the line pruner)", async () => {
    const ms = openai();
    const conv = await compactChat(ms, { strategy: 'task_aware', tokens: 100000, tokenCounter: words });
    expect(conv.messages).toEqual(ms);
  });

  it('left out together: when the budget cannot hold even placeholders, a call and its results go as one', async () => {
    const ms = openai();
    for (const tokens of [5, 12, 20, 30, 45]) {
      const r = await compactChat(ms, { strategy: 'reactive', tokens, tokenCounter: words, protectedTail: 0 });
      assertPairedOpenAI(r.messages as OA[]);
      expect(r.result.tokensAfter).toBeLessThanOrEqual(tokens);
    }
  });

  it('a result whose call is missing is compacted on its own and said so', async () => {
    const ms = [...openai().slice(0, 2), { role: 'tool', tool_call_id: 'ghost', content: 'orphan output' }];
    const r = await compactChat(ms, { strategy: 'reactive', tokens: 1000, tokenCounter: words });
    expect(r.result.degraded).toEqual([
      { code: 'ORPHAN_TOOL_RESULT', message: 'tool result m2 names call ghost, which no earlier message makes: compacted on its own' },
    ]);
  });
});

type AB = { type: string; [k: string]: unknown };
type AM = { role: 'user' | 'assistant'; content: string | AB[] };
function anthropic(): AM[] {
  return [
    { role: 'user', content: 'Fix parse_header: it drops the value after a second colon.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading two files.' },
        { type: 'tool_use', id: 'tu1', name: 'read_file', input: { path: 'src/render.py' } },
        { type: 'tool_use', id: 'tu2', name: 'read_file', input: { path: 'src/parser.py' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: file('render', -1) },
        { type: 'tool_result', tool_use_id: 'tu2', content: [{ type: 'text', text: file('parser', 20) }] },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'tu3', name: 'run_tests', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu3', content: 'FAILED test_parse_header' }] },
    { role: 'assistant', content: 'The split needs maxsplit=1.' },
  ];
}

function assertPairedAnthropic(ms: AM[]): void {
  const blocks = (m: AM) => (typeof m.content === 'string' ? [] : m.content);
  const uses = ms.flatMap((m) =>
    blocks(m)
      .filter((b) => b.type === 'tool_use')
      .map((b) => b.id as string),
  );
  const results = ms.flatMap((m) =>
    blocks(m)
      .filter((b) => b.type === 'tool_result')
      .map((b) => b.tool_use_id as string),
  );
  expect([...results].sort()).toEqual([...uses].sort());
}

describe('tool-call pairing, Anthropic shape', { timeout: 60_000 }, () => {
  it('tool_use / tool_result blocks: same shape back, each result cut or evicted in place', async () => {
    const ms = anthropic();
    expect(detectShape(ms)).toBe('anthropic');
    const r = await compactChat(ms, { strategy: 'task_aware_mig', tokens: 90, tokenCounter: words });
    expect(r.shape).toBe('anthropic');
    const out = r.messages as AM[];
    expect(out.map((m) => m.role)).toEqual(ms.map((m) => m.role));
    assertPairedAnthropic(out);
    const results = (out[2].content as AB[]).filter((b) => b.type === 'tool_result');
    expect(results.map((b) => b.tool_use_id)).toEqual(['tu1', 'tu2']);
    // the render read is evicted (a placeholder string), the parser read keeps its hot line
    expect(results[0].content).toMatch(/^\[tool output pruned; use read_overflow ovf_[0-9a-f]{8} to retrieve\]$/);
    expect(JSON.stringify(results[1].content)).toContain('def parse_header(raw)');
    expect(r.result.tokensAfter).toBeLessThanOrEqual(90);
    // the internal view pairs each result with its call
    const internal = r.result.messages;
    expect(internal.find((m) => m.id === 'm2.r1')!.toolCallId).toBe('tu2');
  });

  it('left out together, whatever the budget', async () => {
    const ms = anthropic();
    for (const tokens of [3, 8, 15, 25, 40, 60]) {
      const r = await compactChat(ms, { strategy: 'task_aware', tokens, tokenCounter: words, protectedTail: 0 });
      assertPairedAnthropic(r.messages as AM[]);
      expect(r.result.tokensAfter).toBeLessThanOrEqual(tokens);
    }
  });
});

describe('tool-call pairing, ctxprune shape', { timeout: 60_000 }, () => {
  const ms: Message[] = [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' },
    { id: 'u', role: 'user', content: 'Fix parse_header.' },
    {
      id: 'a1',
      role: 'assistant',
      content: 'I will read the renderer now because the template might call the parser in a way that matters here.',
      toolCalls: [{ id: 'k1', name: 'read_file', arguments: '{"path":"render.py"}' }],
    },
    { id: 't1', role: 'tool', toolCallId: 'k1', content: file('render', -1) },
    { id: 'a2', role: 'assistant', content: 'Reading the parser.', toolCalls: [{ id: 'k2', name: 'read_file', arguments: '{"path":"parser.py"}' }] },
    { id: 't2', role: 'tool', toolCallId: 'k2', content: file('parser', 20) },
    { id: 'a3', role: 'assistant', content: 'Done reading.' },
  ];
  it('a call whose only result is evicted is evicted with it; a kept result keeps its call', async () => {
    const r = await compact(ms, { strategy: 'task_aware_mig', tokens: 150, tokenCounter: words });
    const st = Object.fromEntries(r.dump.messages.map((m) => [m.id, m.status]));
    expect(st.t1).toBe('evicted');
    expect(st.a1).toBe('evicted');
    expect(st.t2).not.toBe('evicted');
    // t2 is in the protected tail, and brings its call along
    expect(st.a2).toBe('protected');
    expect(r.dump.messages.find((m) => m.id === 'a2')!.protectedBy).toBe('tail');
    // the call's structure stays with the placeholder: the API still sees call k1 and its result
    expect(r.messages.find((m) => m.id === 'a1')!.toolCalls).toEqual(ms[2].toolCalls);
  });

  it('rejects malformed calls with a typed error', async () => {
    const bad = [{ id: 'a', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'f' }] }] as unknown as Message[];
    await expect(compact(bad, { tokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    const dup = [
      { id: 'a', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'f', arguments: '{}' }] },
      { id: 'b', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'f', arguments: '{}' }] },
    ] as Message[];
    await expect(compact(dup, { tokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
