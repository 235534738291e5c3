/**
 * The decoding and repair policy of prune(): how much structure a kept line brings along and how
 * many ways the budget is fitted, by budget, file size and language. Each constant was chosen on
 * the validation corpus (training/validation.py) and its doc says how; `PruneOptions.tuning`
 * (`ctxprune bench --tune name=value`) overrides any of them for one call.
 */
import type { LanguageId } from '../syntax/types.js';
import type { PruneTuning } from './types.js';

/**
 * Statements longer than this many lines are kept in part (first, kept and last lines, and the
 * brackets between). A 3-token marker costs less than most lines it stands for, so from 5 lines
 * on; on the training's held-out repositories 8× recall rose as this fell from 8 to 2 (+0.007 at
 * 4), while 4× stayed within 0.005.
 */
export const MAX_WHOLE_SPAN = 4;
/**
 * The packer values a line by the fused margin (1), the very order "ranking alone" keeps, not the
 * semantic rubric's alone (0). Repair does not force in the imports that evidence lines use (0):
 * an import is kept when the decoder or the packer finds it worth its tokens. Chosen together on
 * the validation corpus (training/validation.py; 600 TypeScript/JavaScript and 400 Python cases,
 * neural scorer), from 1 and 1: TS 8× 0.450 → 0.459, 4× 0.612 → 0.616; Python 8× 0.500 → 0.515
 * (imports alone +0.015, fused value alone +0.004).
 */
const PACKER_VALUE = 1;
const REPAIR_IMPORTS = 0;
/**
 * Besides the Viterbi start at the calibrated bias, fit the budget three more ways and keep the
 * one whose kept lines hold the most expected evidence, Σ σ(fused margin): decoding without the
 * CRF's transitions (lines by their own margin, no blocks), packing by the plain odds instead of
 * their square, and calibrating the decode to half the budget (the packer spends the rest).
 * Chosen on the validation corpus's even half (auto scorer), from 0 variants: TypeScript
 * 4× 0.600 → 0.616, 8× 0.451 → 0.469; Python 4× 0.660 → 0.674, 8× 0.507 → 0.523. Confirmed
 * on the odd half: TypeScript 4× 0.661 → 0.678, 8× 0.509 → 0.511; Python 4× 0.638 → 0.656,
 * 8× 0.489 → 0.490. It costs four fits instead of one (the select stage, not the scorer).
 */
const DECODE_VARIANTS = 3;
/**
 * Where the variants are fitted by default: the languages the validation corpus holds. JavaScript
 * joined later (it had been left out when the expected evidence picked worse than the Viterbi
 * start there): measured again on all 585 JavaScript validation cases with the stems for short
 * queries, 8× 0.414 → 0.427 (both halves up: 0.410 → 0.419, 0.418 → 0.436), 4× 0.625 → 0.622.
 */
const VARIANT_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript', 'python']);

/**
 * Budgets under this many tokens get shallow repair (RepairOptions.shallow): a definition keeps
 * its own header, not those of the class or function around it, which at 8× of a small file cost
 * what a line of evidence does. Chosen on the validation corpus (every TS/JS/Python case), from
 * 0: 8× TypeScript 0.487 → 0.492 (at 200 and 400; 0.493 with no limit), JavaScript 0.429 → 0.437,
 * Python 0.527 → 0.530; 4× TypeScript 0.659 → 0.662, JavaScript 0.626 → 0.632, Python 0.682 →
 * 0.685. Outputs still parse 100% (a Python output that does not is fitted again in full). The
 * limit keeps larger outputs' outer headers, where readers orient by them. A method keeps its
 * class where it does not parse alone (every language but Python; RepairIndex.container): the
 * output then parses without a second fit, and TypeScript 8× 0.492 → 0.494 (JavaScript, and
 * Python's methods without their class, unchanged; with its class Python 0.530 → 0.528).
 */
const SHALLOW_BELOW = 400;

