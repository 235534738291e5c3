/**
 * Lines a bug report points at (text/report.ts): a string literal whose words the report quotes
 * (an error message), a line the report quotes as code, the line and function of a stack frame
 * in this file, a function named by a frame elsewhere, and for a failing test the test itself
 * (when it is in this file) or the function it is named after (`test_parse_retry_negative` →
 * `parse_retry`). Each such line gets a bonus on the
 * semantic rubric's keep emission, scaled to the spread of that rubric's margins so that it
 * means the same for every scorer. Pure.
 */
import type { RubricEmissions } from '../crf/rubrics.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { flatten, parseReport, type ReportClues } from '../text/report.js';

/**
 * How many spreads (standard deviations of the semantic margin) a full clue adds. Chosen on the
 * validation corpus's issue-style cases (training/validation.py): at 8×, 0 → 0.622, 1 → 0.627,
 * 2 → 0.631 (error-message clues only at raising lines; on every string, 2 → 0.628); dev's
 * SWE-bench cases, reported only, stay at 0.531 with 1 and drop to 0.522 with 2, so 1.
 */
export const CLUE_WEIGHT = 1;
/** Lines where an error message is made: a report quoting one points at the line that raises it. */
const ERROR_SITE = /\b(raise|throw|Error|Exception|warn|warning|warnings|assert|reject|fail|abort|panic)\b|\.(error|warning|critical|fatal)\(/;

const STRING_LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
/** printf, str.format, f-string and template placeholders: a message is quoted around them. */
const PLACEHOLDER = /%[-+ #0-9.]*[sdrfxiXeEgGc]|\{[^{}]*\}|\$\{[^{}]*\}/g;
const MIN_MESSAGE_CHARS = 12;
const MIN_CODE_CHARS = 12;
const MAX_FRAGMENTS = 4000;
/** A tested function's name is at least this long (`test_get_x` does not name a function `get`). */
const MIN_TESTED_NAME = 4;

function compact(s: string): string {
  return s.replace(/\s+/g, '');
}

function pathTail(p: string, parts: number): string {
  return p.replace(/\\/g, '/').split('/').filter(Boolean).slice(-parts).join('/').toLowerCase();
}

/** Whether a frame's path names this file: the same last two path parts, or the same name when the file has no folder. */
function sameFile(framePath: string, fileName: string): boolean {
  const depth = fileName.replace(/\\/g, '/').split('/').filter(Boolean).length;
  const parts = Math.min(2, depth);
  return parts > 0 && pathTail(framePath, parts) === pathTail(fileName, parts);
}

/** Per line, in [0, 1]: how directly the report points at it. */
export function clueStrengths(clues: ReportClues, lines: string[], st: FileStructure, fileName?: string): Float64Array {
  const n = lines.length;
  const bonus = new Float64Array(n);
  const set = (t: number, v: number) => {
    if (t >= 0 && t < n && bonus[t] < v) bonus[t] = v;
  };

  // Error messages the report quotes, at the lines that raise, throw or log them.
  if (clues.flat.length) {
    let fragments = 0;
    for (let t = 0; t < n && fragments < MAX_FRAGMENTS; t++) {
      const line = lines[t];
      if (line.indexOf('"') < 0 && line.indexOf("'") < 0 && line.indexOf('`') < 0) continue;
      if (!ERROR_SITE.test(line)) continue;
      STRING_LITERAL.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = STRING_LITERAL.exec(line)) && fragments < MAX_FRAGMENTS) {
        for (const piece of m[2].split(PLACEHOLDER)) {
          const f = flatten(piece).trim();
          if (f.length < MIN_MESSAGE_CHARS || !/[a-z]{2,}[^a-z]+[a-z]{2,}/.test(f)) continue;
          fragments++;
          if (clues.flat.includes(f)) {
            set(t, 1);
            break;
          }
        }
      }
    }
  }

  // Code the report quotes, line for line (whitespace aside).
  if (clues.code.length) {
    const quoted = new Set<string>();
    for (const c of clues.code) {
      const k = compact(c);
      if (k.length >= MIN_CODE_CHARS) quoted.add(k);
    }
    if (quoted.size)
      for (let t = 0; t < n; t++) {
        const k = compact(lines[t]);
        if (k.length >= MIN_CODE_CHARS && quoted.has(k)) set(t, 1);
      }
  }

  if (!clues.frames.length && !clues.tests.length) return bonus;
  const defsByName = new Map<string, number[]>();
  for (const [row, names] of st.definedNames) {
    for (const name of names) {
      let l = defsByName.get(name);
      if (!l) defsByName.set(name, (l = []));
      l.push(row);
    }
  }

  // Failing tests: the test where it is defined here; else the longest function name here that
  // the test's name starts with after `test_`, whole words only (`test_parse_retry_negative` names
  // `parse_retry`, not `parse`, when both exist; `test_header_parser_x` names `HeaderParser`),
  // weighted like a frame's function elsewhere. Functions and classes only: an import or a
  // variable of that name is not what is tested.
  if (clues.tests.length) {
    const tested: { bare: string; rows: number[] }[] = [];
    for (const [name, all] of defsByName) {
      const rows = all.filter((row) => st.kind[row] === LineKind.DefHeader);
      const bare = name
        .replace(/^_+/, '')
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase();
      if (rows.length && bare.length >= MIN_TESTED_NAME) tested.push({ bare, rows });
    }
    for (const test of clues.tests) {
      const own = defsByName.get(test);
      if (own) {
        for (const row of own) set(row, 0.8);
        continue;
      }
      const subject = test.slice('test_'.length);
      let best: { bare: string; rows: number[] } | undefined;
      for (const d of tested) {
        if ((!best || d.bare.length > best.bare.length) && (subject === d.bare || subject.startsWith(d.bare + '_'))) best = d;
      }
      for (const row of best?.rows ?? []) set(row, 0.4);
    }
  }

  // Stack frames: in this file, its line and its function; elsewhere, a function of that name here.
  if (clues.frames.length) {
    for (const f of clues.frames) {
      const here = fileName !== undefined && sameFile(f.path, fileName);
      if (here && f.line >= 1 && f.line <= n) set(f.line - 1, 1);
      if (f.func) for (const row of defsByName.get(f.func) ?? []) set(row, here ? 0.8 : 0.4);
    }
  }
  return bonus;
}

/**
 * The rubric emissions with the report's clues added to the semantic head's keep emission.
 * Unchanged (the same object) when the query is no report or points at nothing here.
 */
export function withReportClues(
  r: RubricEmissions,
  query: string,
  lines: string[],
  st: FileStructure,
  fileName?: string,
  weight = CLUE_WEIGHT,
): RubricEmissions {
  if (weight === 0 || query.length < 20) return r;
  const bonus = clueStrengths(parseReport(query), lines, st, fileName);
  let any = false;
  for (let t = 0; t < r.n && !any; t++) any = bonus[t] > 0;
  if (!any) return r;
  const sem = r.heads[0];
  let sum = 0,
    sq = 0;
  for (let t = 0; t < r.n; t++) {
    const m = sem[2 * t + 1] - sem[2 * t];
    sum += m;
    sq += m * m;
  }
  const mean = sum / r.n;
  const spread = Math.sqrt(Math.max(1e-12, sq / r.n - mean * mean));
  const boosted = sem.slice();
  for (let t = 0; t < r.n; t++) if (bonus[t] > 0) boosted[2 * t + 1] += weight * spread * bonus[t];
  return { ...r, heads: [boosted, ...r.heads.slice(1)] };
}
