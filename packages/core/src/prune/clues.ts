/**
 * Lines a bug report points at (text/report.ts): a string literal whose words the report quotes
 * (an error message), a message template whose output it quotes (a log line), a line the report
 * quotes as code, the line and function of a stack frame in this file (the line only when the
 * source the traceback prints is that line), a function named by a frame elsewhere, the import
 * an import error fails on, the definition a call error names, and for a failing test the test
 * itself (when it is in this file) or the function it is named after (`test_parse_retry_negative`
 * → `parse_retry`). Each such line gets a bonus on the
 * semantic rubric's keep emission, scaled to the spread of that rubric's margins so that it
 * means the same for every scorer. Pure.
 */
import { marginSpread, type RubricEmissions } from '../crf/rubrics.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { flatten, parseReport, type ReportClues } from '../text/report.js';
import { escapeRegExp } from '../util/regexp.js';

/**
 * How many spreads (standard deviations of the semantic margin) a full clue adds. Chosen on the
 * validation corpus's issue-style cases (training/validation.py): at 8×, 0 → 0.622, 1 → 0.627,
 * 2 → 0.631 (error-message clues only at raising lines; on every string, 2 → 0.628); dev's
 * SWE-bench cases, reported only, stay at 0.531 with 1 and drop to 0.522 with 2, so 1.
 */
export const CLUE_WEIGHT = 1;
/** Lines where an error message is made: a report quoting one points at the line that raises it. */
const ERROR_SITE = /\b(raise|throw|Error|Exception|warn|warning|warnings|assert|reject|fail|abort|panic)\b|\.(error|warning|critical|fatal)\(/;

/** Lines that log or print a message: a report quoting their output points at them. */
const LOG_SITE = /\.(debug|info|log|warn|exception)\(|\b(print|console\.\w+)\(/;
/** A message template's fixed text has at least this many letters, placeholders aside. */
const MIN_TEMPLATE_LETTERS = 6;
/** Characters a placeholder of a template may stand for in the report. */
const MAX_FILLED = 200;
/** Places in the report a template's first piece is tried at (a short piece recurs). */
const MAX_TEMPLATE_STARTS = 64;

/**
 * Whether the report holds a message made from this template: its fixed pieces in order, the first
 * at the start of a word, each next within MAX_FILLED characters of the last (`"Hashing {}"`
 * made "Hashing Django-3.0.5.tar.gz").
 */
function templateIn(pieces: string[], flat: string): boolean {
  const parts = pieces.map((p) => flatten(p)).filter((p) => p.trim() !== '');
  let letters = 0;
  for (const p of parts) for (const ch of p) if (ch >= 'a' && ch <= 'z') letters++;
  if (letters < MIN_TEMPLATE_LETTERS) return false;
  let starts = 0;
  for (let from = flat.indexOf(parts[0]); from >= 0 && starts < MAX_TEMPLATE_STARTS; from = flat.indexOf(parts[0], from + 1)) {
    if (from > 0 && /[a-z0-9_]/.test(flat[from - 1])) continue;
    starts++;
    let end = from + parts[0].length;
    let ok = true;
    for (let k = 1; k < parts.length && ok; k++) {
      // Searched within reach only, so that a miss costs MAX_FILLED characters, not the report.
      const at = flat.slice(end, end + MAX_FILLED + parts[k].length).indexOf(parts[k]);
      ok = at >= 0;
      end += at + parts[k].length;
    }
    if (ok) return true;
  }
  return false;
}

const STRING_LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
/** printf, str.format, f-string and template placeholders: a message is quoted around them. */
const PLACEHOLDER = /%[-+ #0-9.]*[sdrfxiXeEgGc]|\{[^{}]*\}|\$\{[^{}]*\}/g;
const MIN_MESSAGE_CHARS = 12;
const MIN_CODE_CHARS = 12;
const MAX_FRAGMENTS = 4000;
/** A tested function's name is at least this long (`test_get_x` does not name a function `get`). */
const MIN_TESTED_NAME = 4;
/** A signature spans at most this many lines (one parameter a line, decorators aside). */
const MAX_SIGNATURE_LINES = 12;

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

/** A definition's header: from its first line to the one that opens its body, at most MAX_SIGNATURE_LINES lines. */
function signatureOf(lines: string[], row: number): string {
  let s = '';
  for (let t = row; t < lines.length && t < row + MAX_SIGNATURE_LINES; t++) {
    s += lines[t] + '\n';
    if (/[:{]\s*(#.*)?$/.test(lines[t]) && s.includes(')')) break;
  }
  return s;
}

/** Whether a definition sits inside the definition of `owner` (its class). */
function insideClass(st: FileStructure, row: number, owner: string): boolean {
  for (let p = st.parent[row]; p >= 0 && p < row; p = st.parent[p])
    if (st.kind[p] === LineKind.DefHeader && st.definedNames.get(p)?.includes(owner)) return true;
  return false;
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
      const errorSite = ERROR_SITE.test(line);
      if (!errorSite && !LOG_SITE.test(line)) continue;
      STRING_LITERAL.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = STRING_LITERAL.exec(line)) && fragments < MAX_FRAGMENTS) {
        const pieces = m[2].split(PLACEHOLDER);
        if (pieces.length > 1) {
          fragments++;
          if (templateIn(pieces, clues.flat)) {
            set(t, 1);
            break;
          }
        }
        if (!errorSite) continue;
        for (const piece of pieces) {
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

  if (!clues.frames.length && !clues.tests.length && !clues.named.calls.length && !clues.named.imports.length) return bonus;
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

  // Import errors: the import lines that import the module or the name the error fails on.
  if (clues.named.imports.length) {
    const wanted = clues.named.imports.map((w) => new RegExp(`(?:^|[^\\w$.])${escapeRegExp(w)}(?![\\w$])`));
    for (let t = 0; t < n; t++) if (st.kind[t] === LineKind.Import && wanted.some((re) => re.test(lines[t]))) set(t, 1);
  }

  // Call errors: the definition of the function called, weighted like a frame's function here;
  // when a keyword argument was unexpected, only the definitions whose signature lacks it.
  for (const call of clues.named.calls) {
    let rows = (defsByName.get(call.name) ?? []).filter((row) => st.kind[row] === LineKind.DefHeader);
    // `Reloader.__init__()`: the method of that class, when the class is here.
    const owner = call.owner;
    const owned = owner === null ? [] : rows.filter((row) => insideClass(st, row, owner));
    if (owned.length) rows = owned;
    const lacking = call.lacking === null ? null : new RegExp(`\\b${call.lacking}\\b`);
    for (const row of rows) if (!lacking || !lacking.test(signatureOf(lines, row))) set(row, 0.8);
  }

  // Stack frames: in this file, its line and its function; elsewhere, a function of that name here.
  if (clues.frames.length) {
    for (const f of clues.frames) {
      const here = fileName !== undefined && sameFile(f.path, fileName);
      // The reporter's version may differ: a line the frame quotes otherwise is not the one it names.
      if (here && f.line >= 1 && f.line <= n && (f.source === null || compact(f.source) === compact(lines[f.line - 1]))) set(f.line - 1, 1);
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
  const spread = marginSpread(sem, r.n);
  const boosted = sem.slice();
  for (let t = 0; t < r.n; t++) if (bonus[t] > 0) boosted[2 * t + 1] += weight * spread * bonus[t];
  return { ...r, heads: [boosted, ...r.heads.slice(1)] };
}
