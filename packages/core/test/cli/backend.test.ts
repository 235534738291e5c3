/**
 * `prune --backend` and the one-shot default: a `ctxprune prune` process runs the model on the js
 * executor (no onnxruntime start-up) unless a backend is given or the file is long.
 */
import { spawnSync } from 'node:child_process';
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
