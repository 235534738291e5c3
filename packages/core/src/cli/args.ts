/**
 * Tiny argv parser: `--flag value`, `--flag=value`, boolean `--flag`, positionals (`-` is one:
 * stdin). With `valueFlags` given, any other `--flag` (or `-x`) is an error that names the
 * closest known flag: `unknown option --ratoi (did you mean --ratio?)`.
 */
import { CtxpruneError } from '../errors.js';

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The known name closest to `name` (at most 2 edits, or a third of its length), or null. */
export function closest(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

export function parseArgs(argv: string[], booleanFlags: readonly string[] = [], valueFlags?: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const known = valueFlags ? [...booleanFlags, ...valueFlags] : null;
  const unknown = (shown: string, name: string) => {
    const hint = known ? closest(name, known) : null;
    return new CtxpruneError('INVALID_OPTION', `unknown option ${shown}${hint ? ` (did you mean --${hint}?)` : ''}`);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (known && !known.includes(name)) throw unknown(`--${name}`, name);
      if (booleanFlags.includes(name)) {
        if (eq >= 0 && !['true', 'false'].includes(a.slice(eq + 1))) throw new CtxpruneError('INVALID_OPTION', `--${name} takes no value`);
        flags.set(name, eq >= 0 ? a.slice(eq + 1) : true);
      } else if (eq >= 0) flags.set(name, a.slice(eq + 1));
      else if (i + 1 < argv.length) flags.set(name, argv[++i]);
      else throw new CtxpruneError('INVALID_OPTION', `--${name} needs a value`);
    } else if (known && a.length > 1 && a.startsWith('-') && !/^-\d/.test(a)) {
      throw unknown(a, a.slice(1));
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
