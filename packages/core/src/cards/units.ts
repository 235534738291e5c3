/**
 * Context units from a repository tree (file → class → symbol) and from the caller's memories and
 * rules. Symbol boundaries come from the syntax layer when the caller passes a structure provider
 * (`analyze`, e.g. the tree-sitter analyzer: DefHeader lines, blockEnd, definedNames, parent chain);
 * without one, a lexical splitter (indentation for Python, braces elsewhere) finds def/class blocks.
 */
import type { FileStructure } from '../syntax/types.js';
import { LineKind } from '../syntax/types.js';
import type { TokenCounter } from '../text/tokens.js';
import type { ContextUnit, UnitType } from './types.js';
import { clamp01 } from './text.js';

/** A definition block inside a file: 0-based inclusive lines. */
export interface SymbolSpan {
  name: string;
  /** Dotted path of enclosing definitions + name: `Session.request`. */
  qualifiedName: string;
  kind: 'class' | 'symbol';
  start: number;
  end: number;
  /** Index of the enclosing span in the same list, -1 at top level. */
  parent: number;
}

/** Returns the per-line structure of a file (or null when it cannot). */
export type StructureProvider = (path: string, content: string) => FileStructure | null | Promise<FileStructure | null>;

const CLASS_WORDS =
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:public\s+|private\s+|internal\s+|sealed\s+|final\s+|static\s+)*(class|interface|struct|enum|trait|impl|module|namespace|object)\b/;

/** Spans from a FileStructure built by the syntax layer. */
export function spansFromStructure(st: FileStructure, lines: readonly string[]): SymbolSpan[] {
  const spans: SymbolSpan[] = [];
  const byHeader = new Map<number, number>();
  for (let i = 0; i < st.lineCount; i++) {
    if (st.kind[i] !== LineKind.DefHeader) continue;
    const names = st.definedNames.get(i) ?? [];
    const name = names[0] ?? (lines[i] ?? '').trim().slice(0, 40);
    let start = i;
    while (start > 0 && st.kind[start - 1] === LineKind.Decorator) start--;
    let p = st.parent[i];
    while (p >= 0 && !byHeader.has(p)) p = st.parent[p];
    const parent = p >= 0 ? byHeader.get(p)! : -1;
    const end = st.blockEnd[i] >= i ? st.blockEnd[i] : i;
    byHeader.set(i, spans.length);
    spans.push({
      name,
      qualifiedName: parent >= 0 ? `${spans[parent].qualifiedName}.${name}` : name,
      kind: CLASS_WORDS.test(lines[i] ?? '') ? 'class' : 'symbol',
      start,
      end,
      parent,
    });
  }
  return spans;
}

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_]\w*)/;
const BRACE_DEF =
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(class|interface|struct|enum|trait|impl|function\*?|fn|func)\s+([A-Za-z_$][\w$]*)/;

function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 8 - (n % 8);
    else break;
  }
  return n;
}

/** Lexical fallback: Python by indentation, brace languages by brace depth. */
export function lexicalSpans(path: string, lines: readonly string[]): SymbolSpan[] {
  const spans: SymbolSpan[] = [];
  const python = /\.pyi?$/.test(path);
  const stack: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let name: string | null = null,
      kind: 'class' | 'symbol' = 'symbol',
      end = i;
    if (python) {
      const m = PY_DEF.exec(line);
      if (!m) continue;
      name = m[3];
      kind = m[2] === 'class' ? 'class' : 'symbol';
      const ind = indentOf(line);
      // The header may span lines (open brackets); the body is everything indented deeper after it.
      let j = i + 1;
      let depth = 0;
      for (const c of line) depth += c === '(' || c === '[' ? 1 : c === ')' || c === ']' ? -1 : 0;
      while (depth > 0 && j < lines.length) {
        for (const c of lines[j]) depth += c === '(' || c === '[' ? 1 : c === ')' || c === ']' ? -1 : 0;
        j++;
      }
      end = j - 1;
      for (; j < lines.length; j++) {
        if (lines[j].trim() === '') continue;
        if (indentOf(lines[j]) <= ind) break;
        end = j;
      }
      while (stack.length && (spans[stack[stack.length - 1]].end < i || indentOf(lines[spans[stack[stack.length - 1]].start]) >= ind)) stack.pop();
    } else {
      const m = BRACE_DEF.exec(line);
      if (!m) continue;
      name = m[2];
      kind = /^(function|fn|func)/.test(m[1]) ? 'symbol' : 'class';
      let depth = 0,
        opened = false;
      for (let j = i; j < lines.length; j++) {
        const text = lines[j].replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/\/\/.*$/, '');
        for (const c of text) {
          if (c === '{') {
            depth++;
            opened = true;
          } else if (c === '}') depth--;
        }
        end = j;
        if (opened && depth <= 0) break;
        if (!opened && /;\s*$/.test(text)) break;
      }
      while (stack.length && spans[stack[stack.length - 1]].end < i) stack.pop();
    }
    let start = i;
    if (python) while (start > 0 && /^\s*@/.test(lines[start - 1])) start--;
    const parent = stack.length ? stack[stack.length - 1] : -1;
    const idx = spans.length;
    spans.push({ name, qualifiedName: parent >= 0 ? `${spans[parent].qualifiedName}.${name}` : name, kind, start, end, parent });
    stack.push(idx);
  }
  return spans;
}

