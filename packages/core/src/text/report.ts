/**
 * What a bug report gives away about the code it is about: traceback / stack frames (file,
 * function, line, the source line a Python traceback prints), quoted code (fenced, indented,
 * `>>>` sessions, diffs, inline backticks), error messages, what import and call errors name,
 * and the names of failing tests. Pure text in, clues out; linear in the report's
 * length. Used by prune/clues.ts to find the lines a report points at, whatever the scorer.
 */

export interface StackFrame {
  /** The path as the report writes it ('/home/u/proj/pkg/mod.py', 'src/index.ts'). */
  path: string;
  /** The function the frame is in, when given ('<module>' and anonymous frames give none). */
  func: string | null;
  /** 1-based line in the reporter's version of the file. */
  line: number;
  /** The source line a Python traceback prints under the frame, trimmed; null when none is given. */
  source: string | null;
}

export interface ReportClues {
  frames: StackFrame[];
  /** Lines of quoted code, trimmed, each at least MIN_CODE_CHARS long. */
  code: string[];
  /**
   * Python test functions the report names (`tests/test_x.py::TestY::test_z`, unittest's
   * `FAIL: test_z (pkg.TestY)`, a `test_z` in prose), each once, in order.
   */
  tests: string[];
  /**
   * What an error message of the report names: a module or imported name that failed to import
   * (`No module named 'x'`, `cannot import name 'x' from 'y'`, `Named export 'x' not found`,
   * `Cannot find module 'x'`), a function called with arguments it does not take
   * (`f() got an unexpected keyword argument 'k'`, `f() takes 2 positional arguments but 3 were
   * given`, `f() missing 1 required positional argument: 'a'`), with the keyword it lacks.
   */
  named: NamedInError;
  /** The whole report, lowercased with runs of whitespace made one space (for message matching). */
  flat: string;
}

export interface NamedInError {
  /** Modules and imported names an import error names, each once. */
  imports: string[];
  /**
   * Functions a call error names; `owner`: the class Python 3.10+ qualifies a method with
   * (`Reloader.__init__()`); `lacking`: the keyword argument the function does not take.
   */
  calls: { name: string; owner: string | null; lacking: string | null }[];
}

const MIN_CODE_CHARS = 8;
const MAX_REPORT_CHARS = 20_000;

const PY_FRAME = /File "([^"\n]+)", line (\d+)(?:, in ([\w.<>]+))?/g;
/** `at fn (path:line:col)`, `at path:line:col`, `at new Cls (path:line:col)`, `at async fn (…)`. */
const JS_FRAME = /\bat (?:async )?(?:new )?(?:([\w$.<>[\]]+) (?:\[as [\w$]+\] )?)?\(?((?:[A-Za-z]:)?[^\s():]+):(\d+)(?::\d+)?\)?/g;
const FENCE = /^\s*(```|~~~)/;
/** A Python test function's name: `test_…` (pytest and unittest both collect these). */
const TEST_NAME = /\btest_\w+/g;
const MAX_TESTS = 32;
/** Import errors of Python, Node's ES modules and CommonJS, and bundlers: the name or module they fail on. */
const IMPORT_ERROR =
  /No module named '([\w.]+)'|cannot import name '(\w+)'(?: from '([\w.]+)')?|Named export '([\w$]+)' not found\. The requested module '([^'\s]+)'|Cannot find module '([^'\s]+)'|Can't resolve '([^'\s]+)'|does not provide an export named '([\w$]+)'/g;
/** Python's call errors: `f() got an unexpected keyword argument 'k'`, `f() takes …`, `f() missing …`, `f() got multiple values …`. */
const CALL_ERROR =
  /(?:\b(\w+)\.)?\b(\w+)\(\) (?:got an unexpected keyword argument '(\w+)'|takes (?:from |exactly |at most |at least )?(?:\d|no arguments)|missing \d+ required|got multiple values for)/g;
const MAX_NAMED = 16;

function namedInError(text: string): NamedInError {
  const imports = new Set<string>();
  IMPORT_ERROR.lastIndex = 0;
  for (let m = IMPORT_ERROR.exec(text); m && imports.size < MAX_NAMED; m = IMPORT_ERROR.exec(text)) {
    for (let g = 1; g < m.length; g++) if (m[g]) imports.add(m[g]);
  }
  const calls: NamedInError['calls'] = [];
  const seen = new Set<string>();
  CALL_ERROR.lastIndex = 0;
  for (let m = CALL_ERROR.exec(text); m && calls.length < MAX_NAMED; m = CALL_ERROR.exec(text)) {
    const key = `${m[1] ?? ''}.${m[2]} ${m[3] ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push({ name: m[2], owner: m[1] ?? null, lacking: m[3] ?? null });
  }
  return { imports: [...imports], calls };
}

