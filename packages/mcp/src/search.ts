/**
 * search_pruned's search — read the file or the tree under a directory and find the lines that match
 * the caller's pattern — apart from the tool, so that it runs in a pool worker (pool.ts,
 * core-worker.ts) like prune, compact, pack and locate: over 20,000 files the matching loop is
 * seconds of synchronous work that must not hold the server's event loop. The tool prunes the
 * files with hits and formats the answer.
 */
import { stat } from 'node:fs/promises';
import { readTree } from '@ctxprune/core/node';
import { binaryReason, hardLinkReason, readBounded } from './files.js';
import { makeMatcher } from './matcher.js';

export interface SearchJobOptions {
  /** The file or directory to search (resolved, inside the root). */
  real: string;
  /** Its path relative to the root ('.' for the root): the prefix of the paths reported. */
  rel: string;
  pattern: string;
  maxFiles: number;
  maxFileBytes: number;
  /** Hits reported at most, and files with hits at most. */
  maxMatches: number;
  maxMatchFiles: number;
}

export interface SearchJobResult {
  /** How the pattern was matched: an RE2 regex, or the literal string (`why`: the pattern is not RE2 syntax). */
  kind: 'regex' | 'literal';
  why?: string;
  /** Files read and searched. */
  searched: number;
  /** Hits found (at most maxMatches), and whether the search stopped at a limit. */
  count: number;
  truncated: boolean;
  /** Each file with hits, in path order: its text and the 1-based lines that match. */
  hits: { path: string; text: string; at: number[] }[];
}

/** Read and match. A file or tree that cannot be read throws. */
export async function searchJob(o: SearchJobOptions): Promise<SearchJobResult> {
  const matcher = makeMatcher(o.pattern);
  let files: Map<string, string>;
  const st = await stat(o.real);
  if (st.isFile()) {
    const buf = await readBounded(o.real, st.size, o.maxFileBytes);
    files = hardLinkReason(o.rel, st) || binaryReason(buf) ? new Map<string, string>() : new Map([[o.rel, buf.toString('utf8')]]);
  } else {
    const tree = await readTree(o.real, { maxFiles: o.maxFiles, maxFileBytes: o.maxFileBytes, maxLinks: 1 });
    files = new Map([...tree].map(([p, t]) => [o.rel === '.' ? p : `${o.rel}/${p}`, t]));
  }
  // Hits, bounded; lines over 4,000 characters are matched on their first 4,000.
  const hits: SearchJobResult['hits'] = [];
  let count = 0;
  let truncated = false;
  for (const [p, t] of files) {
    const lines = t.split('\n');
    const at: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i].length > 4000 ? lines[i].slice(0, 4000) : lines[i];
      if (matcher.test(l)) {
        if (count >= o.maxMatches) {
          truncated = true;
          break;
        }
        at.push(i + 1);
        count++;
      }
    }
    if (at.length) {
      if (hits.length >= o.maxMatchFiles) {
        truncated = true;
        break;
      }
      hits.push({ path: p, text: t, at });
    }
    if (truncated) break;
  }
  return { kind: matcher.kind, ...(matcher.why ? { why: matcher.why } : {}), searched: files.size, count, truncated, hits };
}
