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
 *
 * BM25 of the whole message misses three more signs of the goal's file (`goalTermScores`): the
 * goal's words in its path (`fix(Response): …` and `falcon/response_helpers.py`), among the names
 * it defines, and how many of the goal's distinct words it holds at all (BM25 rewards one word
 * many times). They are added to the whole message's relevance.
 */
import type { DocumentScoreFn } from '../locate/document-score.js';
import { isTestPath } from '../locate/signals.js';
import { termsOf } from '../text/identifiers.js';
import { stem } from '../text/stem.js';
import { escapeRegExp } from '../util/regexp.js';
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
    const fileStem = base.replace(/\.[^.]*$/, '');
    const word = fileStem.length >= MIN_STEM_CHARS ? new RegExp(`(?:^|[^A-Za-z0-9_$])${escapeRegExp(fileStem)}(?:[^A-Za-z0-9_$]|$)`, 'i') : null;
    return users.some((line) => namesPath(line, path) || (base.length >= 3 && namesBase(line, base)) || (word !== null && word.test(line)));
  });
}

/** A goal about tests, docs, fixtures, examples or benchmarks: their reads are what it needs. */
const ABOUT_TESTS = /\b(tests?|testing|specs?|unittests?|pytest|jest|vitest|mocha|fixtures?|docs?|documentation|examples?|benchmarks?)\b/i;

/**
 * For each message of `msgs`: whether its call reads a test, docs, fixture, example or benchmark
 * file (locate's isTestPath) while the goal is not about those. Such a read shows what the code
 * should do; the lines a task changes are seldom there, so the task-aware strategies rate it lower
 * unless a user names it. A goal that speaks of tests or docs ("add tests for …", "fix the docs")
 * needs them: none is marked then.
 */
export function testReads(goal: string, pairs: Pairs, msgs: readonly number[]): boolean[] {
  if (ABOUT_TESTS.test(goal)) return msgs.map(() => false);
  return msgs.map((i) => {
    const path = readPath(pairs, i);
    return path !== '' && isTestPath(path);
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

/** A line that defines a name: `def`/`class`/`function`/declarations, or a method header `name(…) {`. */
const DEFINITION =
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function\*?|interface|type|const|let|var|enum)\s+([A-Za-z_$][\w$]*)|^\s*(?:(?:public|private|protected|static|async|get|set|readonly|override)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{=]*)?\{\s*$/;
const MAX_DEFINITION_CHARS = 400;
const NOT_A_NAME = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'function', 'elif']);

/**
 * Weights of goalTermScores' three parts (two path words, three defined names, every goal word
 * count in full). Chosen on the tuning transcripts by how often the fixed file's read is rated
 * first among the reads (184 → 196 of 280; val 38 → 41 of 54, wide 28 → 29 of 48), then
 * measured end to end (benchmark-log, "The goal's words").
 */
export const GOAL_TERM_WEIGHTS = { path: 0.2, defined: 0.1, share: 0.4 };

const stems = (text: string): Set<string> => new Set(termsOf(text).map(stem));

/**
 * For each message of `msgs`: how much of the goal's vocabulary it carries, in three ways a
 * whole-message BM25 misses (0..0.7): the goal's words in the path its call reads (`fix(Response):
 * …` names `response_helpers.py`), among the names it defines, and the share of the goal's
 * distinct words it holds at all (BM25 rewards one word repeated; an edit's file holds most words).
 */
export function goalTermScores(goal: string, messages: readonly Message[], pairs: Pairs, msgs: readonly number[]): number[] {
  const want = [...stems(goal)];
  if (want.length === 0) return msgs.map(() => 0);
  return msgs.map((i) => {
    const text = messages[i].content;
    const inPath = stems(readPath(pairs, i).replace(/\.[A-Za-z0-9]+$/, ''));
    const defined = new Set<string>();
    for (const line of text.split('\n')) {
      // A definition's line is short; a minified line is not one.
      const m = line.length <= MAX_DEFINITION_CHARS ? DEFINITION.exec(line) : null;
      const name = m?.[1] ?? m?.[2];
      if (name && !NOT_A_NAME.has(name)) for (const t of stems(name)) defined.add(t);
    }
    const held = stems(text);
    const count = (set: Set<string>) => want.filter((t) => set.has(t)).length;
    const w = GOAL_TERM_WEIGHTS;
    return (w.path * Math.min(count(inPath), 2)) / 2 + (w.defined * Math.min(count(defined), 3)) / 3 + w.share * (count(held) / want.length);
  });
}
