/**
 * The diff editor with Monaco, in a chunk of its own (~3 MB of script): PruningView imports it
 * lazily, after the first result is on screen, so that a page load shows its first pruned text
 * without fetching and evaluating Monaco first (#15). Until then the panes are plain text (LightDiff).
 */
export { DiffEditor as default } from '@monaco-editor/react';
/** Monaco's API (the one monaco.ts hands the editor): PruningView creates its models with it. */
export { monaco } from './monaco';
