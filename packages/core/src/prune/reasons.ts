/** Why a line is in the output, as a byte per line (0 = pruned). */
export const Reason = { None: 0, Evidence: 1, Dependency: 2, Repair: 3 } as const;
export type ReasonCode = (typeof Reason)[keyof typeof Reason];

export const REASON_NAMES = [null, 'evidence', 'dependency', 'repair'] as const;
