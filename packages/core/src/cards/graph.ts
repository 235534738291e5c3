/**
 * The instance context graph: units (files, classes, symbols, memories, rules …) and typed edges
 * (containment, similarity, conflict, precondition, task-memory). Retrieval is lexical (BM25 over
 * title + source + content) plus structural (identifiers of the query that name a unit), followed
 * by one-hop neighbour expansion. Selection never needs gold ids.
 */
import { buildBm25Index, bm25Scores, type Bm25Index } from '../retrieval/bm25.js';
import { termVectors } from '../select/similarity.js';
import { termsOf } from '../text/identifiers.js';
import { loadDefaultTokenCounter, type TokenCounter } from '../text/tokens.js';
import { importGraph } from './imports.js';
import { jaccard, termSet } from './text.js';
import type { ContextEdge, ContextUnit, EdgeType } from './types.js';
import { fileUnits, memoryUnit, type MemoryInput, type StructureProvider } from './units.js';

export interface RetrievedUnit {
  unit: ContextUnit;
  /** 0..1 within this retrieval. */
  score: number;
  via: 'lexical' | 'structural' | 'neighbour';
  /** For neighbours: the unit they were reached from and the edge type. */
  from?: { id: string; edge: EdgeType };
}

export interface RetrieveOptions {
  /** Units kept by the lexical + structural stage (default 20). */
  k?: number;
  /** Expand one hop from the top this-many retrieved units (default ⌈k/3⌉; 0 disables). */
  expandTop?: number;
  /** Neighbour score = parent score × this (default 0.6). */
  expansionFactor?: number;
  /** Edge types followed by expansion (default all but conflict). */
  expandVia?: readonly EdgeType[];
  /** Restrict to these unit types. */
  types?: readonly ContextUnit['type'][];
}

const CODE_IDENT = /[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]*[a-z][A-Z]\w*|[A-Za-z]\w*_\w+|`[^`\n]{2,80}`/g;

/** Identifiers in the query that look like code (dotted, camelCase, snake_case, backticked). */
export function codeIdentifiers(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.match(CODE_IDENT) ?? []) {
    for (const part of m.replace(/`/g, '').split(/[.\s()]+/)) if (part.length >= 3) out.add(part.toLowerCase());
  }
  return out;
}

export class ContextGraph {
  readonly units: ContextUnit[] = [];
  readonly edges: ContextEdge[] = [];
  private readonly byId = new Map<string, ContextUnit>();
  private readonly adj = new Map<string, ContextEdge[]>();
  private index: Bm25Index | null = null;

  addUnit(u: ContextUnit): void {
    if (this.byId.has(u.id)) throw new Error(`duplicate unit id ${u.id}`);
    this.units.push(u);
    this.byId.set(u.id, u);
    this.index = null;
  }

  /** Adds an edge between two known units (symmetric types are stored once, looked up both ways). */
  addEdge(from: string, to: string, type: EdgeType, weight = 1): boolean {
    if (from === to || !this.byId.has(from) || !this.byId.has(to)) return false;
    if ((this.adj.get(from) ?? []).some((e) => e.type === type && (e.to === to || e.from === to))) return false;
    const e: ContextEdge = { from, to, type, weight };
    this.edges.push(e);
    for (const id of [from, to]) {
      let l = this.adj.get(id);
      if (!l) this.adj.set(id, (l = []));
      l.push(e);
    }
    return true;
  }

  get(id: string): ContextUnit | undefined {
    return this.byId.get(id);
  }

  /** Edges touching a unit (optionally of some types). */
  edgesOf(id: string, types?: readonly EdgeType[]): ContextEdge[] {
    const l = this.adj.get(id) ?? [];
    return types ? l.filter((e) => types.includes(e.type)) : l;
  }

  neighbours(id: string, types?: readonly EdgeType[]): { id: string; edge: ContextEdge }[] {
    return this.edgesOf(id, types).map((e) => ({ id: e.from === id ? e.to : e.from, edge: e }));
  }

  conflictDegree(id: string): number {
    return this.edgesOf(id, ['conflict']).length;
  }

  inConflict(a: string, b: string): boolean {
    return this.edgesOf(a, ['conflict']).some((e) => e.from === b || e.to === b);
  }

  private docTerms(u: ContextUnit): string[] {
    const head = `${u.title ?? ''} ${u.source.replace(/[/\\.]/g, ' ')}`;
    return termsOf(u.content, termsOf(head, termsOf(head)));
  }

