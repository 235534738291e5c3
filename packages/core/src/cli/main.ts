/**
 * `ctxprune <command>`: each command lives in commands/<name>.ts and registers below.
 * Commands print results to stdout and return an exit code; errors go to stderr.
 */
import { isCtxpruneError } from '../errors.js';
import { own } from '../util/own.js';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  prune: () => import('./commands/prune.js').then((m) => m.command),
  bench: () => import('./commands/bench.js').then((m) => m.command),
  compact: () => import('./commands/compact.js').then((m) => m.command),
  locate: () => import('./commands/locate.js').then((m) => m.command),
  cards: () => import('./commands/cards.js').then((m) => m.command),
  mcp: () => import('./commands/mcp.js').then((m) => m.command),
};

export function registerCommand(name: string, load: () => Promise<Command>): void {
  commands[name] = load;
}

const stdio: CliIo = {
  out: (s) => process.stdout.write(s.endsWith('\n') ? s : s + '\n'),
  err: (s) => process.stderr.write(s.endsWith('\n') ? s : s + '\n'),
};

async function help(io: CliIo): Promise<void> {
  io.out('ctxprune — prune code and agent context for a query, client-side\n\nCommands:');
  for (const [name, load] of Object.entries(commands)) {
    const c = await load();
    io.out(`  ${name.padEnd(9)} ${c.summary}\n            ${c.usage}`);
  }
}

export async function main(argv: string[], io: CliIo = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    await help(io);
    return name ? 0 : 1;
  }
  const load = own(commands, name);
  if (!load) {
    io.err(`ctxprune: unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
    return 2;
  }
  try {
    return await (await load()).run(rest, io);
  } catch (e) {
    if (isCtxpruneError(e)) {
      io.err(`ctxprune ${name}: ${e.message} [${e.code}]`);
      return 2;
    }
    throw e;
  }
}
