/** Tiny argv parser: `--flag value`, `--flag=value`, boolean `--flag`, positionals. */
import { CtxpruneError } from '../errors.js';

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export function parseArgs(argv: string[], booleanFlags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) flags.set(name, a.slice(eq + 1));
      else if (booleanFlags.includes(name)) flags.set(name, true);
      else if (i + 1 < argv.length) flags.set(name, argv[++i]);
      else throw new CtxpruneError('INVALID_OPTION', `--${name} needs a value`);
    } else positionals.push(a);
  }
  return { positionals, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function numberFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) throw new CtxpruneError('INVALID_OPTION', `--${name} must be a number, got "${v}"`);
  return n;
}

export function boolFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.get(name) === true || args.flags.get(name) === 'true';
}
