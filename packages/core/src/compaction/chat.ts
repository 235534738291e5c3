/**
 * Chat-API message shapes in and out of compaction: OpenAI Chat Completions (`tool_calls` on the
 * assistant message, `role: 'tool'` results with `tool_call_id`) and Anthropic Messages
 * (`tool_use` blocks in assistant content, `tool_result` blocks in user content). compactChat
 * takes either shape (or ctxprune's own) and returns the same shape: every message and block it
 * keeps is the caller's object with only its text replaced; a call and its results are kept, cut,
 * evicted or left out together, so the result is a transcript the API accepts. Non-text parts
 * (images) are passed through and not counted.
 */
import { CtxpruneError } from '../errors.js';
import { compact } from './compact.js';
import type { CompactOptions, CompactResult, Message } from './types.js';
import { validateMessages } from './validate.js';

export type ChatShape = 'ctxprune' | 'openai' | 'anthropic';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const blocksOf = (c: unknown): Obj[] => (Array.isArray(c) ? c.filter(isObj) : []);
const textOf = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : blocksOf(c)
        .filter((b) => b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('\n');

function fail(message: string): never {
  throw new CtxpruneError('INVALID_OPTION', message);
}

/** Which shape a message list is in (ctxprune's own: every message has a string id and content). */
export function detectShape(messages: unknown): ChatShape {
  if (!Array.isArray(messages)) fail(`messages must be an array, got ${messages === null ? 'null' : typeof messages}`);
  const ms = messages as unknown[];
  if (ms.some((m) => isObj(m) && blocksOf(m.content).some((b) => b.type === 'tool_use' || b.type === 'tool_result'))) return 'anthropic';
  if (ms.some((m) => isObj(m) && (m.tool_calls !== undefined || m.tool_call_id !== undefined || m.role === 'developer'))) return 'openai';
  if (ms.every((m) => isObj(m) && typeof m.id === 'string' && typeof m.content === 'string')) return 'ctxprune';
  return 'openai';
}

interface Converted {
  messages: Message[];
  rebuild: (out: Map<string, string>) => unknown[];
}

function fromOpenAI(ms: unknown[]): Converted {
  const names = new Map<string, string>();
  const messages: Message[] = ms.map((raw, k) => {
    if (!isObj(raw)) fail(`messages[${k}] must be an object`);
    const role = raw.role === 'developer' ? 'system' : raw.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
      fail(`messages[${k}].role must be system, developer, user, assistant or tool (got ${JSON.stringify(raw.role)})`);
    }
    if (raw.content !== null && raw.content !== undefined && typeof raw.content !== 'string' && !Array.isArray(raw.content)) {
      fail(`messages[${k}].content must be a string, an array of parts or null`);
    }
    const m: Message = { id: `m${k}`, role: role, content: textOf(raw.content), ...(raw.pinned === true ? { pinned: true } : {}) };
    if (Array.isArray(raw.tool_calls)) {
      m.toolCalls = raw.tool_calls.map((c: unknown, j: number) => {
        if (!isObj(c) || typeof c.id !== 'string' || !isObj(c.function) || typeof c.function.name !== 'string') {
          fail(`messages[${k}].tool_calls[${j}] must be {id, type: "function", function: {name, arguments}}`);
        }
        const f = c.function;
        names.set(c.id, f.name as string);
        return { id: c.id, name: f.name as string, arguments: typeof f.arguments === 'string' ? f.arguments : JSON.stringify(f.arguments ?? {}) };
      });
    }
    if (role === 'tool') {
      if (typeof raw.tool_call_id !== 'string') fail(`messages[${k}] (role tool) must have a tool_call_id`);
      m.toolCallId = raw.tool_call_id;
      const n = names.get(raw.tool_call_id) ?? (typeof raw.name === 'string' ? raw.name : undefined);
      if (n) m.toolName = n;
    }
    return m;
  });
  const rebuild = (out: Map<string, string>): unknown[] =>
    ms.flatMap((raw, k) => {
      const text = out.get(`m${k}`);
      if (text === undefined) return [];
      const o = raw as Obj;
      const original = messages[k].content;
      if (text === original) return [o];
      if (Array.isArray(o.content)) {
        const rest = blocksOf(o.content).filter((b) => b.type !== 'text');
        return [{ ...o, content: [{ type: 'text', text }, ...rest] }];
      }
      return [{ ...o, content: text }];
    });
  return { messages, rebuild };
}

