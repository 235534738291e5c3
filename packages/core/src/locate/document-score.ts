/**
 * File localization, the document score of the rerank: how relevant each candidate file is as a
 * whole, from a Scorer (the lexical rubric scorer by default, or the neural backbone) or from a
 * judge (the caller's LLM, CICL's eight-field schema). Injectable through LocateOptions.
 */
import { judgeAll, judgmentComponents, type JudgeFn, type JudgeRunOptions, type JudgeStats } from '../cards/judge.js';
import type { ContextUnit } from '../cards/types.js';
import { utilityScore } from '../cards/utility.js';
import { LexicalScorer } from '../scorers/lexical.js';
import type { Scorer } from '../scorers/types.js';
import { analyzeByIndent } from '../syntax/fallback.js';
import { approximateCounter, type TokenCounter } from '../text/tokens.js';

/** Relevance of each text to the query, higher is better (any scale; normalised by max). */
export type DocumentScoreFn = (query: string, texts: string[]) => Promise<number[]>;

let lexicalDoc: DocumentScoreFn | null = null;
/** The default document score: the lexical rubric scorer's (one instance, made on first use). */
export function defaultDocumentScore(): DocumentScoreFn {
  return (lexicalDoc ??= documentScoreFromScorer(new LexicalScorer()));
}

/**
 * A Scorer's document score (the lexical rubric scorer, or the neural backbone once its model
 * loads) as a DocumentScoreFn. Structure comes from the indentation analyzer: cheap, and enough
 * for a document-level score.
 */
export function documentScoreFromScorer(scorer: Scorer, maxLines = 3000): DocumentScoreFn {
  return async (query, texts) => {
    const out: number[] = [];
    for (const text of texts) {
      const lines = text.split('\n').slice(0, maxLines);
      // The lexical scorer's document score reads neither the structure nor the decoding: skip them.
      if (scorer instanceof LexicalScorer) {
        const d = scorer.documentScore(query, lines);
        out.push(Number.isFinite(d) ? d : 0);
        continue;
      }
      const structure = analyzeByIndent(lines, 'python');
      try {
        const r = await scorer.score({ query, lines, structure, language: 'python' });
        out.push(Number.isFinite(r.documentScore) ? r.documentScore : 0);
      } catch {
        out.push(0);
      }
    }
    return out;
  };
}

/**
 * The paper's reranker: ask a judge (the caller's LLM, eight-field schema) about each candidate
 * file and score it with the fixed CICL aggregation. Malformed, thrown or late answers score 0 and
 * are counted in `stats` (never thrown).
 */
export function documentScoreFromJudge(
  judge: JudgeFn,
  opts: JudgeRunOptions & { onStats?: (s: JudgeStats) => void; counter?: TokenCounter } = {},
): DocumentScoreFn {
  const counter = opts.counter ?? approximateCounter;
  return async (query, texts) => {
    const units: ContextUnit[] = texts.map((content, i) => ({
      id: `candidate:${i}`,
      type: 'file',
      source: `candidate ${i + 1}`,
      content,
      tokens: counter.count(content.slice(0, 6000)),
      confidence: 1,
    }));
    const { outcomes, stats } = await judgeAll(judge, { query }, units, opts);
    opts.onStats?.(stats);
    return outcomes.map((o, i) => (o.ok ? Math.max(0, utilityScore(judgmentComponents(o.judgment), units[i].tokens).score) : 0));
  };
}
