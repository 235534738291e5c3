/**
 * Per-object caches for web-tree-sitter node getters. Every `.type`, `.endPosition`, `.isNamed`
 * read crosses into wasm (and `.endPosition` allocates), so structure.ts / names.ts read each of
 * them at most once per Node object. `children` / `namedChildren` are cached by web-tree-sitter
 * itself on the Node object, so nodes reached through the same parent object share these caches.
 */
import type { Language, Node, Point } from 'web-tree-sitter';

interface Cached {
  /** type id */
  _ci?: number;
  /** type name */
  _ct?: string;
  /** end position */
  _ce?: Point;
}

/** Per language: whether each type id is named (1), anonymous (0), or not looked up yet (-1). */
const namedTables = new WeakMap<Language, Int8Array>();

function typeIdOf(n: Node): number {
  const c = n as Node & Cached;
  let id = c._ci;
  if (id === undefined) {
    id = n.typeId;
    c._ci = id;
    c._ct = n.tree.language.types[id] || 'ERROR';
  }
  return id;
}

/** `n.type`, read once. */
export function typeOf(n: Node): string {
  const c = n as Node & Cached;
  if (c._ct === undefined) typeIdOf(n);
  return c._ct!;
}

/**
 * `n.isNamed`, from the node's type id and a per-language table (a node is named iff its public
 * symbol is; this holds for aliases, ERROR and MISSING nodes too).
 */
export function isNamedNode(n: Node): boolean {
  const id = typeIdOf(n);
  const lang = n.tree.language;
  let table = namedTables.get(lang);
  if (!table) {
    table = new Int8Array(65536).fill(-1);
    namedTables.set(lang, table);
  }
  let v = table[id];
  if (v < 0) {
    v = lang.nodeTypeIsNamed(id) ? 1 : 0;
    table[id] = v;
  }
  return v === 1;
}

/** `n.endPosition`, read once (do not mutate the result). */
export function endOf(n: Node): Point {
  const c = n as Node & Cached;
  let p = c._ce;
  if (p === undefined) {
    p = n.endPosition;
    c._ce = p;
  }
  return p;
}

/** Whether a node spans no text (zero-width: MISSING tokens, empty blocks at end of input). */
export function isEmptyNode(n: Node): boolean {
  const e = endOf(n);
  const s = n.startPosition;
  return e.row === s.row && e.column === s.column;
}
