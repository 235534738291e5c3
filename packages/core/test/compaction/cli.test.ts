import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main.js';

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [],
    stderr: string[] = [];
  return { stdout, stderr, out: (s) => stdout.push(s), err: (s) => stderr.push(s) };
}

const parser = Array.from({ length: 30 }, (_, i) => `    header_${i} = parse_header(raw, ${i})`).join('\n');
const render = Array.from({ length: 30 }, (_, i) => `    page_${i} = render_template(tpl, ${i})`).join('\n');
const transcript = {
  id: 'demo',
  goal: 'keep the header parsing code',
  messages: [
    { id: 'sys', role: 'system', content: 'You are a coding agent.' },
    { id: 'u1', role: 'user', content: 'The header parser drops values.' },
    { id: 'a1', role: 'assistant', content: 'Reading parser.py and render.py.' },
    { id: 't1', role: 'tool', toolName: 'read_file', content: parser },
    { id: 't2', role: 'tool', toolName: 'read_file', content: render },
    { id: 'a2', role: 'assistant', content: 'Running the tests.' },
    { id: 't3', role: 'tool', toolName: 'run_tests', content: 'FAILED test_parse_header' },
  ],
};

function file(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxprune-compact-'));
  const p = join(dir, 't.json');
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

describe('ctxprune compact', { timeout: 60_000 }, () => {
  it('--json prints {kept, pruned, evicted, messages, dump}', async () => {
    const io = capture();
    const code = await main(['compact', '--in', file(transcript), '--strategy', 'task_aware_mig', '--tokens', '460', '--json'], io);
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    const out = JSON.parse(io.stdout.join(''));
    expect(Object.keys(out)).toEqual(['kept', 'pruned', 'evicted', 'messages', 'dump']);
    // the header parser read stays whole; the renderer (nothing the goal asks) is cut or evicted
    expect(out.kept).toEqual(['sys', 'u1', 'a1', 't1', 'a2', 't3']);
    expect([...out.pruned, ...out.evicted]).toEqual(['t2']);
    expect(out.messages.map((m: { id: string }) => m.id)).toEqual(transcript.messages.map((m) => m.id));
    expect(out.messages[4].content.split('\n').pop()).toMatch(/use read_overflow ovf_[0-9a-f]{8} to retrieve\]$/);
    expect(out.dump).toMatchObject({
      strategy: 'task_aware_mig',
      budget: 460,
      goal: 'keep the header parsing code',
      goalSource: 'option',
      tokenizer: 'o200k_base',
    });
    expect(out.dump.tokensAfter).toBeLessThanOrEqual(460);
  });

  it('--store DIR keeps the originals; `ctxprune overflow KEY --store DIR` prints one byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-store-'));
    // CRLF, a tab, non-ASCII and no final newline in the output that gets evicted
    const odd = Array.from({ length: 30 }, (_, i) => `\tpage_${i} = render_template(tpl, "é${i}")\r`).join('\n');
    const t = { ...transcript, messages: transcript.messages.map((m) => (m.id === 't2' ? { ...m, content: odd } : m)) };
    const io = capture();
    expect(await main(['compact', '--in', file(t), '--strategy', 'task_aware_mig', '--tokens', '300', '--store', dir, '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout.join(''));
    expect(out.store.dir).toBe(dir);
    const t2 = out.messages.find((m: { id: string }) => m.id === 't2').content as string;
    const key = /read_overflow (ovf_[0-9a-f]{8})/.exec(t2)![1];
    expect(out.store.keys).toContain(key);
    const raw: string[] = [];
    const io2 = { ...capture(), raw: (s: string) => raw.push(s) };
    expect(await main(['overflow', key, '--store', dir], io2)).toBe(0);
    expect(raw.join('')).toBe(odd);
    const io3 = capture();
    expect(await main(['overflow', 'ovf_00000000', '--store', dir], io3)).toBe(1);
    expect(io3.stderr[0]).toMatch(/no entry for ovf_00000000/);
    const io4 = capture();
    expect(await main(['overflow', '../etc/passwd', '--store', dir], io4)).toBe(2);
    expect(io4.stderr[0]).toMatch(/not an overflow key/);
  });

  it('cuts with the trained model by default and names every scorer that cut', async () => {
    // t1 is the result of a read_file call with a path: Python, so the model scores it; t2 has no
    // path and no language of its own, so 'auto' falls back to the lexical scorer and says why.
    const calls = {
      ...transcript,
      messages: transcript.messages.map((m) =>
        m.id === 'a1'
          ? { ...m, toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "pkg/parser.py"}' }] }
          : m.id === 't1'
            ? { ...m, toolCallId: 'c1' }
            : m,
      ),
    };
    const auto = capture();
    expect(await main(['compact', '--in', file(calls), '--strategy', 'task_aware_mig', '--tokens', '300', '--json'], auto)).toBe(0);
    const out = JSON.parse(auto.stdout.join(''));
    expect(out.pruned).toEqual(['t1', 't2']);
    expect(out.dump.cutScorers).toEqual(['neural', 'lexical (auto: language unknown)']);
    const lexical = capture();
    expect(await main(['compact', '--in', file(calls), '--strategy', 'task_aware_mig', '--tokens', '300', '--scorer', 'lexical'], lexical)).toBe(0);
    expect(lexical.stdout).toContain('cut by: lexical');
    // reactive cuts nothing
    const reactive = capture();
    expect(await main(['compact', '--in', file(calls), '--strategy', 'reactive', '--tokens', '460', '--json'], reactive)).toBe(0);
    expect(JSON.parse(reactive.stdout.join('')).dump.cutScorers).toEqual([]);
  });

  it('prints a short human summary without --json', async () => {
    const io = capture();
    const code = await main(['compact', '--in', file(transcript), '--strategy', 'reactive', '--tokens', '460'], io);
    expect(code).toBe(0);
    expect(io.stdout[0]).toMatch(/^demo: reactive, \d+ → \d+ tokens \(budget 460\)$/);
    expect(io.stdout).toContain('evicted 1: t1');
  });

  it('says what it did instead of the plan: a code and a message in --json, the message as a note without', async () => {
    const orphan = { ...transcript, messages: [...transcript.messages, { id: 't4', role: 'tool', toolCallId: 'ghost', content: 'exit 0' }] };
    const note = 'tool result t4 names call ghost, which no earlier message makes: compacted on its own';
    const j = capture();
    expect(await main(['compact', '--in', file(orphan), '--strategy', 'reactive', '--tokens', '460', '--json'], j)).toBe(0);
    expect(JSON.parse(j.stdout.join('')).dump.degraded).toEqual([{ code: 'ORPHAN_TOOL_RESULT', message: note }]);
    const t = capture();
    expect(await main(['compact', '--in', file(orphan), '--strategy', 'reactive', '--tokens', '460'], t)).toBe(0);
    expect(t.stdout.filter((l) => l.startsWith('note: '))).toEqual([`note: ${note}`]);
  });

  it("takes a harness's bare messages array as well as the wrapped transcript", async () => {
    const run = async (content: unknown) => {
      const io = capture();
      expect(await main(['compact', '--in', file(content), '--strategy', 'task_aware_mig', '--tokens', '460', '--json'], io)).toBe(0);
      return JSON.parse(io.stdout.join('\n')) as { messages: unknown[]; dump: { goal: string } };
    };
    const wrapped = await run({ messages: transcript.messages });
    const bare = await run(transcript.messages);
    expect(bare.messages).toEqual(wrapped.messages);
    expect(bare.dump.goal).toBe(wrapped.dump.goal);
  });

  it('rejects an unknown strategy with the list of valid ones, and bad budgets and transcripts', async () => {
    const bad = async (argv: string[]) => {
      const io = capture();
      const code = await main(['compact', ...argv], io);
      return { code, err: io.stderr.join('\n') };
    };
    const p = file(transcript);
    const s = await bad(['--in', p, '--strategy', 'lru', '--tokens', '100']);
    expect(s.code).toBe(2);
    expect(s.err).toContain('unknown compaction strategy "lru" (valid: reactive, task_aware, mig, task_aware_mig)');
    expect((await bad(['--in', p, '--strategy', 'mig', '--tokens', '0'])).err).toContain('tokens must be a positive finite number, got 0 [INVALID_BUDGET]');
    expect((await bad(['--in', p, '--strategy', 'mig', '--tokens', 'many'])).err).toContain('--tokens must be a number');
    expect((await bad(['--in', p, '--strategy', 'mig'])).err).toContain('--tokens N is required');
    expect((await bad(['--strategy', 'mig', '--tokens', '5'])).err).toContain('--in TRANSCRIPT.json is required');
    expect((await bad(['--in', file('{nope'), '--tokens', '5'])).err).toMatch(/is not JSON/);
    expect((await bad(['--in', file('"text"'), '--tokens', '5'])).err).toContain('must hold the messages: an array, or an object');
    expect((await bad(['--in', file({ id: 'x', messages: [{ id: 'a', role: 'bot', content: '' }] }), '--tokens', '5'])).err).toContain(
      'messages[0].role must be one of system, user, assistant, tool (got "bot") [INVALID_OPTION]',
    );
  });
});
