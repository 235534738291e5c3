/**
 * Per-line query–code interaction features for the neural scorer. This file is the ONE
 * definition of the model's input: the training data builder (training/build_dataset.mjs)
 * imports it from dist/ and the neural scorer calls it at inference, so training and inference
 * cannot drift apart (test/features/parity.test.ts checks a dumped fixture).
 *
 * Pure: (query, lines, structure, language) in, a row-major Float32Array [n, F] out. Linear in
 * the number of lines plus the query–line matches. Lexical signals reuse the lexical scorer's
 * identifier splitting (text/identifiers.ts) and BM25 (scorers/bm25.ts).
 */
import { buildBm25Index, bm25Scores, idf as bm25Idf } from '../retrieval/bm25.js';
import { languageEntry } from '../syntax/grammars.js';
import { type FileStructure, type LanguageId, LineKind } from '../syntax/types.js';
import { identifierParts, nameTerm, queryTermsOf, termsOf } from '../text/identifiers.js';
import { SEMANTIC_FEATURE_NAMES, semanticFeatures, type WordVectors } from './semantic.js';
import { runSteps, STEP_LINES, type Steps } from '../util/steps.js';

/**
 * The feature version this build computes by default. Bump when a feature's definition changes:
 * the model records the version it was trained on, and older versions stay computable below.
 */
export const FEATURE_VERSION = 1;

/** Version 1: lexical, structural and query-shape features. */
const FEATURE_NAMES_V1 = [
  'bm25_log',
  'bm25_norm',
  'bm25_rank',
  'bm25_top5',
  'bm25_top20',
  'smooth3_norm',
  'win10_max',
  'win10_mean',
  'win30_max',
  'win30_mean',
  'scope_best',
  'scope_mean',
  'scope_header_bm25',
  'q_cover_terms',
  'q_cover_idf',
  'match_compound',
  'match_rare',
  'match_max_idf',
  'match_code_ident',
  'uses_evidence_def',
  'used_by_evidence',
  'dist_nearest_match',
  'doc_q_cover_idf',
  'doc_code_ident_found',
  'doc_q_len',
  'doc_max_bm25',
  'doc_log_lines',
  'kind_blank',
  'kind_comment',
  'kind_import',
  'kind_decorator',
  'kind_def',
  'kind_control',
  'kind_clause',
  'kind_closer',
  'kind_code',
  'indent',
  'depth',
  'cost',
  'position',
  'lang_python',
  'lang_tsjs',
  'line_error_word',
  'query_error_word',
  'error_interaction',
  'line_return',
  'line_string',
  'def_name_in_query',
] as const;

/** Feature names per version; version 2 appends word-vector similarities (features/semantic.ts). */
export const FEATURE_SETS: Readonly<Record<number, readonly string[]>> = {
  1: FEATURE_NAMES_V1,
  2: [...FEATURE_NAMES_V1, ...SEMANTIC_FEATURE_NAMES],
};

export const FEATURE_NAMES: readonly string[] = FEATURE_SETS[FEATURE_VERSION];

export const FEATURE_COUNT = FEATURE_NAMES.length;

export interface FeatureOptions {
  /** Feature version to compute (a key of FEATURE_SETS); FEATURE_VERSION by default. */
  version?: number;
  /** Word vectors for version 2's similarity features (the model's own table); without them those columns are 0. */
  words?: WordVectors | null;
  /**
   * Match a short query on stems (queryTermsOf), as inference does; default true. `false` gives the
   * features the shipped model was trained on (training/build_dataset.mjs --no-stems): retrained on
   * stemmed features it did no better (models/MODEL_CARD.md).
   */
  stems?: boolean;
}

export interface LineFeatures {
  n: number;
  /** Number of features per line (FEATURE_COUNT). */
  f: number;
  /** Row-major [n, f]. */
  data: Float32Array;
}

const MAX_QUERY_CHARS = 20_000;
const ERROR_WORDS =
  /\b(raise|throw|throws|error|errors|exception|exceptions|assert|warn|warning|fail|fails|failed|invalid|traceback|crash|crashes|bug|broken|wrong|incorrect)\b/i;
