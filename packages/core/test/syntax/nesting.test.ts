import { describe, expect, it } from 'vitest';
import { Reason } from '../../src/prune/reasons.js';
import { buildRepairIndex, repairKeepSet } from '../../src/prune/repair.js';
import { analyze } from '../../src/syntax/index.js';
import type { FileStructure } from '../../src/syntax/types.js';

/** 1-based line → every 1-based line that keeping it in part needs (the closure over the nesting). */
function needs(s: FileStructure, line: number): number[] {
  const seen = new Set([line - 1]);
  const stack = [line - 1];
  while (stack.length) {
    const t = stack.pop()!;
    for (let j = s.nestOffsets[t]; j < s.nestOffsets[t + 1]; j++) {
      const x = s.nestTargets[j];
      if (!seen.has(x)) {
        seen.add(x);
        stack.push(x);
      }
    }
  }
  return [...seen].map((t) => t + 1).sort((a, b) => a - b);
}

describe('bracket nesting (buildNesting)', () => {
  const ts = [
    /* 1 */ 'const defaults = {',
    /* 2 */ '  retry: {',
    /* 3 */ '    limit: 2,',
    /* 4 */ '    methods: [',
    /* 5 */ "      'GET',",
    /* 6 */ '    ],',
    /* 7 */ '  },',
    /* 8 */ '  pagination: {',
    /* 9 */ '    paginate(response) {',
    /* 10 */ '      if (response.ok) {',
    /* 11 */ '        return false;',
    /* 12 */ '      }',
    /* 13 */ '    },',
    /* 14 */ '  },',
    /* 15 */ '};',
    /* 16 */ 'function f(a) {',
    /* 17 */ '  return a',
    /* 18 */ '    ? g({',
    /* 19 */ '        x: 1,',
    /* 20 */ '      })',
    /* 21 */ '    : b;',
    /* 22 */ '}',
  ].join('\n');

  it('typescript: a line needs the brackets around it, each with its closing line', async () => {
    const s = await analyze(ts, 'typescript');
    expect(needs(s, 5)).toEqual([1, 2, 4, 5, 6, 7, 15]);
    expect(needs(s, 3)).toEqual([1, 2, 3, 7, 15]);
    expect(needs(s, 1)).toEqual([1, 15]);
    // A method in an object literal is a closure: its header needs the brackets around it,
    // its body is walked (headers and closers are the repair's).
    expect(needs(s, 9)).toEqual([1, 8, 9, 14, 15]);
    expect(needs(s, 11)).toEqual([11]);
  });

  it('typescript: repair from a line in a method of a literal keeps its scopes and the brackets', async () => {
    const s = await analyze(ts, 'typescript');
    const lines = ts.split('\n');
    const keep = new Uint8Array(s.lineCount);
    const reason = new Uint8Array(s.lineCount);
    keep[10] = 1;
    reason[10] = Reason.Evidence;
    repairKeepSet(
      keep,
      reason,
      s,
      { syntactic: true, dependencies: true, language: 'typescript', maxWholeSpan: 8, wholeSpans: null },
      buildRepairIndex(s, lines, 'typescript'),
    );
    expect([...keep].flatMap((k, t) => (k ? [t + 1] : []))).toEqual([1, 8, 9, 10, 11, 12, 13, 14, 15]);
  });

  it('typescript: a ternary is kept all or none; its object in part', async () => {
    const s = await analyze(ts, 'typescript');
    expect(needs(s, 21)).toEqual([17, 18, 20, 21]);
    expect(needs(s, 19)).toEqual([17, 18, 19, 20, 21]);
  });

  it("typescript: the lines of a walked body stand alone (headers and closers are the repair's)", async () => {
    const s = await analyze(ts, 'typescript');
    expect(needs(s, 16)).toEqual([16]);
    expect(needs(s, 22)).toEqual([22]);
  });

  it('typescript: an object type in a declaration cut around a method is a bracketed list, not a walked body', async () => {
    // The declaration is cut into blocks around the method (statements.ts `segmented`), so the
    // lines of its type annotation have spans of their own; their `{` line has to come with them.
    const src = [
      /* 1 */ 'let reducers: {',
      /* 2 */ '  [P in ActionTypes]: (',
      /* 3 */ '    state: StateDefinition,',
      /* 4 */ '    action: Extract<Actions, { type: P }>',
      /* 5 */ '  ) => StateDefinition',
      /* 6 */ '} = {',
      /* 7 */ '  [ActionTypes.SetTitleId](state, action) {',
      /* 8 */ '    return { ...state, titleId: action.id }',
      /* 9 */ '  },',
      /* 10 */ '}',
    ].join('\n');
    const s = await analyze(src, 'typescript');
    expect(needs(s, 3)).toEqual([1, 2, 3, 5, 6, 10]);
    expect(needs(s, 2)).toEqual([1, 2, 5, 6, 10]);
    // The method is still a walked body.
    expect(needs(s, 8)).toEqual([8]);
  });

  it('typescript: code in a multi-line `${…}` of a template string is nested, not text', async () => {
    const src = [
      /* 1 */ 'export function hashValue(v: any): string {',
      /* 2 */ '  return `s${',
      /* 3 */ '    typeof v === "string"',
      /* 4 */ '      ? hash(v)',
      /* 5 */ '      : hash(',
      /* 6 */ '          JSON.stringify(v) || ""',
      /* 7 */ '        )',
      /* 8 */ '  }`;',
      /* 9 */ '}',
    ].join('\n');
    const s = await analyze(src, 'typescript');
    expect(needs(s, 6)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    const text = ['const t = `one', 'two ${', '  a', '    ? b', '    : c', '} three', 'four`;'].join('\n');
    const t = await analyze(text, 'typescript');
    // Text lines need the first line only; the ternary in `${…}` is one skeleton with the string's.
    expect(needs(t, 7)).toEqual([1, 2, 6, 7]);
    expect(needs(t, 4)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('tsx: a line of JSX text needs the tags around it, like the lines of the tags do', async () => {
    const src = [
      /* 1 */ 'export const Search = () => {',
      /* 2 */ '  const onOpen = useCallback(',
      /* 3 */ '    function onOpen() {',
      /* 4 */ '      setIsShowing(true);',
      /* 5 */ '    },',
      /* 6 */ '    []',
      /* 7 */ '  );',
      /* 8 */ '  return (',
      /* 9 */ '    <div>',
      /* 10 */ '      <button onClick={onOpen}>',
      /* 11 */ '        <svg></svg>',
      /* 12 */ '        Search docs',
      /* 13 */ '        <span>K</span>',
      /* 14 */ '      </button>',
      /* 15 */ '      {open && (',
      /* 16 */ '        <Modal',
      /* 17 */ '          navigate={{',
      /* 18 */ '            go(url) {',
      /* 19 */ '              push(url);',
      /* 20 */ '            },',
      /* 21 */ '          }}',
      /* 22 */ '        />',
      /* 23 */ '      )}',
      /* 24 */ '    </div>',
      /* 25 */ '  );',
      /* 26 */ '};',
    ].join('\n');
    const s = await analyze(src, 'tsx');
    // The text token runs from the end of line 11 to the start of line 13: before, line 12 needed
    // nothing, and a prune that kept it without its tags did not parse (a formik validation case).
    // Like a string's middle line, it needs the token's first line and may itself be dropped.
    const skeleton = [8, 9, 10, 11, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25];
    expect(needs(s, 12)).toEqual([...skeleton.slice(0, 4), 12, ...skeleton.slice(4)]);
    expect(needs(s, 13)).toEqual(skeleton);
    // The method in the attribute's object is still a walked body.
    expect(needs(s, 19)).toEqual([19]);
  });

  it('a Go raw string (a leaf token over several lines) and a PHP heredoc or nowdoc (the grammar table lists them) are text, kept in part around their lines', async () => {
    // Line 3 opens the text, line 5 is inside it, line 7 closes it.
    const body = ['    id integer primary key,', '    retry_after integer,', '    name text'];
    const sources: [string, 'go' | 'php', string[]][] = [
      ['go raw string', 'go', ['package schema', '', 'const createTable = `create table jobs (', ...body, ');`']],
      ['php heredoc', 'php', ['<?php', 'function create() {', '  $sql = <<<SQL', ...body, 'SQL;', '  return $sql;', '}']],
      ['php nowdoc', 'php', ['<?php', 'function create() {', "  $sql = <<<'SQL'", ...body, 'SQL;', '  return $sql;', '}']],
    ];
    for (const [what, language, lines] of sources) {
      const s = await analyze(lines.join('\n'), language);
      expect(needs(s, 5), what).toEqual([3, 5, 7]);
      expect(needs(s, 3), what).toEqual([3, 7]);
    }
  });

  it('python: parameters, strings and call arguments; clauses are not one skeleton with their head', async () => {
    const py = [
      /* 1 */ 'def f(',
      /* 2 */ '    a,',
      /* 3 */ '    b,',
      /* 4 */ '):',
      /* 5 */ '    """Doc',
      /* 6 */ '    more',
      /* 7 */ '    """',
      /* 8 */ '    x = g(',
      /* 9 */ '        [1,',
      /* 10 */ '         2],',
      /* 11 */ '    )',
      /* 12 */ '    if x:',
      /* 13 */ '        return x',
      /* 14 */ '    else:',
      /* 15 */ '        return 0',
    ].join('\n');
    const s = await analyze(py, 'python');
    expect(needs(s, 2)).toEqual([1, 2, 4]);
    expect(needs(s, 4)).toEqual([1, 4]);
    expect(needs(s, 6)).toEqual([5, 6, 7]);
    expect(needs(s, 10)).toEqual([8, 9, 10, 11]);
    expect(needs(s, 13)).toEqual([13]);
    expect(needs(s, 12)).toEqual([12]);
    expect(needs(s, 14)).toEqual([14]);
  });

  it('comments between a header and its first statement are no part of the header (Ruby doc comments, Python, C)', async () => {
    const rb = [
      /* 1 */ 'module Rack',
      /* 2 */ '  module Protection',
      /* 3 */ '    # Prevented attack:: Cookie Tossing',
      /* 4 */ '    # Options:',
      /* 5 */ "    # session_key:: the session cookie's name",
      /* 6 */ '    class CookieTossing < Base',
      /* 7 */ '      default_reaction :deny',
      /* 8 */ '    end',
      /* 9 */ '  end',
      /* 10 */ 'end',
    ].join('\n');
    const r = await analyze(rb, 'ruby');
    // The module's skeleton is its line and its `end`; each comment stands alone.
    expect(needs(r, 2)).toEqual([2, 9]);
    for (const line of [3, 4, 5]) expect(needs(r, line)).toEqual([line]);
    const py = ['def f(x):', '    # one', '    # two', '    return x'].join('\n');
    const p = await analyze(py, 'python');
    expect([needs(p, 1), needs(p, 2), needs(p, 3)]).toEqual([[1], [2], [3]]);
    // A comment of several lines keeps its first and last, not its header's.
    const c = ['int f(int x) {', '  /* one', '     two', '     three */', '  return x;', '}'].join('\n');
    const cs = await analyze(c, 'c');
    expect([needs(cs, 1), needs(cs, 3)]).toEqual([[1], [2, 3, 4]]);
  });

  it('no parse tree: no nesting', async () => {
    const s = await analyze('a = [\n  1,\n]\n', null);
    expect(s.nestOffsets).toEqual(new Int32Array(5));
    expect(s.nestTargets.length).toBe(0);
  });
});
