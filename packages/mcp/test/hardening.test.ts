/**
 * Issue 16: no request, however built, stops the server from answering the next one within 5 s;
 * binary files and hard links under the root. Over a real stdio round trip with the SDK's client
 * (needs `npm run build`).
 */
import { link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startStdioServer, type McpTestServer } from './harness.js';

let root: string;
let outside: string;
let server: McpTestServer;
const call = (name: string, args: Record<string, unknown>, timeout?: number) => server.call(name, args, timeout);

/** The server still answers: a small read, within 5 s. */
async function answersNext(): Promise<number> {
  const r = await call('read_pruned', { path: 'ok.py', focus: '' }, 5_000);
  expect(r.text).toBe('def ok():\n    return 1\n');
  return r.ms;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-hard-'));
  outside = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-hard-out-'));
  await writeFile(join(root, 'ok.py'), 'def ok():\n    return 1\n');
  await writeFile(join(root, 'redos.txt'), `${'a'.repeat(36)}!\nplain line\n${'a'.repeat(3000)}!\n`);
  const blob = Buffer.alloc(3000);
  for (let i = 0; i < blob.length; i++) blob[i] = (i * 37) % 256;
  await writeFile(join(root, 'blob.bin'), blob);
  await writeFile(join(root, 'nul.py'), 'x = 1\n\u0000\u0001\u0002 raw\n');
  await writeFile(join(outside, 'secret.txt'), 'TOP-SECRET-CONTENT\n');
  await link(join(outside, 'secret.txt'), join(root, 'hardlink.py'));
  // 16 MiB per message here (default 64 MiB), so that the over-limit case stays quick.
  server = await startStdioServer(root, { args: ['--scorer', 'lexical'], env: { CTXPRUNE_MCP_MAX_MESSAGE_BYTES: String(16 << 20) } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** 400 Python modules of 250 small functions each (about 4 MB): a tree heavy enough to index for seconds. */
async function writeModules(dir: string): Promise<void> {
  const body = Array.from({ length: 250 }, (_, i) => `def step_${i}(items, weight=${i}):\n    return sum(x * weight for x in items if x > ${i})\n`).join('\n');
  for (let f = 0; f < 400; f++) await writeFile(join(dir, `module_${f}.py`), `import math\n\n${body.replaceAll('step_', `m${f}_step_`)}`);
}

describe('the server keeps answering (#16 items 2, 3)', { timeout: 120_000 }, () => {
  it('search_pruned with a catastrophic-backtracking regex answers, and so does the next call', async () => {
    const r = await call('search_pruned', { pattern: '(a+)+$', focus: 'x', path: 'redos.txt' }, 10_000);
    expect(r.text).toMatch(/^\[ctxprune: 0 hits for regex "\(a\+\)\+\$" in 0 files \(1 searched\)\]$/);
    expect(r.ms).toBeLessThan(5_000);
    expect(await answersNext()).toBeLessThan(5_000);
  });

  it('a file of 1 MB of one repeated character (item 1: token counting was quadratic) is pruned, and the next call is answered within 5 s', async () => {
    await writeFile(join(root, 'run.txt'), 'A'.repeat(1_000_000) + '\n' + '='.repeat(100_000) + '\nend\n');
    try {
      const t0 = performance.now();
      let bigDone = 0;
      const big = call('read_pruned', { path: 'run.txt', focus: 'where does it end', tokens: 2000 }, 120_000).then((r) => {
        bigDone = performance.now() - t0;
        return r;
      });
      const smallMs = await answersNext();
      const r = await big;
      expect(r.isError).toBeFalsy();
      const head = /^run\.txt: \[ctxprune: kept \d\/3 lines \((\d+) → (\d+) tokens, scorer lexical\)/.exec(r.text.split('\n')[0]);
      expect(head, r.text.slice(0, 300)).not.toBeNull();
      expect(Number(head![1])).toBeGreaterThan(125_000);
      expect(Number(head![2])).toBeLessThanOrEqual(2000);
      expect(r.text).not.toContain('A'.repeat(1000));
      expect(smallMs).toBeLessThan(5_000);
      console.log(`read_pruned of 1 MB of 'A' ${bigDone.toFixed(0)} ms; the call sent after it answered in ${smallMs.toFixed(0)} ms`);
    } finally {
      await rm(join(root, 'run.txt'), { force: true });
    }
  });

  it('a lookahead pattern is searched literally and says why', async () => {
    const r = await call('search_pruned', { pattern: 'plain(?= line)', focus: 'x', path: 'redos.txt' });
    expect(r.text).toMatch(/^\[ctxprune: 0 hits for literal "plain\(\?= line\)" \(not RE2 syntax: invalid or unsupported Perl syntax/);
  });

  it('a request over 10 MiB (the SDK transport closed at 10 MiB) is handled, then the next call is answered', async () => {
    // 12 MB: a focus over the schema's bound gets a schema error, not a dead server.
    const r = await call('read_pruned', { path: 'ok.py', focus: '漢'.repeat(4_000_000) });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool read_pruned: String must contain at most 4000 character(s) at focus',
    );
    expect(await answersNext()).toBeLessThan(5_000);
  });

  it("item 3's own request: compact_history of 3,900,000 CJK characters (11.7 MB, under the 4,000,000-character limit) is answered, and so is the next call", async () => {
    const content = '漢字の文章です。'.repeat(121_875); // 975,000 characters a message
    const messages = [0, 1, 2, 3].map((i) => ({ id: `m${i}`, role: i === 0 ? 'user' : 'tool', content }));
    expect(Buffer.byteLength(JSON.stringify(messages))).toBeGreaterThan(11_000_000);
    const big = call('compact_history', { messages, strategy: 'reactive', tokens: 2000 }, 300_000);
    expect(await answersNext()).toBeLessThan(5_000);
    const r = await big;
    expect(r.isError).toBeFalsy();
    expect(r.text).toMatch(/^\[ctxprune: reactive, \d+ → \d+ tokens \(budget 2000\)/);
    expect(await answersNext()).toBeLessThan(5_000);
  });

  it('a request over the per-message limit gets a JSON-RPC error, then the next call is answered', async () => {
    const huge = 'x'.repeat(17 << 20);
    await expect(call('read_pruned', { path: 'ok.py', focus: huge })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(/request of \d+ bytes is over the server's limit of 16777216 bytes/),
    });
    expect(await answersNext()).toBeLessThan(5_000);
  });

  it('a heavy call (a 1,000,000-character compact_history) does not keep the server from answering the next call within 5 s', async () => {
    const body = Array.from({ length: 25_000 }, (_, i) => `    value_${i} = compute_total(items[${i}], weight=${i % 17})  # step ${i}`)
      .join('\n')
      .slice(0, 250_000);
    const messages = [0, 1, 2, 3].map((i) => ({ id: `m${i}`, role: i === 0 ? 'user' : 'tool', content: body }));
    const t0 = performance.now();
    let bigDone = 0;
    const big = call('compact_history', { messages, strategy: 'reactive', tokens: 1000 }, 300_000).then((r) => {
      bigDone = performance.now() - t0;
      return r;
    });
    const smallMs = await answersNext();
    const smallDone = performance.now() - t0;
    const r = await big;
    expect(r.text).toMatch(/^\[ctxprune: reactive, \d+ → \d+ tokens \(budget 1000\)/);
    expect(smallMs).toBeLessThan(5_000);
    // Where the heavy call is slow (seconds here), the small one was answered first.
    if (bigDone > smallDone + 1_000) expect(smallDone).toBeLessThan(bigDone);
    console.log(`heavy compact_history ${bigDone.toFixed(0)} ms; the call sent after it answered in ${smallMs.toFixed(0)} ms`);
  });

  /**
   * `name` over 400 modules written under `dir` (about 4 MB; removed after `more`), and `afterMs`
   * after it, once it is under way, the small read: the heavy answer, its time, and the small call's.
   */
  async function heavyThenNext(dir: string, name: string, args: Record<string, unknown>, afterMs = 300, more?: () => Promise<void>) {
    const big = join(root, dir);
    await mkdir(big);
    try {
      await writeModules(big);
      const t0 = performance.now();
      let bigDone = 0;
      const heavy = call(name, { ...args, path: dir }, 300_000).then((r) => {
        bigDone = performance.now() - t0;
        return r;
      });
      await new Promise((r) => setTimeout(r, afterMs));
      const smallMs = await answersNext();
      const smallDone = performance.now() - t0;
      const r = await heavy;
      console.log(`heavy ${name} ${bigDone.toFixed(0)} ms; the call sent ${afterMs} ms after it answered in ${smallMs.toFixed(0)} ms`);
      await more?.();
      return { r, bigDone, smallMs, smallDone };
    } finally {
      await rm(big, { recursive: true, force: true });
    }
  }

  it('a heavy pack_context (400 files, 4 MB) runs in a worker: the next call is answered within 5 s, before it ends', async () => {
    const task = 'the weighted sum of the items above the threshold in m17_step_42';
    const { r, bigDone, smallMs, smallDone } = await heavyThenNext('big', 'pack_context', { task, tokens: 20_000 });
    expect(r.text).toMatch(/^\[ctxprune: pack of big for the task: \d+\/20000 tokens/);
    expect(smallMs).toBeLessThan(5_000);
    // On the main thread, the small call waited for the pack's synchronous work to end; in a worker it does not.
    if (bigDone > 3_000) expect(smallDone).toBeLessThan(bigDone - 1_000);
  });

  it('a heavy locate_files (400 files) runs in a worker: the next call is answered within 5 s, and the right file ranks first', async () => {
    const { r, smallMs } = await heavyThenNext('bigloc', 'locate_files', { focus: 'the weighted sum in m17_step_42 is wrong', k: 3 });
    expect(r.text).toMatch(/^\[ctxprune: 3 of 400 files, best first; document score: \w+\]\n1\. bigloc\/module_17\.py /);
    expect(smallMs).toBeLessThan(5_000);
  });

  it('a heavy search_pruned (400 files) runs in a worker: the next call is answered within 5 s, and the hits are the same', async () => {
    // Every line of 400 files through a regex that never matches (the small read sent at once: the
    // search reads its files in the worker too); then a pattern that matches in one file.
    let hit = '';
    const { r, smallMs } = await heavyThenNext('bigsearch', 'search_pruned', { pattern: '(\\w+\\s*[(=]\\s*)+zzz$', focus: 'x' }, 0, async () => {
      hit = (await call('search_pruned', { pattern: 'def m17_step_4[2-3]\\(', focus: 'the weighted sum', path: 'bigsearch', tokens: 200 })).text;
    });
    expect(r.text).toBe('[ctxprune: 0 hits for regex "(\\\\w+\\\\s*[(=]\\\\s*)+zzz$" in 0 files (400 searched)]');
    expect(smallMs).toBeLessThan(5_000);
    const lines = hit.split('\n');
    expect(lines[0]).toMatch(
      /^\[ctxprune: 2 hits for regex "def m17_step_4\[2-3\]\\\\\(" in 1 file \(400 searched\); scorer lexical; read elided lines with read_pruned\]$/,
    );
    expect(lines[2]).toBe('== bigsearch/module_17.py (hits at lines 129, 132)');
    expect(lines).toContain('  129> def m17_step_42(items, weight=42):');
    expect(lines).toContain('  132> def m17_step_43(items, weight=43):');
  });

  it('a message that is not JSON-RPC is answered with an error and does not stop the server', async () => {
    const transport = server.transport!;
    const seen = new Promise<JSONRPCMessage>((ok) => {
      const prev = transport.onmessage;
      transport.onmessage = (m) => {
        if ('id' in m && m.id === 'bogus-1') ok(m);
        else prev?.(m);
      };
    });
    await transport.send({ jsonrpc: '2.0', id: 'bogus-1', method: 42 } as unknown as JSONRPCMessage);
    expect(await seen).toMatchObject({ id: 'bogus-1', error: { code: -32600, message: 'message is not a JSON-RPC 2.0 message' } });
    expect(await answersNext()).toBeLessThan(5_000);
    expect(server.stderr()).toContain('message is not a JSON-RPC 2.0 message');
  });
});

describe('read_pruned: binary files and hard links (#16 item 12)', { timeout: 60_000 }, () => {
  it('a binary file is refused with a note, with or without a focus: no raw control bytes', async () => {
    for (const [path, focus] of [
      ['blob.bin', ''],
      ['blob.bin', 'anything'],
      ['nul.py', ''],
      ['nul.py', 'x'],
    ]) {
      const r = await call('read_pruned', { path, focus });
      expect(r.isError, `${path} ${focus}`).toBe(true);
      expect(r.text).toMatch(new RegExp(`^\\[ctxprune: ${path.replace('.', '\\.')} looks binary \\(NUL byte at offset \\d+ of \\d+ bytes\\): not shown\\]$`));
    }
    const s = await call('search_pruned', { pattern: 'raw', focus: 'x' });
    expect(s.text).toMatch(/^\[ctxprune: 0 hits/);
  });

  it('a file with more than one hard link is refused (it may be a link to a file outside the root)', async () => {
    for (const focus of ['', 'secret']) {
      const r = await call('read_pruned', { path: 'hardlink.py', focus });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        '[ctxprune: refused: hardlink.py has 2 hard links; files with more than one are not served (a hard link can reach a file outside the root)]',
      );
    }
    const s = await call('search_pruned', { pattern: 'TOP-SECRET', focus: 'x' });
    expect(s.text).not.toContain('TOP-SECRET-CONTENT');
  });
});