  /** Lexical + structural retrieval, then one-hop expansion. */
  retrieve(query: string, opts: RetrieveOptions = {}): RetrievedUnit[] {
    const k = opts.k ?? 20;
    this.index ??= buildBm25Index(this.units.map((u) => this.docTerms(u)));
    const raw = bm25Scores(this.index, termsOf(query));
    const idents = codeIdentifiers(query);
    const allowed = (u: ContextUnit) => !opts.types || opts.types.includes(u.type);
    let max = 0;
    for (const s of raw) max = Math.max(max, s);
    const scored: RetrievedUnit[] = [];
    for (let i = 0; i < this.units.length; i++) {
      const u = this.units[i];
      if (!allowed(u)) continue;
      const lex = max > 0 ? raw[i] / max : 0;
      const last = (u.title ?? u.source).split(/[.#/\\]/).filter(Boolean);
      const name = (u.type === 'file' ? last[last.length - 2] : last[last.length - 1])?.toLowerCase() ?? '';
      const structural = name.length >= 3 && idents.has(name) ? 1 : 0;
      const score = 0.7 * lex + 0.3 * structural;
      if (score > 0) scored.push({ unit: u, score, via: structural && lex < 0.5 ? 'structural' : 'lexical' });
    }
    scored.sort((a, b) => b.score - a.score || (a.unit.id < b.unit.id ? -1 : 1));
    const top = scored.slice(0, k);
    const expandTop = opts.expandTop ?? Math.ceil(k / 3);
    const factor = opts.expansionFactor ?? 0.6;
    const via = opts.expandVia ?? (['containment', 'similarity', 'precondition', 'task-memory'] as const);
    const have = new Set(top.map((r) => r.unit.id));
    const extra: RetrievedUnit[] = [];
    for (const r of top.slice(0, expandTop)) {
      for (const n of this.neighbours(r.unit.id, via)) {
        const u = this.byId.get(n.id)!;
        if (have.has(n.id) || !allowed(u)) continue;
        have.add(n.id);
        extra.push({ unit: u, score: r.score * factor, via: 'neighbour', from: { id: r.unit.id, edge: n.edge.type } });
      }
    }
    return [...top, ...extra].sort((a, b) => b.score - a.score);
  }
}

export interface BuildGraphOptions {
  /** Repository files: path → text (read a directory with readTree() from cards/tree-node.ts). */
  files?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  memories?: readonly MemoryInput[];
  /** Rules: plain strings or MemoryInput (type forced to 'rule'). */
  rules?: readonly (string | MemoryInput)[];
  counter?: TokenCounter;
  analyze?: StructureProvider;
  instanceId?: string;
  /** Make class/symbol units (default true). */
  symbols?: boolean;
  /** Similarity edges per memory-like unit (default 3) and their floor (default 0.2 cosine). */
  similarityK?: number;
  similarityMin?: number;
}

const NEGATION = /\b(not|never|don'?t|do not|avoid|no longer|must not|shouldn'?t|instead of)\b/i;

/** Build the graph from a tree plus memories and rules. */
export async function buildContextGraph(opts: BuildGraphOptions): Promise<ContextGraph> {
  const counter = opts.counter ?? (await loadDefaultTokenCounter());
  const g = new ContextGraph();
  const files: Map<string, string> =
    opts.files instanceof Map ? new Map<string, string>(opts.files) : new Map(Object.entries((opts.files ?? {}) as Record<string, string>));
  for (const [path, text] of files) {
    const { units, containment } = await fileUnits(path, text, { counter, analyze: opts.analyze, instanceId: opts.instanceId, symbols: opts.symbols });
    for (const u of units) g.addUnit(u);
    for (const [a, b] of containment) g.addEdge(a, b, 'containment');
  }
  for (const [from, tos] of importGraph(files)) for (const to of tos) g.addEdge(`file:${from}`, `file:${to}`, 'precondition');

  const inputs: MemoryInput[] = [
    ...(opts.memories ?? []),
    ...(opts.rules ?? []).map((r) => (typeof r === 'string' ? { content: r, type: 'rule' as const } : { ...r, type: 'rule' as const })),
  ];
  const memUnits: ContextUnit[] = [];
  inputs.forEach((m, i) => {
    let u = memoryUnit(m, i, counter, m.type ?? 'memory', opts.instanceId);
    if (g.get(u.id)) u = { ...u, id: `${u.id}~${i}` };
    g.addUnit(u);
    memUnits.push(u);
  });
  inputs.forEach((m, i) => {
    const id = memUnits[i].id;
    for (const a of m.about ?? []) g.addEdge(id, g.get(a) ? a : `file:${a}`, 'task-memory');
    for (const c of m.conflictsWith ?? []) g.addEdge(id, c, 'conflict');
    for (const r of m.requires ?? []) g.addEdge(id, g.get(r) ? r : `file:${r}`, 'precondition');
    // A memory that names a path or a symbol of the tree is about it.
    for (const u of g.units) {
      if (u.type === 'file' || u.type === 'class' || u.type === 'symbol') {
        const name = u.type === 'file' ? u.source : (u.title ?? '');
        if (name.length >= 4 && memUnits[i].content.includes(name)) g.addEdge(id, u.id, 'task-memory', 0.8);
      }
    }
  });
  // Heuristic conflicts: two memory-like units on the same subject with opposite polarity.
  for (let i = 0; i < memUnits.length; i++) {
    for (let j = i + 1; j < memUnits.length; j++) {
      const a = memUnits[i],
        b = memUnits[j];
      if (NEGATION.test(a.content) === NEGATION.test(b.content)) continue;
      if (jaccard(termSet(a.content), termSet(b.content)) >= 0.4) g.addEdge(a.id, b.id, 'conflict', 0.7);
    }
  }
  // Similarity edges from each memory-like unit to its most similar units.
  if (memUnits.length) {
    const tv = termVectors(g.units.map((u) => `${u.title ?? ''}\n${u.content}`));
    const kSim = opts.similarityK ?? 3,
      minSim = opts.similarityMin ?? 0.2;
    const pos = new Map(g.units.map((u, i) => [u.id, i]));
    for (const m of memUnits) {
      const i = pos.get(m.id)!;
      const sims: [number, number][] = [];
      for (let j = 0; j < g.units.length; j++)
        if (j !== i) {
          const s = tv.cosine(i, j);
          if (s >= minSim) sims.push([j, s]);
        }
      sims.sort((x, y) => y[1] - x[1]);
      for (const [j, s] of sims.slice(0, kSim)) g.addEdge(m.id, g.units[j].id, 'similarity', s);
    }
  }
  return g;
}
