/**
 * `ctxprune <command>`: each command lives in commands/<name>.ts and registers below.
 * Commands print results to stdout and return an exit code; errors go to stderr.
 */
import { configureFromEnvironment } from '../environment.js';
import { isCtxpruneError } from '../errors.js';
import { own } from '../util/own.js';
import { processIo, type CliIo } from './stdio.js';

export type { CliIo } from './stdio.js';
export { flushed } from './stdio.js';

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  prune: () => import('./commands/prune.js').then((m) => m.command),
  bench: () => import('./commands/bench.js').then((m) => m.command),
  compact: () => import('./commands/compact.js').then((m) => m.command),
  overflow: () => import('./commands/overflow.js').then((m) => m.command),
  locate: () => import('./commands/locate.js').then((m) => m.command),
  cards: () => import('./commands/cards.js').then((m) => m.command),
  pack: () => import('./commands/pack.js').then((m) => m.command),
  mcp: () => import('./commands/mcp.js').then((m) => m.command),
};

async function help(io: CliIo): Promise<void> {
  io.out(
    `ctxprune ${await version()} — prune code and agent context for a query, client-side\n\nusage: ctxprune COMMAND [options]   (ctxprune COMMAND --help for one command; ctxprune --version)\n\nCommands:`,
  );
  for (const [name, load] of Object.entries(commands)) {
    const c = await load();
    io.out(`  ${name.padEnd(9)} ${c.summary}\n            ${c.usage}`);
  }
}

/** The package's version, from its package.json (two folders up from src/cli and dist/cli). */
export async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** `--help` / `-h` anywhere before a `--` asks for help. */
const wantsHelp = (argv: string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] ? own(commands, rest[0]) : undefined;
    if (topic) {
      const c = await topic();
      io.out(`${c.summary}\n\nusage: ${c.usage}`);
      return 0;
    }
    await help(io);
    return name ? 0 : 1;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`ctxprune ${await version()}`);
    return 0;
  }
  const load = own(commands, name);
  if (!load) {
    io.err(`ctxprune: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
    return 2;
  }
  try {
    const command = await load();
    if (wantsHelp(rest)) {
      io.out(`ctxprune ${name}: ${command.summary}\n\nusage: ${command.usage}`);
      return 0;
    }
    // The one place the CLI's environment variables become configuration (environment.ts).
    configureFromEnvironment(process.env);
    return await command.run(rest, io);
  } catch (e) {
    if (isCtxpruneError(e)) {
      io.err(`ctxprune ${name}: ${e.message} [${e.code}]`);
      return 2;
    }
    throw e;
  }
}
