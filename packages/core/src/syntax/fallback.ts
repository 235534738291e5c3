/**
 * Grammar-less structure from indentation and line regexes (pure): for unknown languages and
 * inputs too large to parse. Spans are single lines; use edges are lexical.
 */
import { emptyNesting } from './nesting.js';
import { LineKind, type FileStructure, type LanguageId, type LineKindValue } from './types.js';
import { buildUseEdges, isCloserLine, stripCr } from './lexical.js';
import { languageEntry } from './grammars.js';
import { importNames } from './names.js';

const IMPORT =
  /^(import\s|from\s+[\w.]+\s+import\b|#\s*include\b|using\s+[\w.:=\s]+;|use\s+[\w:\\{}, ]+;|require(_relative)?[\s(]|package\s+[\w.]+;?\s*$|extern\s+crate\b|(const|let|var)\s+[\w{}\s,]+=\s*require\s*\()/;
const DECORATOR = /^(@[A-Za-z_][\w.]*|#!?\[)/;
const MODIFIERS =
  '(?:(?:export|default|public|private|protected|internal|static|final|abstract|async|virtual|override|sealed|partial|pub(?:\\([\\w:]+\\))?|unsafe|extern|inline|const|open|declare)\\s+)*';
const DEF = new RegExp(
  `^${MODIFIERS}(def|function\\*?|class|interface|struct|enum|impl|trait|module|namespace|fn|func|mod|record|object|union)\\b\\s*(?:\\([^)]*\\)\\s*)?([A-Za-z_$][\\w$]*)?`,
);
const TYPE_DEF = /^type\s+([A-Za-z_]\w*)\s+(struct|interface)\b/;
const CONTROL = /^(if|for|foreach|while|try|switch|with|match|do|loop|unless|until|case|select|begin|async\s+with|async\s+for)\b/;
const CLAUSE = /^(}\s*)?(else|elif|elsif|except|finally|catch|rescue|ensure|when|case|default)\b/;
const ASSIGN = /^(?:(?:export\s+)?(?:const|let|var|static|val)\s+(?:mut\s+)?)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?!=)/;

function indentOf(line: string): number {
  let w = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) w++;
    else if (c === 9) w += 4;
    else break;
  }
  return w;
}

