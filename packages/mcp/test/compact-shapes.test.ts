/**
 * compact_history takes raw chat-API transcripts as well as ctxprune's own messages: OpenAI chat
 * completions (content parts, tool_calls / tool_call_id) and Anthropic messages (content blocks,
 * tool_use / tool_result, the system prompt apart). Each comes back in its own shape; malformed
 * input is a typed error. In-process server (lexical scorer), the store in a temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startInMemoryServer } from './harness.js';

// A long tool output (the one reactive compaction evicts) and a short one (kept: it is in the tail).
const BIG = Array.from({ length: 120 }, (_, i) => `def handler_${i}(request):\n    return render(request, "page_${i}.html")`).join('\n');
const SMALL = 'def parse_header(raw):\n    return raw.split(":", 1)';
const PLACEHOLDER = /^\[tool output pruned; use read_overflow (ovf_[0-9a-f]{8}) to retrieve\]$/;

let root: string;
let state: string;
let client: Client;

interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: unknown;
}
async function call(args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name: 'compact_history', arguments: args })) as ToolResult;
}
/** The JSON body after the one-line header. */
function body(r: ToolResult): {
  shape: string;
  messages: unknown[];
  system?: unknown;
  kept: string[];
  pruned: string[];
  evicted: string[];
  pinnedOverBudget: unknown;
  degraded: unknown[];
} {
  const t = r.content[0].text;
  return JSON.parse(t.slice(t.indexOf('\n') + 1));
}
async function original(key: string): Promise<string> {
  const r = (await client.callTool({ name: 'read_overflow', arguments: { key } })) as ToolResult;
  return r.content[0].text;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-shapes-root-'));
  state = await mkdtemp(join(tmpdir(), 'ctxprune-shapes-state-'));
  client = (await startInMemoryServer({ root, scorer: 'lexical', stateDir: state })).client;
}, 60_000);

afterAll(async () => {
  await client.close();
  await rm(root, { recursive: true, force: true });
  await rm(state, { recursive: true, force: true });
});

const openai = () => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: [{ type: 'text', text: 'Fix parse_header' }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"views.py"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: BIG },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"headers.py"}' } }] },
  { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: SMALL }] },
  { role: 'assistant', content: 'parse_header splits on the first colon.' },
];

const anthropic = () => [
  { role: 'user', content: 'Fix parse_header' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading views.py.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'views.py' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: BIG }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'headers.py' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: SMALL }] }] },
  { role: 'assistant', content: [{ type: 'text', text: 'parse_header splits on the first colon.' }] },
];

describe('compact_history: OpenAI chat-completions messages', { timeout: 60_000 }, () => {
  it('evicts the long tool output in place and returns every other message as it came', async () => {
    const ms = openai();
    const r = await call({ messages: ms, strategy: 'reactive', tokens: 200 });
    expect(r.isError).toBeUndefined();
    expect(r.content[0].text.split('\n')[0]).toMatch(
      /^\[ctxprune: reactive, \d+ → \d+ tokens \(budget 200\); kept 6, pruned 0, evicted 1; originals: read_overflow KEY\]$/,
    );
    const b = body(r);
    expect(b.shape).toBe('openai');
    expect(b.kept).toEqual(['m0', 'm1', 'm2', 'm4', 'm5', 'm6']);
    expect(b.evicted).toEqual(['m3']);
    expect(b.pruned).toEqual([]);
    expect(b.pinnedOverBudget).toBeNull();
    const out = b.messages as { role: string; tool_call_id?: string; content: unknown }[];
    expect(out).toHaveLength(7);
    expect(out.filter((_, k) => k !== 3)).toEqual(ms.filter((_, k) => k !== 3));
    expect(out[3].role).toBe('tool');
    expect(out[3].tool_call_id).toBe('call_1');
    const key = PLACEHOLDER.exec(out[3].content as string)?.[1];
    expect(key).toBeDefined();
    expect(await original(key!)).toBe(BIG);
  });

  it('cuts with task_aware_mig and keeps every call with its result', async () => {
    const ms = openai();
    const b = body(await call({ messages: ms, strategy: 'task_aware_mig', tokens: 300, goal: 'parse_header' }));
    expect(b.shape).toBe('openai');
    const out = b.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; content: unknown }[];
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(out.map((m) => m.tool_call_id)).toEqual([undefined, undefined, undefined, 'call_1', undefined, 'call_2', undefined]);
    expect(out[2].tool_calls).toEqual(ms[2].tool_calls);
    expect(out[4].tool_calls).toEqual(ms[4].tool_calls);
    expect(b.pruned.concat(b.evicted)).toEqual(['m3']);
    expect(out[5]).toEqual(ms[5]);
  });
});

