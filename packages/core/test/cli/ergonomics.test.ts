/** CLI ergonomics and bounded input (#16 items 4, 13). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closest, parseArgs } from '../../src/cli/args.js';
import { readBounded } from '../../src/cli/input.js';
import { main } from '../../src/cli/main.js';

const SAMPLES = join(import.meta.dirname, '../fixtures/samples');
const BIN = join(import.meta.dirname, '../../bin/ctxprune.js');
const COMMANDS = ['prune', 'bench', 'compact', 'locate', 'cards', 'mcp'];

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

describe('--help, -h and --version', { timeout: 60_000 }, () => {
  it('every subcommand prints its usage on --help or -h and exits 0', async () => {
    for (const name of COMMANDS) {
      for (const flag of ['--help', '-h']) {
        const c = capture();
        expect(await main([name, flag], c.io), `${name} ${flag}`).toBe(0);
        expect(c.out.join('\n')).toMatch(new RegExp(`^ctxprune ${name}: .+\\n\\nusage: ctxprune ${name} `));
        expect(c.err).toEqual([]);
      }
    }
    // Among other flags too, and `help prune`.
    const c = capture();
    expect(await main(['prune', 'x.py', '--query', 'q', '--help'], c.io)).toBe(0);
    expect(c.out.join('')).toContain('usage: ctxprune prune FILE|- --query TEXT');
    const d = capture();
    expect(await main(['help', 'prune'], d.io)).toBe(0);
    expect(d.out.join('')).toContain('usage: ctxprune prune FILE|-');
  }, 60_000);

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const c = capture();
      expect(await main([flag], c.io)).toBe(0);
      expect(c.out).toEqual([`ctxprune ${pkg.version}`]);
    }
  });
});

describe('unknown and conflicting options', { timeout: 60_000 }, () => {
  it('an unknown flag is an error naming the closest known one, exit 2', async () => {
    const cases: [string[], string][] = [
      [['prune', 'f.py', '--query', 'q', '--ratoi', '8'], 'unknown option --ratoi (did you mean --ratio?)'],
      [['prune', 'f.py', '--query', 'q', '--bogus'], 'unknown option --bogus [INVALID_OPTION]'],
      [['prune', 'f.py', '--querry', 'q'], 'unknown option --querry (did you mean --query?)'],
      [['prune', 'f.py', '-q', 'x'], 'unknown option -q'],
      [['compact', '--in', 'x.json', '--token', '5'], 'unknown option --token (did you mean --tokens?)'],
      [['mcp', '--rot', '.'], 'unknown option --rot (did you mean --root?)'],
      [['cards', '--task', 'x', '--tokens', '5', '--sintax'], 'unknown option --sintax (did you mean --syntax?)'],
    ];
    for (const [argv, msg] of cases) {
      const c = capture();
      expect(await main(argv, c.io), argv.join(' ')).toBe(2);
      expect(c.err.join('')).toContain(msg);
    }
  });

  it('--ratio with --tokens is an error', async () => {
    const c = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--ratio', '4', '--tokens', '100'], c.io)).toBe(2);
    expect(c.err.join('')).toBe('ctxprune prune: --ratio and --tokens are alternatives: give one [INVALID_OPTION]');
  });

  it('--language pyhton is an error listing the known languages, with a suggestion', async () => {
    const c = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--language', 'pyhton'], c.io)).toBe(2);
    expect(c.err.join('')).toBe(
      'ctxprune prune: unknown language "pyhton" (did you mean python?); known: python, typescript, tsx, javascript, go, rust, java, c, cpp, csharp, ruby, php (or auto) [INVALID_OPTION]',
    );
    const d = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--language', 'constructor'], d.io)).toBe(2);
    expect(d.err.join('')).toMatch(/unknown language "constructor"; known: python/);
    // Aliases still work.
    const e = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'pop', '--language', 'rs', '--scorer', 'lexical', '--json'], e.io)).toBe(0);
    expect(JSON.parse(e.out.join('')).stats.language).toBe('rust');
  }, 30_000);

  it('parseArgs: - is a positional, negative numbers are values, boolean flags take no value', () => {
    expect(parseArgs(['-', '--tokens', '-5'], [], ['tokens'])).toEqual({ positionals: ['-'], flags: new Map([['tokens', '-5']]) });
    expect(() => parseArgs(['--json=yes'], ['json'], [])).toThrow('--json takes no value');
    expect(parseArgs(['--json=false'], ['json'], []).flags.get('json')).toBe('false');
    expect(closest('ratoi', ['query', 'ratio', 'tokens'])).toBe('ratio');
    expect(closest('zzzzzz', ['query', 'ratio', 'tokens'])).toBeNull();
  });
});

describe('bounded input (#16 item 4)', { timeout: 90_000 }, () => {
  it('stops at the limit with INPUT_TOO_LARGE, for a file and for stdin', async () => {
    await expect(readBounded('/dev/zero', 1 << 20)).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
      message: '/dev/zero is over the limit of 1048576 bytes (1 MiB); stopped reading there',
    });
    const stdin = new PassThrough();
    const endless = setInterval(() => stdin.write(Buffer.alloc(1 << 16, 97)), 1);
    try {
      await expect(readBounded('-', 1 << 20, stdin)).rejects.toMatchObject({
        code: 'INPUT_TOO_LARGE',
        message: expect.stringMatching(/^stdin is over the limit/),
      });
    } finally {
      clearInterval(endless);
    }
    const small = new PassThrough();
    small.end('abc');
    expect((await readBounded('-', 10, small)).toString()).toBe('abc');
  });

  it('reads a regular file at once, to the byte, up to the limit; errors are typed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-input-'));
    try {
      const file = join(dir, 'ten.txt');
      writeFileSync(file, '0123456789');
      expect((await readBounded(file, 10)).toString()).toBe('0123456789');
      await expect(readBounded(file, 9)).rejects.toMatchObject({
        code: 'INPUT_TOO_LARGE',
        message: `${file} is over the limit of 9 bytes (0 MiB); stopped reading there`,
      });
      writeFileSync(file, '');
      expect((await readBounded(file, 10)).length).toBe(0);
      await expect(readBounded(join(dir, 'missing.txt'), 10)).rejects.toMatchObject({
        code: 'INVALID_OPTION',
        message: expect.stringMatching(/^cannot read .*missing\.txt: ENOENT/),
      });
      await expect(readBounded(dir, 10)).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringMatching(/EISDIR/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A file whose size says 0 but that holds text (procfs) is read to its end.
    if (existsSync('/proc/self/status')) expect((await readBounded('/proc/self/status', 1 << 20)).toString()).toMatch(/^Name:/);
  });

  it.skipIf(!existsSync(join(import.meta.dirname, '../../dist/cli/main.js')))(
    'ctxprune prune /dev/zero exits 2 with INPUT_TOO_LARGE and stays small; - reads stdin',
    () => {
      const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, BIN, 'prune', '/dev/zero', '--query', 'x', '--scorer', 'lexical'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('ctxprune prune: /dev/zero is over the limit of 25165824 bytes (24 MiB); stopped reading there [INPUT_TOO_LARGE]');
      const rss = Number(/maxrss_kb=(\d+)/.exec(r.stderr)![1]);
      expect(rss).toBeLessThan(400_000); // it was 2.2 GB; measured ~150 MB
      const piped = spawnSync(process.execPath, [BIN, 'prune', '-', '--query', 'pop empty', '--tokens', '120', '--language', 'rust', '--scorer', 'lexical'], {
        input: readFileSync(join(SAMPLES, 'ring.rs')),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(piped.status).toBe(0);
      expect(piped.stdout).toContain('pub fn pop');
    },
    90_000,
  );
});
