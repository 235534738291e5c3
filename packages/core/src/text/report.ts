/**
 * What a bug report gives away about the code it is about: traceback / stack frames (file,
 * function, line), quoted code (fenced, indented, `>>>` sessions, diffs, inline backticks),
 * error messages and the names of failing tests. Pure text in, clues out; linear in the report's
 * length. Used by prune/clues.ts to find the lines a report points at, whatever the scorer.
 */

export interface StackFrame {
  /** The path as the report writes it ('/home/u/proj/pkg/mod.py', 'src/index.ts'). */
  path: string;
  /** The function the frame is in, when given ('<module>' and anonymous frames give none). */
  func: string | null;
  /** 1-based line in the reporter's version of the file. */
  line: number;
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
  /** The whole report, lowercased with runs of whitespace made one space (for message matching). */
  flat: string;
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

export function flatten(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
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
      frames.push({ path, func: func || null, line });
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
  return { frames, code, tests: [...tests], flat: flatten(text) };
}