describe('compact_history: Anthropic messages', { timeout: 60_000 }, () => {
  it('evicts a tool_result block in place, passes tool_use blocks through and returns the system prompt', async () => {
    const ms = anthropic();
    const r = await call({ messages: ms, system: 'You are a coding agent.', strategy: 'reactive', tokens: 200 });
    expect(r.isError).toBeUndefined();
    const b = body(r);
    expect(b.shape).toBe('anthropic');
    expect(b.system).toBe('You are a coding agent.');
    expect(b.evicted).toEqual(['m2.r0']);
    expect(b.kept).toEqual(['system', 'm0', 'm1', 'm3', 'm4.r0', 'm5']);
    const out = b.messages as { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[];
    expect(out).toHaveLength(6);
    expect(out.filter((_, k) => k !== 2)).toEqual(ms.filter((_, k) => k !== 2));
    expect(out[2].role).toBe('user');
    expect(out[2].content).toHaveLength(1);
    expect(out[2].content[0].type).toBe('tool_result');
    expect(out[2].content[0].tool_use_id).toBe('toolu_1');
    const key = PLACEHOLDER.exec(out[2].content[0].content as string)?.[1];
    expect(key).toBeDefined();
    expect(await original(key!)).toBe(BIG);
  });

  it('takes the system prompt as text blocks and gives it back as it came', async () => {
    const system = [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }];
    const b = body(await call({ messages: anthropic(), system, strategy: 'reactive', tokens: 100_000 }));
    expect(b.system).toEqual(system);
    expect(b.messages).toEqual(anthropic());
    expect(b.kept).toEqual(['system', 'm0', 'm1', 'm2.r0', 'm3', 'm4.r0', 'm5']);
  });
});

describe('compact_history: ctxprune messages', { timeout: 60_000 }, () => {
  it('are still taken as they are', async () => {
    const ms = [
      { id: 'u', role: 'user', content: 'Fix parse_header' },
      { id: 'a', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"views.py"}' }] },
      { id: 't', role: 'tool', toolName: 'read_file', toolCallId: 'c1', content: BIG },
      { id: 'z', role: 'assistant', content: 'Done.' },
      { id: 'u2', role: 'user', content: 'Thanks' },
    ];
    const b = body(await call({ messages: ms, strategy: 'reactive', tokens: 200 }));
    expect(b.shape).toBe('ctxprune');
    expect(b.evicted).toEqual(['t']);
    const out = b.messages as { id: string; content: string }[];
    expect(out.map((m) => m.id)).toEqual(['u', 'a', 't', 'z', 'u2']);
    expect(out[2].content).toMatch(PLACEHOLDER);
    expect(b.degraded).toEqual([]);
  });

  it('carry what compaction did instead of the plan as { code, message }', async () => {
    const ms = [
      { id: 'u', role: 'user', content: 'Fix parse_header', pinned: true },
      { id: 't', role: 'tool', toolName: 'read_file', toolCallId: 'ghost', content: BIG },
      { id: 'u2', role: 'user', content: 'Thanks' },
    ];
    const b = body(await call({ messages: ms, strategy: 'reactive', tokens: 200 }));
    expect(b.degraded).toEqual([
      { code: 'ORPHAN_TOOL_RESULT', message: 'tool result t names call ghost, which no earlier message makes: compacted on its own' },
      { code: 'PROTECTED_CUT', message: 'the protected messages did not fit once everything older was evicted: 1 cut line by line for the goal' },
    ]);
  });
});

