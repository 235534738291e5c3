/**
 * `prune --backend` and the one-shot default: a `ctxprune prune` (or `compact`) process runs the
 * model on the js executor (no onnxruntime start-up) unless a backend is given or the input is long.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { configureRuntime } from '../../src/runtime/config.js';

const SAMPLES = join(import.meta.dirname, '../fixtures/samples');
const BIN = join(import.meta.dirname, '../../bin/ctxprune.js');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

describe('ctxprune prune --backend', () => {
  afterEach(() => {
    configureRuntime({ backend: 'auto' });
  });

  it('an unknown backend is refused before the file is read', async () => {
    const c = capture();
    expect(await main(['prune', '/nonexistent/file.py', '--query', 'q', '--ratio', '4', '--backend', 'cuda'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/unknown backend "cuda" \(auto, webgpu, wasm, js\)/);
  });

  it('--backend js runs the model on the js executor', async () => {
    const c = capture();
    const args = ['prune', join(SAMPLES, 'rate_limiter.py'), '--query', 'retry after', '--ratio', '4', '--scorer', 'neural', '--backend', 'js', '--json'];
    expect(await main(args, c.io)).toBe(0);
    expect(JSON.parse(c.out.join('')).stats.backend).toBe('js');
  }, 60_000);

  it('a one-shot process (bin/ctxprune.js) uses the js executor by default, WASM when asked', () => {
    const run = (...extra: string[]) =>
      spawnSync(
        process.execPath,
        [BIN, 'prune', join(SAMPLES, 'rate_limiter.py'), '--query', 'retry after', '--ratio', '4', '--scorer', 'neural', '--json', ...extra],
        {
          encoding: 'utf8',
          env: { ...process.env, CTXPRUNE_V8_DEFAULTS: undefined },
        },
      );
    const byDefault = run();
    expect(byDefault.status, byDefault.stderr).toBe(0);
    const wasm = run('--backend', 'wasm');
    expect(wasm.status, wasm.stderr).toBe(0);
    const [a, b] = [JSON.parse(byDefault.stdout), JSON.parse(wasm.stdout)];
    expect([a.stats.backend, b.stats.backend]).toEqual(['js', 'wasm']);
    expect(a.keptLines).toEqual(b.keptLines);
  }, 60_000);
});

describe('a one-shot ctxprune compact process', () => {
  it('cuts as the same compaction in a caller process does (js executor there, onnxruntime here)', async () => {
    const source = readFileSync(join(SAMPLES, 'rate_limiter.py'), 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-oneshot-'));
    const path = join(dir, 't.json');
    writeFileSync(
      path,
      JSON.stringify({
        id: 't',
        messages: [
          { id: 'u', role: 'user', content: 'How is Retry-After parsed when the header holds a date?' },
          { id: 'a', role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c', name: 'read_file', arguments: '{"path":"rate_limiter.py"}' }] },
          { id: 'r', role: 'tool', toolName: 'read_file', toolCallId: 'c', content: source },
          { id: 'a2', role: 'assistant', content: 'Read it.' },
          { id: 'u2', role: 'user', content: 'Go on.' },
        ],
      }),
    );
    const args = ['compact', '--in', path, '--strategy', 'task_aware_mig', '--tokens', '600', '--scorer', 'neural', '--json'];
    const oneShot = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CTXPRUNE_V8_DEFAULTS: undefined } });
    expect(oneShot.status, oneShot.stderr).toBe(0);
    const c = capture();
    expect(await main(args, c.io)).toBe(0);
    const [a, b] = [JSON.parse(oneShot.stdout), JSON.parse(c.out.join(''))];
    expect(a.pruned).toEqual(['r']);
    expect(a.dump.cutScorers).toEqual(['neural']);
    expect(a.messages).toEqual(b.messages);
  }, 60_000);
});
