/** Agent integrations: the focus-question wrapper and the helpers it shares with the MCP server. */
export { withFocus, describePrune, elidedRanges, formatRanges, numberLines } from './focus.js';
export type { FocusArgs, WithFocusOptions } from './focus.js';