/**
 * Deep compression of a brace language (TypeScript, JavaScript and the others; not Python, whose
 * indentation needs every header): budgets under 1/FLAT_RATIO of the file and under FLAT_BELOW
 * tokens get flat repair (RepairOptions.flat: a kept line keeps its innermost definition's
 * header, not the if / for / try headers between), and under BARE_BELOW bare repair in the
 * JavaScript family (no header at all for a statement; a member still keeps its class, a clause
 * its head, a line its brackets). An `if` whose block closes on a `} else if (` of eight lines
 * dragged those lines in, and a function's header and closer cost two lines of evidence: at 8×
 * of a small file, the budget. An output that does not parse is fitted again with the headers
 * (bare, then full). Chosen on the validation corpus's 1,878 TypeScript and JavaScript cases,
 * from shallow repair alone: flat under 400, 8× TypeScript 0.493 → 0.499, JavaScript 0.437 →
 * 0.440 (6× 0.558 → 0.560, 0.525 → 0.528); bare under 400 too, 8× 0.508 and 0.459 (both halves
 * up: TypeScript +0.009 / +0.009, JavaScript +0.024 / +0.016; bare under 100: 0.503 / 0.454,
 * under 200: 0.504 / 0.459); both under 600, 0.513 and 0.459 (halves +0.0044 / +0.0013; under
 * 800: 0.511 / 0.457). Outputs parse 100%. At 4× either costs TypeScript 0.002 (a fix often
 * edits the `if` line full repair keeps for its body's sake), hence the ratio: deeper
 * compression, flatter structure.
 */
const FLAT_BELOW = 600;
const BARE_BELOW = 600;
const FLAT_RATIO = 5;
/** Where a statement parses outside any function (not Go, Rust, Java, C, C++ or C#, whose top level holds declarations). */
const BARE_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);

/**
 * Under 1/FLAT_RATIO of the file, in the JavaScript family, the decoding variants are compared
 * by Σ σ(margin)^2 over their kept lines instead of Σ σ(margin): a fit that spends a small budget
 * on many lines of middling score (a Viterbi block that brings a constructor's header and closer)
 * loses to one that keeps fewer, surer lines. Chosen on the validation corpus at 8×: TypeScript
 * 0.513 → 0.521 (halves +0.013 / +0.004), JavaScript 0.459 → 0.463 (0 / +0.008); a power of 3:
 * 0.521 / 0.461. Not Python: 0.531 → 0.534 there (halves −0.001 / +0.009), but the issue-style
 * cases fell (validation 0.664 → 0.659, dev's SWE-bench issues 0.529 → 0.500). At 4× it cost
 * TypeScript 0.002, hence the ratio.
 */
const EVIDENCE_POWER = 2;

/** What decodePolicy decides for one prune. */
export interface DecodePolicy {
  /** The packer values lines by the fused emissions (else the semantic rubric's). */
  valueByFused: boolean;
  /** Repair forces in the imports evidence lines use. */
  repairImports: boolean;
  /** Statements longer than this many lines are kept in part. */
  maxWholeSpan: number;
  /** RepairOptions.shallow / flat / bare. */
  shallow: boolean;
  flat: boolean;
  bare: boolean;
  /** Decoding variants fitted besides the default (0: the default alone). */
  variants: number;
  /** The power of σ(margin) the variants are compared by. */
  evidencePower: number;
}

/** The policy for a budget of `budget` tokens on a file of `originalTokens` in `language`. */
export function decodePolicy(budget: number, originalTokens: number, language: LanguageId | null, tuning: PruneTuning = {}): DecodePolicy {
  // Deep compression (see FLAT_BELOW): of a brace language, and of the JavaScript family.
  const deepRatio = originalTokens >= (tuning.flatRatio ?? FLAT_RATIO) * budget;
  const deep = deepRatio && language !== 'python';
  const deepJs = deepRatio && language !== null && BARE_LANGUAGES.has(language);
  return {
    valueByFused: (tuning.packerValue ?? PACKER_VALUE) === 1,
    repairImports: (tuning.repairImports ?? REPAIR_IMPORTS) === 1,
    maxWholeSpan: tuning.maxWholeSpan ?? MAX_WHOLE_SPAN,
    shallow: budget < (tuning.shallowBelow ?? SHALLOW_BELOW),
    flat: deep && budget < (tuning.flatBelow ?? FLAT_BELOW),
    bare: deepJs && budget < (tuning.bareBelow ?? BARE_BELOW),
    variants: tuning.variants ?? (language && VARIANT_LANGUAGES.has(language) ? DECODE_VARIANTS : 0),
    // Deep compression: the fit whose kept lines are the most confident wins (see EVIDENCE_POWER).
    evidencePower: deepJs ? (tuning.evidencePower ?? EVIDENCE_POWER) : 1,
  };
}
