/**
 * The `prune` bundle that bin/ctxprune.js runs for `prune` (dist/cli-bundle, made by `npm run
 * build`: scripts/bundle-cli.mjs, #15 CLI start-up): it is built after dist/cli, answers --help and
 * --version, and prints byte for byte what the modules of dist/cli print.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = join(import.meta.dirname, '../..');
const BIN = join(CORE, 'bin/ctxprune.js');
const BUNDLE = join(CORE, 'dist/cli-bundle/main.js');
const MODULES = join(CORE, 'dist/cli/main.js');

/** `main(args)` of one entry module, in a one-shot process as bin/ctxprune.js makes it. */
function run(entry: string, args: string[]) {
  const code = `const m = await import(${JSON.stringify(entry)}); process.exitCode = await m.main(process.argv.slice(1));`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', code, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CTXPRUNE_ONE_SHOT: '1' },
  });
}

describe.skipIf(!existsSync(MODULES))('the prune bundle (dist/cli-bundle)', () => {
  it('is built, after dist/cli (else bin/ctxprune.js would not use it)', () => {
    expect(existsSync(BUNDLE)).toBe(true);
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThanOrEqual(statSync(MODULES).mtimeMs);
  });

  it('answers --version and prune --help', () => {
    expect(run(BUNDLE, ['--version']).stdout).toBe(run(MODULES, ['--version']).stdout);
    const help = run(BUNDLE, ['prune', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ctxprune prune: prune one file/);
  });

  it('prunes as dist/cli does, and bin/ctxprune.js prints the same', () => {
    for (const file of [join(CORE, 'test/fixtures/samples/rate_limiter.py'), join(CORE, 'src/text/elision.ts')]) {
      const args = ['prune', file, '--query', 'how is the token budget counted', '--ratio', '4', '--scorer', 'lexical'];
      const want = run(MODULES, args);
      expect(want.status).toBe(0);
      expect(run(BUNDLE, args).stdout).toBe(want.stdout);
      expect(spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' }).stdout).toBe(want.stdout);
    }
  }, 60_000);
});
