/** Every failure the library reports on purpose carries one of these codes. */
export type CtxpruneErrorCode =
  | 'EMPTY_INPUT'
  | 'BINARY_INPUT'
  | 'INVALID_BUDGET'
  | 'INVALID_OPTION'
  | 'UNKNOWN_LANGUAGE'
  | 'GRAMMAR_LOAD_FAILED'
  | 'ASSET_LOAD_FAILED'
  | 'INPUT_TOO_LARGE'
  | 'ABORTED';

/** Typed error: callers switch on `code`, humans read `message`. */
export class CtxpruneError extends Error {
  readonly code: CtxpruneErrorCode;
  constructor(code: CtxpruneErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CtxpruneError';
    this.code = code;
  }
}

export function isCtxpruneError(e: unknown): e is CtxpruneError {
  return e instanceof CtxpruneError;
}
