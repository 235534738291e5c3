/**
 * The one configuration surface. Browser IDEs that embed ctxprune point asset URLs at their own
 * origin (or a CDN, or an extension URI) and may inject `fetch`; Node callers usually change nothing.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface AssetConfig {
  /**
   * Base URL (or, in Node, a directory path) holding the grammar .wasm files, named
   * `tree-sitter-<grammar>.wasm`. null = the copies shipped in npm packages (Node) or
   * `<assetBase>/grammars/` (browser).
   */
  grammarBaseUrl: string | URL | null;
  /** Per-language override: exact URL of one grammar. */
  grammarUrls: Partial<Record<string, string | URL>>;
  /** URL of web-tree-sitter's own web-tree-sitter.wasm; null = package default / `<assetBase>/`. */
  treeSitterWasmUrl: string | URL | null;
  /** Base for browser defaults of the entries above. */
  assetBase: string;
}

export interface CtxpruneEnv {
  assets: AssetConfig;
  fetch: FetchLike;
}

export const env: CtxpruneEnv = {
  assets: {
    grammarBaseUrl: null,
    grammarUrls: {},
    treeSitterWasmUrl: null,
    assetBase: '/ctxprune/',
  },
  fetch: (input, init) => globalThis.fetch(input, init),
};

/** Change part of the configuration; returns the resulting env. */
export function configure(patch: { assets?: Partial<AssetConfig>; fetch?: FetchLike }): CtxpruneEnv {
  if (patch.assets) Object.assign(env.assets, patch.assets);
  if (patch.fetch) env.fetch = patch.fetch;
  return env;
}

export const isNode: boolean =
  typeof process !== 'undefined' && !!(process as { versions?: { node?: string } }).versions?.node &&
  typeof (globalThis as { window?: unknown }).window === 'undefined';
