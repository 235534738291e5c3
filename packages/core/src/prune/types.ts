import type { Degradation } from '../degradations.js';
import type { Scorer } from '../scorers/types.js';
import type { LanguageId } from '../syntax/types.js';
import type { ElisionStyle } from '../text/elision.js';
import type { TokenCounter } from '../text/tokens.js';

export interface PruneAblation {
  /** Gate fixed to the semantic rubric: the dependency head does not contribute. */
  noDependency?: boolean;
  /** Skip AST-aware repair (headers, companions, closers, imports, definitions). */
  noRepair?: boolean;
  /** SWE-Pruner formulation: one emission (rubric mean), one transition matrix, no gate. */
  singleHead?: boolean;
  /** Uniform gate weights instead of the query-adaptive gate. */
  noGate?: boolean;
}

/**
 * The pipeline's tuned constants, as options so that a benchmark can sweep them without a
 * rebuild (`ctxprune bench --tune name=value,…`). Each default was chosen on the validation
 * corpus (training/validation.py); leave them unset unless you are measuring.
 */
export interface PruneTuning {
  /** Statements longer than this many lines are kept in part (default MAX_WHOLE_SPAN). */
  maxWholeSpan?: number;
  /** Weight of a bug report's clues on the semantic keep emission, in spreads (default prune/clues.ts CLUE_WEIGHT; 0 = off). */
  clueWeight?: number;
  /** How many spreads of each rubric's margin a Python docstring line's keep emission loses (default prune/documentation.ts DOCSTRING_WEIGHT; 0 = off). */
  docstringWeight?: number;
  /** How many spreads comments and docstrings gain when the query's subject speaks of documentation (default prune/documentation.ts DOCS_QUERY_WEIGHT; 0 = off). */
  docsQueryWeight?: number;
  /** The packer ranks units by value / cost^costExponent (default prune/budget.ts COST_EXPONENT). */
  costExponent?: number;
  /** 1 (default): packing starts from the Viterbi decode at the calibrated bias; 0: from nothing. */
  viterbiStart?: number;
  /** Decoding variants fitted besides the default; the fit whose lines hold the most expected evidence wins (default 3; 0 = the default alone). */
  variants?: number;
  /** 1: repair keeps the imports that evidence lines use; 0 (default): only the decoder and packer keep imports. */
  repairImports?: number;
  /** What the packer values a line by: 0 the semantic rubric's margin, 1 (default) the fused margin. */
  packerValue?: number;
  /** Budgets under this many tokens: a definition does not drag in the headers of the scopes around it (default prune/policy.ts SHALLOW_BELOW; 0 = never). */
  shallowBelow?: number;
  /** Budgets under this many tokens and under 1/flatRatio of the file: control headers are not kept for the lines inside them (RepairOptions.flat; default prune/policy.ts FLAT_BELOW; 0 = never). Not Python. */
  flatBelow?: number;
  /** See flatBelow (default FLAT_RATIO). */
  flatRatio?: number;
  /** Under 1/flatRatio of the file: the power of σ(margin) the decoding variants are compared by (default prune/policy.ts EVIDENCE_POWER; 1 = the expected evidence). */
  evidencePower?: number;
  /** Budgets under this many tokens and under 1/flatRatio of the file: no header is kept for the lines inside it (RepairOptions.bare; default BARE_BELOW; 0 = never). Not Python. */
  bareBelow?: number;
}

export interface PruneOptions {
  /** What the agent is trying to do. May be empty (then structure alone decides). */
  query: string;
  /** Compression ratio ≥ 1: 4 keeps at most a quarter of the tokens. Default 4 when `tokens` is absent. */
  ratio?: number;
  /** Absolute token budget > 0 (takes precedence over ratio). */
  tokens?: number;
  /**
   * Language id or alias; omitted / 'auto' = detect from fileName, then content. (`string & {}`
   * keeps the ids offered by editors' completion while any alias type-checks.)
   */
  language?: LanguageId | (string & {}) | null;
  fileName?: string;
  /**
   * A scorer instance, or a registered scorer's name ('lexical', 'neural', 'auto', or one added with
   * registerScorer), resolved as resolveScorer does; an unknown name is INVALID_OPTION. Default: lexical.
   */
  scorer?: Scorer | 'lexical' | 'neural' | 'auto' | (string & {});
  /** Counts the budget. Default: o200k_base. */
  tokenCounter?: TokenCounter;
  ablation?: PruneAblation;
  /**
   * Elision marker: 'bare' `# …` at the margin (default; `keptLines` has the numbers), 'indented'
   * `    # …` (like the code it stands for; compaction's cuts), 'compact' `# … lines 40–51` or
   * 'verbose' `# … 12 lines omitted (40–51)`. Ranges in the text cost budget (see text/elision.ts).
   */
  elision?: ElisionStyle;
  signal?: AbortSignal;
  /** Tuned constants, for benchmarks (see PruneTuning). */
  tuning?: PruneTuning;
}

export type KeepReason = 'evidence' | 'dependency' | 'repair';

export interface LineInfo {
  /** 1-based original line number. */
  line: number;
  kept: boolean;
  /** Why the line is in the output; null when pruned. */
  reason: KeepReason | null;
  /** P(keep) under the semantic-evidence head. */
  semantic: number;
  /** P(keep) under the dependency-support head. */
  dependency: number;
  /** Gate weight of the semantic rubric (the dependency rubric gets 1 − gate). */
  gate: number;
  /** P(keep) under the fused CRF at the calibrated bias. */
  keep: number;
}

export interface PruneStats {
  originalTokens: number;
  outputTokens: number;
  budgetTokens: number;
  /** originalTokens / outputTokens (Infinity when nothing is output). */
  achievedRatio: number;
  totalLines: number;
  keptLineCount: number;
  ms: number;
  /**
   * ms per stage: syntax (grammar load + parse + structure), score (rubric emissions),
   * select (calibrated decode, repair, render, output parse check), explain (the kept line numbers;
   * `lines`, with the marginals, is computed when it is first read).
   */
  timings: { syntax: number; score: number; select: number; explain: number };
  /** The scorer that ran: 'lexical' or 'neural' (or a custom scorer's name). */
  scorer: string;
  /** Why `auto` ran the lexical scorer instead of the model; absent when nothing fell back. */
  fallbackReason?: string;
  backend: string;
  tokenizer: string;
  language: LanguageId | null;
  /** How structure was obtained: a parse tree, indentation (no grammar), or none. */
  syntax: 'tree-sitter' | 'indent';
  /** ok: repaired and the output parses as well as the input; failed: could not make it parse; skipped: no grammar / disabled. */
  repair: 'ok' | 'failed' | 'skipped' | 'disabled';
  inputParseOk: boolean | null;
  outputParseOk: boolean | null;
  documentScore: number;
  keepBias: number;
  /** Defined degradations that happened: a code (degradations.ts, listed in the README) and words a user can act on. */
  degraded: Degradation[];
}

export interface PruneResult {
  text: string;
  /** 1-based original line numbers of the kept lines, ascending. */
  keptLines: number[];
  /**
   * Per line: scores and why it was kept. Computed on its first read (three forward–backward
   * passes and an object a line, ~1 s of CPU on a million lines), then a plain property.
   */
  lines: LineInfo[];
  stats: PruneStats;
}