export function analyzeByIndent(lines: string[], lang: LanguageId | null): FileStructure {
  const n = lines.length;
  const kind = new Uint8Array(n).fill(LineKind.Code);
  const parent = new Int32Array(n).fill(-1);
  const spanStart = new Int32Array(n);
  const spanEnd = new Int32Array(n);
  const blockEnd = new Int32Array(n).fill(-1);
  const closer = new Int32Array(n).fill(-1);
  const firstBodyLine = new Int32Array(n).fill(-1);
  const companionGroup = new Int32Array(n).fill(-1);
  const definedNames = new Map<number, string[]>();
  const defScope = new Map<number, number>();
  // `#` comments for `#` languages, `//` and `/* */` for the others; both for an unknown language.
  const lineComment = lang === null ? null : (languageEntry(lang)?.lineComment ?? '//');
  const hashComment = lineComment !== '//';
  const slashComment = lineComment !== '#';

  type Open = { row: number; indent: number; lastBody: number; group: number };
  const stack: Open[] = [];
  const lastClosedAt = new Map<number, number>(); // indent -> group of the last closed compound header at that indent
  let inBlockComment = false;

  const close = (o: Open, closeRow: number, byClause = false) => {
    blockEnd[o.row] = Math.max(o.row, closeRow >= 0 && !byClause ? closeRow : o.lastBody);
    if (closeRow >= 0 && closeRow !== o.row) closer[o.row] = closeRow;
  };

  for (let i = 0; i < n; i++) {
    spanStart[i] = i;
    spanEnd[i] = i;
    const raw = stripCr(lines[i]);
    const text = raw.trim();
    if (!text) {
      kind[i] = LineKind.Blank;
      continue;
    }
    const ind = indentOf(raw);
    let k: LineKindValue = LineKind.Code;
    if (inBlockComment) {
      k = LineKind.Comment;
      if (text.includes('*/')) inBlockComment = false;
    } else if (
      (hashComment && text.startsWith('#') && !/^#\s*(include|define|if|endif|else|pragma|\[)/.test(text)) ||
      (slashComment &&
        (text.startsWith('//') || text.startsWith('/*') || (text.startsWith('*') && !text.startsWith('*/') && i > 0 && kind[i - 1] === LineKind.Comment)))
    ) {
      k = LineKind.Comment;
      if (text.startsWith('/*') && !text.includes('*/')) inBlockComment = true;
    } else if (IMPORT.test(text)) k = LineKind.Import;
    else if (DECORATOR.test(text)) k = LineKind.Decorator;
    else if (CLAUSE.test(text)) k = LineKind.Clause;
    else if (DEF.test(text) || TYPE_DEF.test(text)) k = LineKind.DefHeader;
    else if (CONTROL.test(text)) k = LineKind.ControlHeader;
    else if (isCloserLine(text, lang)) k = LineKind.Closer;
    kind[i] = k;
    if (k === LineKind.Comment) {
      parent[i] = stack.length ? stack[stack.length - 1].row : -1;
      continue;
    }
    const dedentCloses = k === LineKind.Closer || k === LineKind.Clause;
    // Pop blocks this line is not inside of.
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (ind > top.indent) break;
      stack.pop();
      if (ind === top.indent && dedentCloses) {
        close(top, i, k === LineKind.Clause && !text.startsWith('}'));
        lastClosedAt.set(ind, top.group);
        break;
      }
      close(top, -1);
      lastClosedAt.set(top.indent, top.group);
    }
    for (const o of stack) o.lastBody = i;
    const top = stack.length ? stack[stack.length - 1] : null;
    parent[i] = top ? top.row : -1;
    if (top && firstBodyLine[top.row] < 0 && k !== LineKind.Closer) firstBodyLine[top.row] = i;

    const opens =
      k === LineKind.DefHeader ||
      k === LineKind.ControlHeader ||
      k === LineKind.Clause ||
      (/[{:]\s*(\/\/.*|#.*)?$/.test(text) && !/^[)\]}]/.test(text)) ||
      /\bdo(\s*\|[^|]*\|)?\s*$/.test(text);
    if (k === LineKind.Clause) {
      const g = lastClosedAt.get(ind);
      const group = g !== undefined ? g : i;
      companionGroup[i] = group;
      companionGroup[group] = group;
    }
    if (k === LineKind.Closer && closer.includes(i)) {
      const owner = closer.indexOf(i);
      if (companionGroup[owner] >= 0) companionGroup[i] = companionGroup[owner];
    }
    if (opens && k !== LineKind.Closer && k !== LineKind.Import && k !== LineKind.Decorator) {
      stack.push({ row: i, indent: ind, lastBody: i, group: k === LineKind.Clause ? companionGroup[i] : i });
    }
    // Definitions (lexical).
    const scope = parent[i];
    const topLevel = scope < 0 || (kind[scope] === LineKind.DefHeader && /\b(class|struct|impl|module|interface|trait|namespace|object)\b/.test(lines[scope]));
    if (k === LineKind.DefHeader) {
      const m = DEF.exec(text) ?? TYPE_DEF.exec(text);
      const name = m ? (m[2] ?? m[1]) : undefined;
      if (m && name && !/^(def|function|class|fn|func)$/.test(name)) {
        definedNames.set(i, [name]);
        defScope.set(i, scope);
      } else if (TYPE_DEF.test(text)) {
        definedNames.set(i, [TYPE_DEF.exec(text)![1]]);
        defScope.set(i, scope);
      }
    } else if (k === LineKind.Import) {
      const names = lang ? importNames(text, lang) : [];
      const req = /^(?:const|let|var)\s+([\w$]+)\s*=\s*require/.exec(text);
      if (req) names.push(req[1]);
      if (!lang) {
        const m = /^import\s+([\w.]+)(?:\s+as\s+(\w+))?\s*;?$/.exec(text);
        if (m) names.push(m[2] ?? m[1].split('.').pop()!);
      }
      if (names.length) {
        definedNames.set(i, names);
        defScope.set(i, scope);
      }
    } else if (k === LineKind.Code && topLevel) {
      const m = ASSIGN.exec(text);
      if (m && !/^(return|yield|await|if|while)$/.test(m[1])) {
        definedNames.set(i, [m[1].replace(/^\$/, '')]);
        defScope.set(i, scope);
      }
    }
  }
  while (stack.length) close(stack.pop()!, -1);

  const { useOffsets, useTargets } = buildUseEdges(
    lines,
    (r) => kind[r] <= LineKind.Import || kind[r] === LineKind.Closer,
    definedNames,
    defScope,
    parent,
    lang,
  );
  return {
    language: lang,
    source: 'indent',
    lineCount: n,
    errorCount: 0,
    kind,
    parent,
    spanStart,
    spanEnd,
    blockEnd,
    closer,
    firstBodyLine,
    companionGroup,
    useOffsets,
    useTargets,
    definedNames,
    ...emptyNesting(n),
  };
}
