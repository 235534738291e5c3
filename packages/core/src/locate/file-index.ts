/**
 * File localization, stage 0: the index of a tree (BM25 over path + contents, path terms, the
 * Python module map, import lists computed on demand). Built once per tree and reused.
 */
import { buildBm25Index, type Bm25Index } from '../retrieval/bm25.js';
import { termsOf } from '../text/identifiers.js';
import { pythonImports, pythonModuleIndex, jsImports } from '../cards/imports.js';

export interface FileIndex {
  paths: string[];
  texts: string[];
  bm25: Bm25Index;
  /** Terms of each path (directories + file stem). */
  pathTerms: Set<string>[];
  pyModules: Map<string, string>;
  pathSet: Set<string>;
  /** Lazily computed import lists. */
  imports: Map<string, string[]>;
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;

/**
 * termsOf() with a per-word cache: termsOf is word-local, and identifiers repeat heavily across a
 * repository, so indexing a tree costs a map lookup per word instead of a split per word.
 */
export function cachedTerms(text: string, cache: Map<string, string[]>, out: string[] = []): string[] {
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(text))) {
    const w = m[0];
    let t = cache.get(w);
    if (t === undefined) {
      t = termsOf(w);
      if (cache.size < 500_000) cache.set(w, t);
    }
    for (let i = 0; i < t.length; i++) out.push(t[i]);
  }
  return out;
}

function pathTermsOf(path: string): string[] {
  return termsOf(path.replace(/\.[A-Za-z0-9]+$/, '').replace(/[/\\._-]+/g, ' '));
}

/** Index a tree once; reuse it across instances at the same commit. */
export function buildFileIndex(files: ReadonlyMap<string, string>): FileIndex {
  const paths = [...files.keys()];
  const texts = paths.map((p) => files.get(p)!);
  const cache = new Map<string, string[]>();
  const docs = paths.map((p, i) => cachedTerms(texts[i], cache, pathTermsOf(p)));
  return {
    paths,
    texts,
    bm25: buildBm25Index(docs),
    pathTerms: paths.map((p) => new Set(pathTermsOf(p))),
    pyModules: pythonModuleIndex(paths),
    pathSet: new Set(paths),
    imports: new Map(),
  };
}

/** The files file `i` imports (computed once per file). */
export function importsOf(ix: FileIndex, i: number): string[] {
  const p = ix.paths[i];
  let l = ix.imports.get(p);
  if (!l) {
    l = p.endsWith('.py') ? pythonImports(p, ix.texts[i], ix.pyModules) : jsImports(p, ix.texts[i], ix.pathSet);
    ix.imports.set(p, l);
  }
  return l;
}