const LINE_ERROR = /\b(raise|throw|Error|Exception|assert|warn|warnings|reject|fail)\b/;
const LINE_RETURN = /^\s*(return|yield)\b/;
const LINE_STRING = /["'`]/;
/** Identifiers in the query that look like code: snake_case, camelCase, dotted, called or back-ticked. */
const CODE_IDENT =
  /`([^`\n]{2,80})`|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)|([A-Za-z_$][\w$]*)\s*\(|\b([a-z][a-z0-9]*_[a-z0-9_]+|_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b/g;
const IDENT = /[A-Za-z_$][\w$]*/g;

function codeIdentifiers(query: string): Set<string> {
  const out = new Set<string>();
  CODE_IDENT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CODE_IDENT.exec(query))) {
    const text = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    IDENT.lastIndex = 0;
    let w: RegExpExecArray | null;
    while ((w = IDENT.exec(text))) if (w[0].length >= 3) out.add(w[0]);
  }
  return out;
}

function leadingIndent(line: string): number {
  let w = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) w += 1;
    else if (c === 9) w += 4;
    else break;
  }
  return w;
}

export function computeLineFeatures(...args: Parameters<typeof lineFeatureSteps>): LineFeatures {
  return runSteps(lineFeatureSteps(...args));
}

/** computeLineFeatures as steps (util/steps.ts): a yield every STEP_LINES lines of its per-line loops. Same result. */
export function* lineFeatureSteps(
  query: string,
  lines: string[],
  st: FileStructure,
  language: LanguageId | null,
  options: FeatureOptions = {},
): Steps<LineFeatures> {
  const n = lines.length;
  const version = options.version ?? FEATURE_VERSION;
  const names = FEATURE_SETS[version];
  if (!names) throw new RangeError(`feature version ${version} is not one this build computes (${Object.keys(FEATURE_SETS).join(', ')})`);
  const F = names.length;
  const data = new Float32Array(n * F);
  if (n === 0) return { n, f: F, data };
  const q = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
  const { terms: qTerms, stemmed } = queryTermsOf(q, options.stems ?? true);
  const qSet = new Set(qTerms);
  const qIdents = codeIdentifiers(q);
  const queryError = ERROR_WORDS.test(q) ? 1 : 0;
  // Compound identifiers of the query (termsOf emits `parseHeader` as parse, header and parseheader).
  const qCompound = new Set<string>();
  IDENT.lastIndex = 0;
  for (let m = IDENT.exec(q); m; m = IDENT.exec(q)) {
    const parts = identifierParts(m[0]);
    if (parts.length > 1) qCompound.add(parts.join(''));
  }

  // Lexical index over lines (blank lines are empty documents).
  const docs = new Array<string[]>(n);
  for (let i = 0; i < n; i++) {
    if (i % STEP_LINES === STEP_LINES - 1) yield;
    docs[i] = st.kind[i] === LineKind.Blank ? [] : termsOf(lines[i], [], stemmed);
  }
  const index = buildBm25Index(docs);
  yield;
  const raw = qTerms.length ? bm25Scores(index, qTerms) : new Float64Array(n);
  const idfOf = new Map<string, number>();
  let idfTotal = 0;
  for (const t of qSet) {
    const v = bm25Idf(index, t);
    idfOf.set(t, v);
    idfTotal += v;
  }
  const logN = Math.log(n + 1);

  let maxRaw = 0;
  for (let t = 0; t < n; t++) if (raw[t] > maxRaw) maxRaw = raw[t];
  const norm = new Float64Array(n);
  if (maxRaw > 0) for (let t = 0; t < n; t++) norm[t] = raw[t] / maxRaw;

  // Rank among matching lines (1 = best).
  const rank = new Float64Array(n);
  {
    const idx: number[] = [];
    for (let t = 0; t < n; t++) if (raw[t] > 0) idx.push(t);
    idx.sort((a, b) => raw[b] - raw[a] || a - b);
    for (let r = 0; r < idx.length; r++) rank[idx[r]] = r + 1;
  }

  // Windows: prefix sums for means, sparse max via the deque-free two-pass block trick.
  const prefix = new Float64Array(n + 1);
  for (let t = 0; t < n; t++) prefix[t + 1] = prefix[t] + norm[t];
  const winMax = (w: number): Float64Array => slidingMax(norm, w);
  const max10 = winMax(10),
    max30 = winMax(30);
  const kern = [1, 0.6, 0.35, 0.2];
  const smooth = new Float64Array(n);
  let smoothMax = 0;
  for (let t = 0; t < n; t++) {
    let v = raw[t];
    for (let d = 1; d < kern.length; d++) {
      if (t - d >= 0) v += kern[d] * raw[t - d];
      if (t + d < n) v += kern[d] * raw[t + d];
    }
    smooth[t] = v;
    if (v > smoothMax) smoothMax = v;
  }

  yield;
  // Enclosing definition (innermost DefHeader on the parent chain) and its stats.
  const defOf = new Int32Array(n).fill(-1);
  for (let t = 0; t < n; t++) {
    if (st.kind[t] === LineKind.DefHeader) defOf[t] = t;
    else {
      const p = st.parent[t];
      defOf[t] = p < 0 ? -1 : st.kind[p] === LineKind.DefHeader ? p : defOf[p];
    }
  }
  const defBest = new Float64Array(n),
    defSum = new Float64Array(n),
    defCount = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const d = defOf[t];
    if (d < 0) continue;
    if (norm[t] > defBest[d]) defBest[d] = norm[t];
    defSum[d] += norm[t];
    defCount[d] += 1;
  }
  const depth = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const p = st.parent[t];
    depth[t] = p >= 0 && p < t ? depth[p] + 1 : 0;
  }

  yield;
  // Definition ↔ use edges weighted by evidence.
  const usedBy = new Float64Array(n);
  const usesEv = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    for (let j = st.useOffsets[t]; j < st.useOffsets[t + 1]; j++) {
      const v = st.useTargets[j];
      if (v < 0 || v >= n) continue;
      if (norm[t] > usedBy[v]) usedBy[v] = norm[t];
      if (norm[v] > usesEv[t]) usesEv[t] = norm[v];
    }
  }

  // Distance to the nearest matching line.
  const dist = new Float64Array(n).fill(n);
  {
    let last = -1e9;
    for (let t = 0; t < n; t++) {
      if (raw[t] > 0) last = t;
      dist[t] = t - last;
    }
  }
  {
    let next = 1e9;
    for (let t = n - 1; t >= 0; t--) {
      if (raw[t] > 0) next = t;
      dist[t] = Math.min(dist[t], next - t);
    }
  }

  // Definition names the query mentions (def headers whose defined names are query terms or code identifiers).
  const defNamed = new Uint8Array(n);
  for (const [line, names] of st.definedNames) {
    if (line < 0 || line >= n || st.kind[line] !== LineKind.DefHeader) continue;
    for (const name of names) {
      const whole = nameTerm(name, stemmed);
      if (qIdents.has(name) || (whole.length >= 4 && qSet.has(whole))) {
        defNamed[line] = 1;
        break;
      }
    }
  }

  yield;
  // Per-line match statistics, and the document-level code-identifier hits.
  const rareIdf = Math.log(1 + (n - 2 + 0.5) / (2 + 0.5)); // a term on ≤ 2 lines
  let docCover = 0;
  for (const t of qSet) if (index.postings.has(t)) docCover += idfOf.get(t) ?? 0;
  const identHit = new Uint8Array(n);
  let identFound = 0;
  if (qIdents.size) {
    const found = new Set<string>();
    for (let t = 0; t < n; t++) {
      if (st.kind[t] === LineKind.Blank) continue;
      IDENT.lastIndex = 0;
      let w: RegExpExecArray | null;
      let hit = 0;
      while ((w = IDENT.exec(lines[t])))
        if (qIdents.has(w[0])) {
          hit++;
          found.add(w[0]);
        }
      identHit[t] = Math.min(hit, 3);
    }
    identFound = found.size / qIdents.size;
  }

  const family = languageEntry(language)?.modelFamily;
  const isPy = family === 'python' ? 1 : 0;
  const isTs = family === 'typescript' ? 1 : 0;
  const docQLen = Math.log1p(qSet.size) / 4;
  const docMax = Math.log1p(maxRaw) / 3;
  const docLines = logN / 8;
  yield;

  for (let t = 0; t < n; t++) {
    if (t % STEP_LINES === STEP_LINES - 1) yield;
    const o = t * F;
    const line = lines[t];
    const kind = st.kind[t];
    let covered = 0,
      coverIdf = 0,
      compound = 0,
      rare = 0,
      maxIdf = 0;
    const seen = new Set<string>();
    for (const term of docs[t]) {
      if (!qSet.has(term) || seen.has(term)) continue;
      seen.add(term);
      const v = idfOf.get(term) ?? 0;
      covered++;
      coverIdf += v;
      if (v > maxIdf) maxIdf = v;
      if (v >= rareIdf) rare++;
      if (qCompound.has(term)) compound++;
    }
    const lo10 = Math.max(0, t - 10),
      hi10 = Math.min(n, t + 11);
    const lo30 = Math.max(0, t - 30),
      hi30 = Math.min(n, t + 31);
    const d = defOf[t];
    const lineErr = LINE_ERROR.test(line) ? 1 : 0;
    let k = 0;
    data[o + k++] = Math.log1p(raw[t]);
    data[o + k++] = norm[t];
    data[o + k++] = rank[t] > 0 ? 1 / Math.sqrt(rank[t]) : 0;
    data[o + k++] = rank[t] > 0 && rank[t] <= 5 ? 1 : 0;
    data[o + k++] = rank[t] > 0 && rank[t] <= 20 ? 1 : 0;
    data[o + k++] = smoothMax > 0 ? smooth[t] / smoothMax : 0;
    data[o + k++] = max10[t];
    data[o + k++] = ((prefix[hi10] - prefix[lo10]) / (hi10 - lo10)) * 4;
    data[o + k++] = max30[t];
    data[o + k++] = ((prefix[hi30] - prefix[lo30]) / (hi30 - lo30)) * 4;
    data[o + k++] = d >= 0 ? defBest[d] : 0;
    data[o + k++] = d >= 0 && defCount[d] > 0 ? (defSum[d] / defCount[d]) * 4 : 0;
    data[o + k++] = d >= 0 ? norm[d] : 0;
    data[o + k++] = qSet.size ? covered / qSet.size : 0;
    data[o + k++] = idfTotal > 0 ? coverIdf / idfTotal : 0;
    data[o + k++] = Math.log1p(compound);
    data[o + k++] = Math.log1p(rare);
    data[o + k++] = maxIdf / (logN + 1);
    data[o + k++] = identHit[t] / 3;
    data[o + k++] = usesEv[t];
    data[o + k++] = usedBy[t];
    data[o + k++] = Math.log1p(Math.min(dist[t], n)) / 5;
    data[o + k++] = idfTotal > 0 ? docCover / idfTotal : 0;
    data[o + k++] = identFound;
    data[o + k++] = docQLen;
    data[o + k++] = docMax;
    data[o + k++] = docLines;
    for (let kk = 0; kk <= 8; kk++) data[o + k++] = kind === kk ? 1 : 0;
    data[o + k++] = Math.min(leadingIndent(line), 48) / 16;
    data[o + k++] = Math.min(depth[t], 8) / 4;
    data[o + k++] = Math.log1p(line.length / 4) / 4;
    data[o + k++] = n > 1 ? t / (n - 1) : 0;
    data[o + k++] = isPy;
    data[o + k++] = isTs;
    data[o + k++] = lineErr;
    data[o + k++] = queryError;
    data[o + k++] = lineErr * queryError;
    data[o + k++] = LINE_RETURN.test(line) ? 1 : 0;
    data[o + k++] = LINE_STRING.test(line) ? 1 : 0;
    data[o + k++] = defNamed[t] || (d >= 0 && defNamed[d]) ? (defNamed[t] ? 1 : 0.5) : 0;
  }
  yield;
  if (version >= 2 && options.words) semanticFeatures(options.words, q, lines, data, F, FEATURE_NAMES_V1.length);
  return { n, f: F, data };
}

/** max over [t−w, t+w] for every t, O(n) with a monotone deque. */
export function slidingMax(x: Float64Array, w: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  const dq = new Int32Array(n);
  let head = 0,
    tail = 0,
    next = 0;
  for (let t = 0; t < n; t++) {
    const hi = Math.min(n - 1, t + w);
    while (next <= hi) {
      while (tail > head && x[dq[tail - 1]] <= x[next]) tail--;
      dq[tail++] = next++;
    }
    while (dq[head] < t - w) head++;
    out[t] = x[dq[head]];
  }
  return out;
}