export interface MemoryInput {
  id?: string;
  /** Default 'memory' (or 'rule' when given through `rules`). */
  type?: Exclude<UnitType, 'file' | 'symbol' | 'class'>;
  content: string;
  title?: string;
  /** Caller's label of where it comes from (default: the type). */
  source?: string;
  confidence?: number;
  stale?: boolean;
  history?: { usedSuccess: number; usedFailure: number };
  /** Unit ids or tree paths this memory is about (task-memory edges). */
  about?: string[];
  /** Unit ids it contradicts (conflict edges). */
  conflictsWith?: string[];
  /** Unit ids that must be read first (precondition edges). */
  requires?: string[];
}

export interface TreeUnitOptions {
  counter: TokenCounter;
  analyze?: StructureProvider;
  instanceId?: string;
  /** Make symbol/class units (default true). */
  symbols?: boolean;
  /** Skip symbol units shorter than this many lines (default 2). */
  minSymbolLines?: number;
}

/** File, class and symbol units of one file, and the containment pairs among them. */
export async function fileUnits(path: string, content: string, opts: TreeUnitOptions): Promise<{ units: ContextUnit[]; containment: [string, string][] }> {
  const fileId = `file:${path}`;
  const units: ContextUnit[] = [
    {
      id: fileId,
      instanceId: opts.instanceId,
      type: 'file',
      source: path,
      content,
      tokens: opts.counter.count(content),
      confidence: 1,
      title: path,
    },
  ];
  const containment: [string, string][] = [];
  if (opts.symbols === false) return { units, containment };
  const lines = content.split('\n');
  let spans: SymbolSpan[] | null = null;
  if (opts.analyze) {
    try {
      const st = await opts.analyze(path, content);
      if (st) spans = spansFromStructure(st, lines);
    } catch {
      spans = null; // fall back to the lexical splitter
    }
  }
  spans ??= lexicalSpans(path, lines);
  const minLines = opts.minSymbolLines ?? 2;
  const ids: (string | null)[] = [];
  const seen = new Set<string>();
  for (const s of spans) {
    if (s.end - s.start + 1 < minLines) {
      ids.push(null);
      continue;
    }
    let id = `${s.kind}:${path}#${s.qualifiedName}`;
    for (let k = 2; seen.has(id); k++) id = `${s.kind}:${path}#${s.qualifiedName}~${k}`;
    seen.add(id);
    ids.push(id);
    const text = lines.slice(s.start, s.end + 1).join('\n');
    units.push({
      id,
      instanceId: opts.instanceId,
      type: s.kind,
      source: path,
      content: text,
      tokens: opts.counter.count(text),
      confidence: 1,
      title: s.qualifiedName,
      span: { startLine: s.start + 1, endLine: s.end + 1 },
    });
    let p = s.parent;
    while (p >= 0 && ids[p] === null) p = spans[p].parent;
    containment.push([p >= 0 ? ids[p]! : fileId, id]);
  }
  return { units, containment };
}

/** A unit for one caller-supplied memory, rule, strategy, trajectory, failure or api note. */
export function memoryUnit(m: MemoryInput, index: number, counter: TokenCounter, fallbackType: UnitType, instanceId?: string): ContextUnit {
  const type = m.type ?? fallbackType;
  return {
    id: m.id ?? `${type}:${index}`,
    instanceId,
    type,
    source: m.source ?? type,
    content: m.content,
    tokens: counter.count(m.content),
    confidence: clamp01(m.confidence ?? 0.8),
    title: m.title,
    stale: m.stale ?? false,
    history: m.history,
  };
}
