/**
 * Two runs of `ctxprune bench --out` on the same cases, compared case by case: the paired
 * difference of recall (and of the ranking alone's) per language, per query kind and in all, with
 * its standard error and how many cases moved each way. Every knob of this project is judged this
 * way (the same cases before and after), so a difference is read against its own noise rather
 * than against two means taken apart.
 */

/** One line of a `ctxprune bench --out` file (bench/metrics.ts CaseOutcome, as written). */
export interface OutcomeRecord {
  id: string;
  ratio: number;
  recall: number;
  keptLines?: number[];
  rankingRecall?: number;
  language?: string;
  kind?: string;
}

/** The paired statistics of one group of cases. */
export interface PairedStats {
  cases: number;
  before: number;
  after: number;
  /** Mean of after − before over the cases. */
  delta: number;
  /** Standard error of that mean (0 for fewer than two cases). */
  stderr: number;
  up: number;
  down: number;
  /** Cases whose kept lines differ, recall moved or not. */
  changed: number;
  /** The same for the ranking alone, where both runs measured it. */
  ranking?: { delta: number; stderr: number; up: number; down: number };
}

export interface ComparisonRow extends PairedStats {
  /** 'all', a language, a query kind, or `language kind`. */
  group: string;
  ratio: number;
}

export interface Comparison {
  rows: ComparisonRow[];
  /** Cases of one run with no partner (same id and ratio) in the other. */
  onlyBefore: number;
  onlyAfter: number;
}

function meanAndStderr(xs: number[]): { mean: number; stderr: number } {
  const n = xs.length;
  if (n === 0) return { mean: 0, stderr: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, stderr: 0 };
  const variance = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / (n - 1);
  return { mean, stderr: Math.sqrt(variance / n) };
}

function sameLines(a: number[] | undefined, b: number[] | undefined): boolean {
  if (!a || !b) return true;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function paired(pairs: Array<[OutcomeRecord, OutcomeRecord]>): PairedStats {
  const d = pairs.map(([a, b]) => b.recall - a.recall);
  const { mean, stderr } = meanAndStderr(d);
  const stats: PairedStats = {
    cases: pairs.length,
    before: pairs.reduce((s, [a]) => s + a.recall, 0) / pairs.length,
    after: pairs.reduce((s, [, b]) => s + b.recall, 0) / pairs.length,
    delta: mean,
    stderr,
    up: d.filter((x) => x > 0).length,
    down: d.filter((x) => x < 0).length,
    changed: pairs.filter(([a, b]) => !sameLines(a.keptLines, b.keptLines)).length,
  };
  if (pairs.every(([a, b]) => a.rankingRecall !== undefined && b.rankingRecall !== undefined)) {
    const r = pairs.map(([a, b]) => b.rankingRecall! - a.rankingRecall!);
    const m = meanAndStderr(r);
    stats.ranking = { delta: m.mean, stderr: m.stderr, up: r.filter((x) => x > 0).length, down: r.filter((x) => x < 0).length };
  }
  return stats;
}

/** Pair the two runs by case id and ratio and summarise them by group, ratio by ratio. */
export function compareOutcomes(before: readonly OutcomeRecord[], after: readonly OutcomeRecord[]): Comparison {
  const key = (o: OutcomeRecord) => `${o.ratio}\u0000${o.id}`;
  const later = new Map(after.map((o) => [key(o), o]));
  const pairs: Array<[OutcomeRecord, OutcomeRecord]> = [];
  for (const a of before) {
    const b = later.get(key(a));
    if (b) pairs.push([a, b]);
  }
  const rows: ComparisonRow[] = [];
  const ratios = [...new Set(pairs.map(([a]) => a.ratio))].sort((x, y) => x - y);
  for (const ratio of ratios) {
    const atRatio = pairs.filter(([a]) => a.ratio === ratio);
    const groups = new Map<string, Array<[OutcomeRecord, OutcomeRecord]>>([['all', atRatio]]);
    const add = (name: string, p: [OutcomeRecord, OutcomeRecord]) => {
      let g = groups.get(name);
      if (!g) groups.set(name, (g = []));
      g.push(p);
    };
    for (const p of atRatio) if (p[0].language) add(p[0].language, p);
    for (const p of atRatio) if (p[0].kind) add(p[0].kind, p);
    for (const p of atRatio) if (p[0].language && p[0].kind) add(`${p[0].language} ${p[0].kind}`, p);
    for (const [group, g] of groups) rows.push({ group, ratio, ...paired(g) });
  }
  return { rows, onlyBefore: before.length - pairs.length, onlyAfter: after.length - pairs.length };
}

const signed = (x: number, digits = 4) => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(digits);

/** A markdown table of the comparison. */
export function formatComparison(c: Comparison): string {
  const head =
    '| ratio | group | cases | before | after | Δ recall ± s.e. | up / down | kept lines changed | Δ ranking alone ± s.e. |\n|---|---|---|---|---|---|---|---|---|';
  const body = c.rows.map((r) => {
    const rank = r.ranking ? `${signed(r.ranking.delta)} ± ${r.ranking.stderr.toFixed(4)}` : '–';
    return `| ${r.ratio}× | ${r.group} | ${r.cases} | ${r.before.toFixed(4)} | ${r.after.toFixed(4)} | ${signed(r.delta)} ± ${r.stderr.toFixed(4)} | ${r.up} / ${r.down} | ${r.changed} | ${rank} |`;
  });
  const unpaired = c.onlyBefore || c.onlyAfter ? `\n\nunpaired: ${c.onlyBefore} case(s) only in the first run, ${c.onlyAfter} only in the second` : '';
  return [head, ...body].join('\n') + unpaired;
}