function fromAnthropic(ms: unknown[]): Converted {
  const messages: Message[] = [];
  const names = new Map<string, string>();
  ms.forEach((raw, k) => {
    if (!isObj(raw)) fail(`messages[${k}] must be an object`);
    if (raw.role !== 'user' && raw.role !== 'assistant') fail(`messages[${k}].role must be user or assistant (got ${JSON.stringify(raw.role)})`);
    if (typeof raw.content !== 'string' && !Array.isArray(raw.content)) fail(`messages[${k}].content must be a string or an array of blocks`);
    const blocks = blocksOf(raw.content);
    const pinned = raw.pinned === true ? { pinned: true } : {};
    if (raw.role === 'assistant') {
      const calls = blocks
        .filter((b) => b.type === 'tool_use')
        .map((b, j) => {
          if (typeof b.id !== 'string' || typeof b.name !== 'string') fail(`messages[${k}]: tool_use block ${j} must have a string id and name`);
          names.set(b.id, b.name);
          return { id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) };
        });
      messages.push({ id: `m${k}`, role: 'assistant', content: textOf(raw.content), ...pinned, ...(calls.length ? { toolCalls: calls } : {}) });
      return;
    }
    blocks.forEach((b, j) => {
      if (b.type !== 'tool_result') return;
      if (typeof b.tool_use_id !== 'string') fail(`messages[${k}]: tool_result block ${j} must have a tool_use_id`);
      const n = names.get(b.tool_use_id);
      messages.push({
        id: `m${k}.r${j}`,
        role: 'tool',
        content: textOf(b.content ?? ''),
        toolCallId: b.tool_use_id,
        ...pinned,
        ...(n ? { toolName: n } : {}),
      });
    });
    if (typeof raw.content === 'string' || blocks.some((b) => b.type === 'text') || !blocks.some((b) => b.type === 'tool_result')) {
      messages.push({ id: `m${k}`, role: 'user', content: textOf(raw.content), ...pinned });
    }
  });
  const original = new Map(messages.map((m) => [m.id, m.content]));
  const rebuild = (out: Map<string, string>): unknown[] =>
    ms.flatMap((raw, k) => {
      const o = raw as Obj;
      const id = `m${k}`;
      if (typeof o.content === 'string') {
        const t = out.get(id);
        return t === undefined ? [] : [t === o.content ? o : { ...o, content: t }];
      }
      const blocks = blocksOf(o.content);
      const next: Obj[] = [];
      let textDone = false;
      let any = false;
      blocks.forEach((b, j) => {
        if (b.type === 'tool_result') {
          const t = out.get(`${id}.r${j}`);
          if (t === undefined) return;
          any = true;
          next.push(t === original.get(`${id}.r${j}`) ? b : { ...b, content: t });
        } else if (b.type === 'text') {
          const t = out.get(id);
          if (t === undefined || textDone) return;
          textDone = true;
          any = true;
          if (t !== '') next.push(t === original.get(id) && blocks.filter((x) => x.type === 'text').length === 1 ? b : { type: 'text', text: t });
        } else if (b.type === 'tool_use') {
          if (!out.has(id)) return;
          any = true;
          next.push(b);
        } else if (out.has(id) || blocks.some((x, i) => x.type === 'tool_result' && out.has(`${id}.r${i}`))) {
          next.push(b); // images and other parts: passed through with their message
        }
      });
      return any ? [{ ...o, content: next }] : [];
    });
  return { messages, rebuild };
}

/** A top-level system prompt (Anthropic Messages' `system`): a string or text blocks. */
export type SystemPrompt = string | { type: 'text'; text: string; [k: string]: unknown }[];

export interface CompactChatOptions extends CompactOptions {
  /**
   * The system prompt when it is not one of the messages (Anthropic's top-level `system`): compacted
   * as a system message before the others (protected like one) and returned in `system`.
   */
  system?: SystemPrompt;
}

export interface CompactChatResult {
  /** The compacted messages, in the shape they came in. */
  messages: unknown[];
  shape: ChatShape;
  /** The system prompt when one was given, in the form it came in (cut only when nothing else made room). */
  system?: SystemPrompt;
  /** The compaction itself (its messages in ctxprune's shape, ids `m<k>` / `m<k>.r<j>` by position). */
  result: CompactResult;
}

/** What runs the compaction (compact(), or the same in a worker thread). */
export type CompactRunner = (messages: Message[], options: CompactOptions) => Promise<CompactResult>;

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system) || !system.every((b) => isObj(b) && b.type === 'text' && typeof b.text === 'string')) {
    fail('system must be a string or an array of {type: "text", text} blocks');
  }
  return textOf(system);
}

/**
 * compact() for messages in the OpenAI or Anthropic shape (or ctxprune's): the same shape back.
 * Malformed messages are a CtxpruneError (INVALID_OPTION) naming the first bad one, thrown before
 * `run` is called.
 */
export async function compactChat(messages: unknown[], options: CompactChatOptions, run: CompactRunner = compact): Promise<CompactChatResult> {
  const { system, ...opts } = options;
  const shape = detectShape(messages);
  const conv: Converted =
    shape === 'ctxprune'
      ? { messages: messages as Message[], rebuild: (out) => (messages as Message[]).flatMap((m) => (out.has(m.id) ? [{ ...m, content: out.get(m.id) }] : [])) }
      : shape === 'openai'
        ? fromOpenAI(messages)
        : fromAnthropic(messages);
  validateMessages(conv.messages);
  let sysId: string | undefined;
  let input = conv.messages;
  if (system !== undefined) {
    const ids = new Set(input.map((m) => m.id));
    sysId = 'system';
    while (ids.has(sysId)) sysId += '_';
    input = [{ id: sysId, role: 'system', content: systemText(system) }, ...input];
  }
  const result = await run(input, opts);
  const out = new Map(result.messages.map((m) => [m.id, m.content]));
  const back: CompactChatResult = {
    messages: shape === 'ctxprune' && sysId === undefined ? result.messages : conv.rebuild(out),
    shape,
    result,
  };
  if (system !== undefined) {
    const t = out.get(sysId!) ?? '';
    back.system = t === systemText(system) ? system : typeof system === 'string' ? t : [{ type: 'text', text: t }];
  }
  return back;
}