export function flatten(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The line a Python traceback prints under a frame (`File "…", line 3, in f` then `    x = f(y)`):
 * the next line when it is more indented than the frame's and is not another frame.
 */
function sourceAfter(text: string, end: number): string | null {
  const eol = text.indexOf('\n', end);
  if (eol < 0) return null;
  const next = text.indexOf('\n', eol + 1);
  const line = text.slice(eol + 1, next < 0 ? text.length : next);
  const start = text.lastIndexOf('\n', end - 1) + 1;
  const indent = (s: string) => s.length - s.trimStart().length;
  const src = line.trim();
  if (!src || src.startsWith('File "') || indent(line) <= indent(text.slice(start, eol))) return null;
  return src;
}

export function parseReport(report: string): ReportClues {
  const text = report.length > MAX_REPORT_CHARS ? report.slice(0, MAX_REPORT_CHARS) : report;
  const frames: StackFrame[] = [];
  for (const re of [PY_FRAME, JS_FRAME]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const py = re === PY_FRAME;
      const path = py ? m[1] : m[2];
      const line = Number(py ? m[2] : m[3]);
      const rawFunc = (py ? m[3] : m[1]) ?? null;
      // JS frames need a path that looks like a source file, or `at` in prose would match.
      if (!py && !/\.[cm]?[jt]sx?$|\.py$|\.vue$|\.svelte$/.test(path)) continue;
      const func = rawFunc && !rawFunc.startsWith('<') ? rawFunc.split('.').pop()!.replace(/[[\]]/g, '') : null;
      frames.push({ path, func: func || null, line, source: py ? sourceAfter(text, re.lastIndex) : null });
    }
  }
  const code: string[] = [];
  const add = (s: string) => {
    const t = s.trim();
    if (t.length >= MIN_CODE_CHARS) code.push(t);
  };
  let fenced = false;
  for (const raw of text.split('\n')) {
    if (FENCE.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      // A diff in a fence: the removed and added lines are code, without their marker.
      add(/^[-+](?![-+])/.test(raw) ? raw.slice(1) : raw);
      continue;
    }
    const session = /^\s*(?:>>>|\.\.\.)\s(.*)$/.exec(raw);
    if (session) {
      add(session[1]);
      continue;
    }
    if (/^(?: {4}|\t)\S/.test(raw)) {
      add(raw);
      continue;
    }
    const inline = /`([^`\n]+)`/g;
    let m: RegExpExecArray | null;
    while ((m = inline.exec(raw))) add(m[1]);
  }
  const tests = new Set<string>();
  TEST_NAME.lastIndex = 0;
  for (let m = TEST_NAME.exec(text); m && tests.size < MAX_TESTS; m = TEST_NAME.exec(text)) {
    // `test_x.py` is a module, not a function; a parametrised id `test_x[a-b]` is the function.
    if (text[m.index + m[0].length] !== '.') tests.add(m[0]);
  }
  return { frames, code, tests: [...tests], named: namedInError(text), flat: flatten(text) };
}