describe('compact_history: malformed input is a typed error', { timeout: 60_000 }, () => {
  const cases: [string, unknown[], string][] = [
    [
      'an OpenAI tool message without tool_call_id',
      [
        { role: 'user', content: 'x' },
        { role: 'tool', content: 'y' },
      ],
      'messages[1] (role tool) must have a tool_call_id',
    ],
    [
      'an OpenAI tool call without a function',
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] }],
      'messages[0].tool_calls[0] must be {id, type: "function", function: {name, arguments}}',
    ],
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'messages[0].role must be system, developer, user, assistant or tool (got "robot")'],
    [
      'an Anthropic tool_result without tool_use_id',
      [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }],
      'messages[0]: tool_result block 0 must have a tool_use_id',
    ],
    [
      'a ctxprune message with a duplicate id',
      [
        { id: 'a', role: 'user', content: 'x' },
        { id: 'a', role: 'user', content: 'y' },
      ],
      'messages[1].id "a" is used by an earlier message; ids must be unique',
    ],
  ];
  for (const [what, messages, message] of cases) {
    it(what, async () => {
      const r = await call({ messages, strategy: 'reactive', tokens: 100 });
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toBe(`[ctxprune: INVALID_OPTION: ${message}]`);
      expect(r.structuredContent).toEqual({ error: { code: 'INVALID_OPTION', message } });
    });
  }
});

describe("compact_history: the server's scorer cuts the tool outputs", { timeout: 60_000 }, () => {
  it('cuts by the trained model when the server runs with auto, and says so in the header', async () => {
    const s = await mkdtemp(join(tmpdir(), 'ctxprune-shapes-auto-'));
    const auto = (await startInMemoryServer({ root, scorer: 'auto', stateDir: s })).client;
    try {
      const r = (await auto.callTool({
        name: 'compact_history',
        arguments: { messages: openai(), strategy: 'task_aware_mig', tokens: 300, goal: 'parse_header' },
      })) as ToolResult;
      expect(r.isError).toBeUndefined();
      expect(body(r).pruned).toEqual(['m3']);
      expect(r.content[0].text.split('\n')[0]).toMatch(/; kept 6, pruned 1, evicted 0; cut by neural; originals: read_overflow KEY\]$/);
      // The lexical server of the other tests says its own.
      const lexical = await call({ messages: openai(), strategy: 'task_aware_mig', tokens: 300, goal: 'parse_header' });
      expect(lexical.content[0].text.split('\n')[0]).toMatch(/; cut by lexical; originals: read_overflow KEY\]$/);
    } finally {
      await auto.close();
      await rm(s, { recursive: true, force: true });
    }
  });
});

describe('compact_history: calls of one session share their preparations', { timeout: 60_000 }, () => {
  it('answer each budget as a fresh server does', async () => {
    const s = await mkdtemp(join(tmpdir(), 'ctxprune-shapes-fresh-'));
    try {
      for (const tokens of [300, 250, 300, 400]) {
        const args = { messages: openai(), strategy: 'task_aware_mig', tokens, goal: 'parse_header' };
        // A fresh server for each budget: nothing prepared before.
        const fresh = (await startInMemoryServer({ root, scorer: 'lexical', stateDir: s })).client;
        const want = body((await fresh.callTool({ name: 'compact_history', arguments: args })) as ToolResult);
        await fresh.close();
        expect(body(await call(args))).toEqual(want);
      }
    } finally {
      await rm(s, { recursive: true, force: true });
    }
  });
});
