/** Gold-line recall and the summary the README's benchmark table shows. Pure. */

export interface CaseOutcome {
  id: string;
  ratio: number;
  keptLines: number[];
  originalTokens: number;
  outputTokens: number;
  budgetTokens: number;
  parseOk: boolean | null;
  inputParseOk: boolean | null;
  ms: number;
  recall: number;
  allKept: boolean;
  language?: string;
  /** Recall of the scorer's ranking alone at the same budget (bench/ranking.ts), when measured. */
  rankingRecall?: number;
  /** Recall of the smoothed-BM25 window at the same budget (bench/baselines.ts), when measured. */
  bm25WindowRecall?: number;
  /** commit | issue | description */
  kind?: string;
}

export function goldRecall(keptLines: number[], gold: number[]): { recall: number; allKept: boolean } {
  if (gold.length === 0) return { recall: 1, allKept: true };
  const kept = new Set(keptLines);
  let hit = 0;
  for (const g of gold) if (kept.has(g)) hit++;
  return { recall: hit / gold.length, allKept: hit === gold.length };
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export interface BenchSummary {
  cases: number;
  recall: number;
  allKept: number;
  budgetCompliance: number;
  /** Share of cases whose input parses whose output parses too. */
  parseValidity: number;
  parseCases: number;
  msMedian: number;
  msP95: number;
}

export function summarize(outcomes: CaseOutcome[]): BenchSummary {
  const n = outcomes.length || 1;
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const parseable = outcomes.filter((o) => o.inputParseOk === true);
  return {
    cases: outcomes.length,
    recall: outcomes.reduce((s, o) => s + o.recall, 0) / n,
    allKept: outcomes.filter((o) => o.allKept).length / n,
    budgetCompliance: outcomes.filter((o) => o.outputTokens <= o.budgetTokens).length / n,
    parseValidity: parseable.length ? parseable.filter((o) => o.parseOk === true).length / parseable.length : NaN,
    parseCases: parseable.length,
    msMedian: quantile(ms, 0.5),
    msP95: quantile(ms, 0.95),
  };
}

export function formatSummaryRow(label: string, s: BenchSummary): string {
  const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
  return `| ${label} | ${s.recall.toFixed(3)} | ${s.allKept.toFixed(3)} | ${pct(s.budgetCompliance)} | ${pct(s.parseValidity)} | ${s.msMedian.toFixed(1)} | ${s.msP95.toFixed(1)} |`;
}

export const SUMMARY_HEADER = '| run | recall | all kept | budget ok | parses | ms median | ms p95 |\n|---|---|---|---|---|---|---|';

/** A row with only the recall of the scorers' rankings alone (CaseOutcome.rankingRecall). */
export function formatRankingRow(label: string, outcomes: CaseOutcome[]): string {
  const measured = outcomes.filter((o) => o.rankingRecall !== undefined);
  const recall = measured.reduce((s, o) => s + o.rankingRecall!, 0) / (measured.length || 1);
  return `| ${label} | ${measured.length ? recall.toFixed(3) : '–'} | – | – | – | – | – |`;
}

/** Share of the cases with a grammar whose input parses with no ERROR or MISSING node. */
function inputParses(outcomes: CaseOutcome[]): number {
  const known = outcomes.filter((o) => o.inputParseOk !== null);
  return known.length ? known.filter((o) => o.inputParseOk).length / known.length : NaN;
}

function meanOf(outcomes: CaseOutcome[], pick: (o: CaseOutcome) => number | undefined): string {
  const xs = outcomes.map(pick).filter((x): x is number => x !== undefined);
  return xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3) : '–';
}

/**
 * The run's summary, then one row per language and per query kind (and per language × kind), each
 * with the recall of the scorer's ranking alone and of the smoothed-BM25 window at the same budgets.
 */
export function formatBreakdown(label: string, outcomes: CaseOutcome[]): string {
  const rows: [string, CaseOutcome[]][] = [[label, outcomes]];
  const langs = [...new Set(outcomes.map((o) => o.language ?? '?'))].sort();
  const kinds = [...new Set(outcomes.map((o) => o.kind ?? '?'))].sort();
  for (const l of langs) rows.push([`  ${l}`, outcomes.filter((o) => (o.language ?? '?') === l)]);
  for (const k of kinds) rows.push([`  ${k}`, outcomes.filter((o) => (o.kind ?? '?') === k)]);
  if (langs.length > 1 && kinds.length > 1) {
    for (const l of langs) {
      for (const k of kinds) {
        const sub = outcomes.filter((o) => (o.language ?? '?') === l && (o.kind ?? '?') === k);
        if (sub.length) rows.push([`  ${l} ${k}`, sub]);
      }
    }
  }
  const head =
    '| run | cases | recall | ranking | window | all kept | budget ok | input parses | output parses | ms median |\n|---|---|---|---|---|---|---|---|---|---|';
  const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
  return [
    head,
    ...rows.map(([name, sub]) => {
      const s = summarize(sub);
      return (
        `| ${name} | ${s.cases} | ${s.recall.toFixed(3)} | ${meanOf(sub, (o) => o.rankingRecall)} | ${meanOf(sub, (o) => o.bm25WindowRecall)} | ` +
        `${s.allKept.toFixed(3)} | ${pct(s.budgetCompliance)} | ${pct(inputParses(sub))} | ${pct(s.parseValidity)} | ${s.msMedian.toFixed(1)} |`
      );
    }),
  ].join('\n');
}

/** hit@1 and reciprocal rank within the top k (0 when no gold file is in the top k). */
export function rankMetrics(ranked: readonly string[], gold: readonly string[], k = 10): { hit1: number; rr: number } {
  const g = new Set(gold);
  const idx = ranked.slice(0, k).findIndex((p) => g.has(p));
  return { hit1: ranked.length > 0 && g.has(ranked[0]) ? 1 : 0, rr: idx >= 0 ? 1 / (idx + 1) : 0 };
}
