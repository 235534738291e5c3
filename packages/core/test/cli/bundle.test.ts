/**
 * The `prune` bundle that bin/ctxprune.js runs for `prune` (dist/cli-bundle/prune.cjs with its V8
 * code cache, made by `npm run build`: scripts/bundle-cli.mjs and scripts/cli-code-cache.mjs; loaded
 * by bin/prune-bundle.js, #15 CLI start-up): it is built after dist/cli, V8 accepts its cache, its
 * import() calls reach packages and modules through the loader, and it prints byte for byte what
 * the modules of dist/cli print, with and without the cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE = join(import.meta.dirname, '../..');
const BIN = join(CORE, 'bin/ctxprune.js');
const LOADER = pathToFileURL(join(CORE, 'bin/prune-bundle.js')).href;
const BUNDLE = join(CORE, 'dist/cli-bundle/prune.cjs');
const MODULES = join(CORE, 'dist/cli/main.js');

/** Runs `code` (an ES module body) in a one-shot process as bin/ctxprune.js makes it. */
function node(code: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', code, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CTXPRUNE_ONE_SHOT: '1', ...env },
  });
}
const viaModules = (args: string[]) =>
  node(`const m = await import(${JSON.stringify(pathToFileURL(MODULES).href)}); process.exitCode = await m.main(process.argv.slice(1));`, args);
const viaBundle = (args: string[], useCache = true) =>
  node(
    `const m = await import(${JSON.stringify(LOADER)}); process.exitCode = await m.loadPruneBundle({ useCache: ${useCache} }).exports.main(process.argv.slice(1));`,
    args,
  );
const viaBin = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

describe.skipIf(!existsSync(MODULES))('the prune bundle (dist/cli-bundle)', () => {
  it('is built, after dist/cli (else bin/ctxprune.js would not use it), with its code cache', () => {
    expect(existsSync(BUNDLE)).toBe(true);
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThanOrEqual(statSync(MODULES).mtimeMs);
    expect(existsSync(`${BUNDLE}.cache`)).toBe(true);
  });

  it('is compiled from its code cache: V8 accepts it in a fresh process', () => {
    const r = node(`const m = await import(${JSON.stringify(LOADER)}); console.log(m.loadPruneBundle().cacheRejected);`, []);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('false\n');
  });

  it('answers --version, --help (every command module through the loader) and prune --help', () => {
    expect(viaBundle(['--version']).stdout).toBe(viaModules(['--version']).stdout);
    const help = viaBundle(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(viaModules(['--help']).stdout);
    const pruneHelp = viaBin(['prune', '--help']);
    expect(pruneHelp.status).toBe(0);
    expect(pruneHelp.stdout).toMatch(/^ctxprune prune: prune one file/);
  });

  it('prunes as dist/cli does, with and without the cache, and bin/ctxprune.js prints the same', () => {
    for (const file of [join(CORE, 'test/fixtures/samples/rate_limiter.py'), join(CORE, 'src/text/elision.ts')]) {
      for (const scorer of ['lexical', 'auto']) {
        const args = ['prune', file, '--query', 'how is the token budget counted', '--ratio', '4', '--scorer', scorer];
        const want = viaModules(args);
        expect(want.status).toBe(0);
        expect(viaBundle(args).stdout).toBe(want.stdout);
        expect(viaBundle(args, false).stdout).toBe(want.stdout);
        expect(viaBin(args).stdout).toBe(want.stdout);
      }
    }
  }, 120_000);

  /**
   * A ~340 KB `--json` (a file of 2,000 lines) through `sh -c "PREFIX bin … | (sleep 2; cat)"`:
   * what the slow reader got, what the bin printed straight to the test, and the run's stderr.
   */
  function throughSlowPipe(prefix: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-pipe-'));
    try {
      const file = join(dir, 'long.py');
      writeFileSync(file, readFileSync(join(CORE, 'test/fixtures/samples/rate_limiter.py'), 'utf8').repeat(20));
      const args = ['prune', file, '--query', 'how is the rate limited', '--ratio', '4', '--scorer', 'lexical', '--json'];
      const direct = viaBin(args);
      expect(direct.status).toBe(0);
      expect(Buffer.byteLength(direct.stdout)).toBeGreaterThan(200_000);
      const out = join(dir, 'out.json');
      const quoted = [...prefix, process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      const run = spawnSync('sh', ['-c', `${quoted} 2>'${join(dir, 'err.txt')}' | (sleep 2; cat) > '${out}'`]);
      expect(run.status).toBe(0);
      return { slow: JSON.parse(readFileSync(out, 'utf8')), direct: JSON.parse(direct.stdout), stderr: readFileSync(join(dir, 'err.txt'), 'utf8') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('writes all of a large output to a pipe whose reader is slow before it exits', () => {
    // The pipe takes 64 KB; the rest waits until the reader catches up (the bin once exited with
    // it still queued and cut a 170 KB --json short at 64 or 128 KB).
    const { slow, direct, stderr } = throughSlowPipe([]);
    expect(stderr).toBe('');
    expect(slow.text).toBe(direct.text);
    expect(slow.keptLines).toEqual(direct.keptLines);
  }, 60_000);

  it.skipIf(spawnSync('python3', ['--version']).status !== 0)(
    'writes all of it through the stream when stdout is a non-blocking pipe',
    () => {
      // src/cli/stdio.ts writes to the descriptor; a non-blocking one refuses (EAGAIN) once the pipe
      // is full, and the rest must go through Node's stream, drained before the process exits.
      const setNonBlocking =
        'import fcntl, os, sys; fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])';
      const { slow, direct, stderr } = throughSlowPipe(['python3', '-c', setNonBlocking]);
      expect(stderr).toBe('');
      expect(slow.text).toBe(direct.text);
      expect(slow.keptLines).toEqual(direct.keptLines);
    },
    60_000,
  );

  it("loads onnxruntime-web through the loader's import() (--backend wasm)", () => {
    const args = [
      'prune',
      join(CORE, 'src/text/elision.ts'),
      '--query',
      'how is the token budget counted',
      '--ratio',
      '4',
      '--scorer',
      'neural',
      '--backend',
      'wasm',
    ];
    const got = viaBin(args);
    expect(got.status).toBe(0);
    expect(got.stdout).toBe(viaModules(args).stdout);
    const stats = JSON.parse(viaBin([...args, '--json']).stdout).stats;
    expect([stats.scorer, stats.backend, stats.degraded]).toEqual(['neural', 'wasm', []]);
  }, 120_000);
});
