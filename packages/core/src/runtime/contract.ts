/**
 * The ONNX contract of a ctxprune line scorer. Any model honouring it can be loaded by URL — the
 * shipped 0.17 M-parameter convolutional scorer, or a larger backbone (a Qwen3-Reranker fine-tune
 * that computes its own inputs would declare a different `ctxprune.inputs`).
 *
 * Inputs
 *   features  float32 [1, n_lines, F]   per-line features of features/lines.ts (F = FEATURE_COUNT,
 *                                       version = FEATURE_VERSION); n_lines dynamic.
 * Outputs
 *   semantic    float32 [1, n_lines, 2]  emission scores [prune, keep] of the semantic-evidence rubric
 *   dependency  float32 [1, n_lines, 2]  emission scores [prune, keep] of the dependency-support rubric
 *   gate        float32 [1, n_lines, 2]  per-line mixture weights over the two rubrics (rows sum to 1)
 *   doc         float32 [1]              document relevance in [0, 1]
 *   crf         float32 [3, 8]           per CRF (semantic, dependency, fused): transitions
 *                                        [p→p, p→k, k→p, k→k], start [p, k], end [p, k]
 *   info        float32 [4]              [contract version (1), feature version, F, receptive field
 *                                        in lines each side] (onnxruntime-web cannot read metadata)
 * metadata_props (for tools; the same facts)
 *   ctxprune.contract = 'lamr-lines-v1', ctxprune.feature_version, ctxprune.feature_names (JSON),
 *   ctxprune.receptive_field (lines each side), ctxprune.window (suggested chunk length in lines),
 *   ctxprune.params and ctxprune.members (1, or the size of a seed ensemble exported as one graph);
 *   the runtime reads none of them (it checks the `info` output instead).
 */
export const CONTRACT = 'lamr-lines-v1';
export const INPUT_FEATURES = 'features';
export const OUTPUTS = ['semantic', 'dependency', 'gate', 'doc', 'crf', 'info'] as const;
/** Optional constant outputs: the word table of feature version 2. */
export const WORD_OUTPUTS = ['word_keys', 'words'] as const;

export interface ModelInfo {
  contract: string;
  featureVersion: number;
  featureCount: number;
  receptiveField: number;
  window: number;
}
