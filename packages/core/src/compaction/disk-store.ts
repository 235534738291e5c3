/**
 * The overflow store on disk (Node only): what compaction evicts or cuts stays retrievable after
 * the call that compacted it, by the key its placeholder names (`read_overflow <key>`).
 *
 * Where: the directory it is given. The programs (the CLI's `overflow`, the MCP server) give it
 * `defaultStateDir(process.env)`: `$CTXPRUNE_STATE_DIR`, else `$XDG_STATE_HOME/ctxprune/overflow`,
 * else `~/.local/state/ctxprune/overflow`; the library itself reads no environment variable.
 * One file per key, holding the
 * original text byte for byte (UTF-8). Bounded: entries older than `ttlMs` (default 7 days) are
 * removed, and when the files take more than `maxBytes` (default 256 MiB) the least recently
 * used go first. A key is `ovf_` + 8 hex digits (+ `_n` on a hash clash inside one compaction):
 * anything else is refused, so a key can never name a path.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CtxpruneError } from '../errors.js';
import type { OverflowStore } from './store.js';

export const OVERFLOW_KEY = /^ovf_[0-9a-f]{8}(?:_\d{1,6})?$/;

export interface DiskStoreOptions {
  /** The directory of the store (created on the first write), e.g. `defaultStateDir(process.env)`. */
  dir: string;
  /** Entries unused for longer are removed. Default 7 days. */
  ttlMs?: number;
  /** Total size kept at most (least recently used removed first). Default 256 MiB. */
  maxBytes?: number;
}

/**
 * The documented state directory for the variables `env` (the caller passes `process.env`):
 * $CTXPRUNE_STATE_DIR, else $XDG_STATE_HOME/ctxprune/overflow, else `home`/.local/state/ctxprune/overflow.
 */
export function defaultStateDir(env: Readonly<Record<string, string | undefined>>, home: string = homedir()): string {
  if (env.CTXPRUNE_STATE_DIR) return env.CTXPRUNE_STATE_DIR;
  const base = env.XDG_STATE_HOME || join(home, '.local', 'state');
  return join(base, 'ctxprune', 'overflow');
}

export class DiskOverflowStore {
  readonly dir: string;
  readonly ttlMs: number;
  readonly maxBytes: number;

  constructor(opts: DiskStoreOptions) {
    this.dir = opts.dir;
    this.ttlMs = opts.ttlMs ?? 7 * 24 * 3600 * 1000;
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  }

  private path(key: string): string {
    if (!OVERFLOW_KEY.test(key))
      throw new CtxpruneError('INVALID_OPTION', `not an overflow key: ${JSON.stringify(key.slice(0, 40))} (expected ovf_ and 8 hex digits)`);
    return join(this.dir, `${key}.txt`);
  }

  /** Store one original; the newest write of a key wins. */
  put(key: string, content: string): void {
    const p = this.path(key);
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${p}.${process.pid}.tmp`;
    writeFileSync(tmp, content, 'utf8');
    renameSync(tmp, p);
  }

  /** Every entry of a compaction's store, then the bounds enforced. Returns the keys written. */
  save(store: OverflowStore): string[] {
    const keys = store.keys();
    for (const k of keys) this.put(k, store.get(k)!);
    if (keys.length) this.sweep();
    return keys;
  }

  /** The original text, or undefined when the key is unknown or expired. Reading renews the entry. */
  get(key: string): string | undefined {
    const p = this.path(key);
    let st;
    try {
      st = statSync(p);
    } catch {
      return undefined;
    }
    if (Date.now() - st.mtimeMs > this.ttlMs) {
      try {
        unlinkSync(p);
      } catch {
        /* already gone */
      }
      return undefined;
    }
    const text = readFileSync(p, 'utf8');
    const now = new Date();
    try {
      utimesSync(p, now, now);
    } catch {
      /* read-only store: still answer */
    }
    return text;
  }

  /** Remove expired entries, then the least recently used while over maxBytes. */
  sweep(now = Date.now()): { removed: number; bytes: number } {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return { removed: 0, bytes: 0 };
    }
    const files = names
      .filter((n) => n.endsWith('.txt') && OVERFLOW_KEY.test(n.slice(0, -4)))
      .map((n) => {
        try {
          const s = statSync(join(this.dir, n));
          return { n, size: s.size, t: s.mtimeMs };
        } catch {
          return null;
        }
      })
      .filter((f): f is { n: string; size: number; t: number } => f !== null)
      .sort((a, b) => a.t - b.t);
    let bytes = files.reduce((a, f) => a + f.size, 0);
    let removed = 0;
    for (const f of files) {
      if (now - f.t <= this.ttlMs && bytes <= this.maxBytes) continue;
      try {
        unlinkSync(join(this.dir, f.n));
        removed++;
        bytes -= f.size;
      } catch {
        /* raced */
      }
    }
    return { removed, bytes };
  }
}
