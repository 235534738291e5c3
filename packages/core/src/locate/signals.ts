/**
 * File localization, the per-file signals of the rerank: files the issue names (paths, dotted
 * modules, traceback frames), names a file defines, code-like identifiers of the issue, test
 * paths, and a best-window lexical score.
 */
import { idf } from '../retrieval/bm25.js';
import { cachedTerms, type FileIndex } from './file-index.js';

const TEST_PATH =
  /(^|\/)(tests?|testing|test_?data|fixtures?|functional|regrtest_data|input|examples?|docs?|doc|benchmarks?|__tests__|__mocks__|e2e|specs?)\//i;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$|\.(test|spec)\.[cm]?[jt]sx?$/i;
/** Tests, docs, fixtures, examples and benchmarks, by Python's and JavaScript's conventions (`__tests__/`, `*.test.ts`, `*.spec.js`). */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path) || TEST_FILE.test(path);
}

/** Paths, dotted modules and traceback frames named in the text → indices of files they denote. */
export function mentionedFiles(text: string, ix: FileIndex): Map<number, number> {
  const out = new Map<number, number>();
  const pos = new Map(ix.paths.map((p, i) => [p, i]));
  const bump = (i: number | undefined, w: number) => {
    if (i !== undefined) out.set(i, Math.max(out.get(i) ?? 0, w));
  };
  // Traceback frames and explicit paths: match by the longest path suffix.
  const frames = new Set<string>();
  for (const m of text.matchAll(/File "([^"]+\.py)"/g)) frames.add(m[1]);
  for (const m of text.matchAll(/([\w.-]+(?:[/\\][\w.-]+)*\.py)\b/g)) frames.add(m[1]);
  for (const f of frames) {
    const parts = f
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s && s !== '.');
    for (let k = Math.min(parts.length, 6); k >= 1; k--) {
      const suffix = parts.slice(-k).join('/');
      const hits = ix.paths.filter((p) => p === suffix || p.endsWith('/' + suffix));
      if (hits.length > 0 && hits.length <= 3) {
        for (const h of hits) bump(pos.get(h), k >= 2 ? 1 : 0.7);
        break;
      }
      if (hits.length > 3) break;
    }
  }
  // Dotted modules: `_pytest.capture`, `requests.sessions.Session` (longest resolvable prefix).
  for (const m of text.matchAll(/\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b/g)) {
    const segs = m[1].split('.');
    for (let k = segs.length; k >= 2; k--) {
      const p = ix.pyModules.get(segs.slice(0, k).join('.'));
      if (p) {
        bump(pos.get(p), 0.8);
        break;
      }
    }
  }
  return out;
}

const IDENT = /\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g;
const DEF_RE = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/gm;

/** Names defined in a Python file (def/class at any depth). */
export function definedNames(text: string): Set<string> {
  const out = new Set<string>();
  DEF_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DEF_RE.exec(text))) out.add(m[1]);
  return out;
}

/** Identifiers of the issue that look like code names (snake_case, CamelCase, dotted parts, backticked). */
export function issueIdentifiers(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.match(IDENT) ?? []) {
    if (/_/.test(m.slice(1)) || /[a-z][A-Z]/.test(m) || /^[A-Z][a-z]+[A-Z]/.test(m)) out.add(m);
  }
  for (const m of text.matchAll(/`([^`\n]{2,80})`/g)) for (const id of m[1].match(IDENT) ?? []) out.add(id);
  for (const m of text.matchAll(/\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b/g)) for (const id of m[0].split('.')) if (id.length >= 3) out.add(id);
  for (const m of text.matchAll(/\b([A-Za-z_]\w{2,})\(/g)) out.add(m[1]);
  return out;
}

/**
 * Alternative document score: the best BM25 of the query over ~40-line windows of each file (IDF from
 * the whole tree), so a file with one focused matching function beats one with scattered mentions.
 */
export function lexicalWindowScore(ix: FileIndex, queryTerms: string[], window = 40): (texts: string[]) => number[] {
  const q = new Map<string, number>();
  for (const t of queryTerms) q.set(t, idf(ix.bm25, t));
  const cache = new Map<string, string[]>();
  return (texts) =>
    texts.map((text) => {
      const lines = text.split('\n');
      let best = 0;
      for (let s = 0; s < lines.length; s += window / 2) {
        const terms = cachedTerms(lines.slice(s, s + window).join('\n'), cache);
        const tf = new Map<string, number>();
        for (const t of terms) if (q.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
        let sc = 0;
        for (const [t, f] of tf) sc += (q.get(t)! * f * 2.2) / (f + 1.2);
        best = Math.max(best, sc);
        if (s + window >= lines.length) break;
      }
      return best;
    });
}
