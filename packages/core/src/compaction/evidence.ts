/**
 * Which message deserves the budget. By default (`documentScorer: 'bm25'`) the task-aware
 * strategies rate each message as a whole by BM25 of the goal; with a line scorer named instead,
 * by that scorer's document score with the goal as the query ('auto': the model where it loads,
 * as locate_files reranks files). On the validation transcripts (`ctxprune bench compaction
 * --transcripts val`, 54) the read that holds the fix scores first of the five reads in 42 by
 * the model's document score, 33 by BM25; on the 48 of `--transcripts wide`, 26 and 25. Opt-in:
 * it loads the model (seconds) on the first compaction. Loaded lazily.
 *
 * Besides the text, the transcript names files: a grep result lists `path:line:` hits, a traceback
 * its frames, the task or the agent's plan a file. `namedScores` counts, for each tool result whose
 * call names a file (pairs.ts), the lines of the other messages that name that path; the task-aware
 * strategies blend it into the whole message's relevance (`mentionWeight`, relevance.ts). A user's
 * own words name a file more loosely and more surely (`Update rendering.ts`, `fix: … in switcher`):
 * `taskNamed` says which reads they name, and those get at least a floor of relevance.
 */
import type { DocumentScoreFn } from '../locate/document-score.js';
import type { Pairs } from './pairs.js';
import type { CompactOptions, Message } from './types.js';

/** The document score the task-aware strategies rate whole messages with, or null for BM25. */
export async function documentEvidence(scorer: CompactOptions['documentScorer']): Promise<DocumentScoreFn | null> {
  if (scorer === undefined || scorer === 'bm25') return null;
  const [{ documentScoreFromScorer }, { resolveScorer }] = await Promise.all([import('../locate/document-score.js'), import('../scorers/registry.js')]);
  // A scorer that does not load (an unknown name, 'neural' without its model) leaves BM25.
  const loaded = typeof scorer === 'string' ? await resolveScorer(scorer).catch(() => null) : scorer;
  return loaded ? documentScoreFromScorer(loaded) : null;
}

/** A character that may continue a path (so `lib/a.js` is not named by `lib/a.jsx` or `mylib/a.js`). */
const PATH_CHAR = /[\w.\-/\\]/;

/** Whether `line` names `path`: the path, preceded by a '/' or a character no path holds, and not continued by one. */
export function namesPath(line: string, path: string): boolean {
  return occursAsPath(line, path, true);
}

/** Whether `line` names a file by its base name alone (`rendering.ts`), not as the end of a longer path. */
export function namesBase(line: string, base: string): boolean {
  return occursAsPath(line, base, false);
}

/** `name` in `line`, not continued by a path character, nor preceded by one (but a '/' when `afterSlash`). */
function occursAsPath(line: string, name: string, afterSlash: boolean): boolean {
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : line[at - 1];
    const end = at + name.length;
    // A sentence's full stop after the path is not part of it.
    const after = line[end] === '.' && !PATH_CHAR.test(line[end + 1] ?? '') ? '' : (line[end] ?? '');
    if (((afterSlash && before === '/') || !PATH_CHAR.test(before)) && !PATH_CHAR.test(after)) return true;
  }
  return false;
}

/** The path the call of message `i` reads, with `/` separators and no leading `./`; '' when none. */
function readPath(pairs: Pairs, i: number): string {
  const f = pairs.fileOf.get(i);
  return f === undefined ? '' : f.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/** A stem shorter than this (`app`, `io`, `cli`) is too common a word to name a file. */
const MIN_STEM_CHARS = 4;

/**
 * For each message of `msgs`: whether a user message (the task, or a later request) names the file
 * its call reads, by its path, its base name (`rendering.ts`) or its stem as a word, in any case
 * (`… in switcher` names `src/switcher.ts`; `types: add …` names `src/types.ts`).
 */
export function taskNamed(messages: readonly Message[], pairs: Pairs, msgs: readonly number[]): boolean[] {
  const users = messages.filter((m) => m.role === 'user').flatMap((m) => m.content.split('\n'));
  return msgs.map((i) => {
    const path = readPath(pairs, i);
    if (path.length < 3) return false;
    const base = path.slice(path.lastIndexOf('/') + 1);
    const stem = base.replace(/\.[^.]*$/, '');
    const word = stem.length >= MIN_STEM_CHARS ? new RegExp(`(?:^|[^A-Za-z0-9_$])${stem.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?:[^A-Za-z0-9_$]|$)`, 'i') : null;
    return users.some((line) => namesPath(line, path) || (base.length >= 3 && namesBase(line, base)) || (word !== null && word.test(line)));
  });
}

/**
 * For each message of `msgs`: how strongly the rest of the transcript names the file its call
 * reads, log(1 + lines naming it) / log(1 + the most any of `msgs` gets), in 0..1; all zeros when
 * no file is named (then the evidence says nothing). A message's own call does not count, nor
 * paths shorter than 3 characters.
 */
export function namedScores(messages: readonly Message[], pairs: Pairs, msgs: readonly number[]): number[] {
  const counts = msgs.map((i) => {
    const path = readPath(pairs, i);
    if (path.length < 3) return 0;
    const own = pairs.callOf.get(i);
    let n = 0;
    messages.forEach((m, j) => {
      if (j === i || j === own || !m.content.includes(path)) return;
      for (const line of m.content.split('\n')) if (namesPath(line, path)) n++;
    });
    return n;
  });
  const max = Math.max(0, ...counts);
  return counts.map((c) => (max > 0 ? Math.log1p(c) / Math.log1p(max) : 0));
}
