/**
 * The assets the package ships for browsers, as URLs relative to this module. Each is a literal
 * `new URL('…', import.meta.url)` so that bundlers (Vite, webpack 5, Rollup with the usual plugins)
 * emit the file and rewrite the URL: an app that installs @ctxprune/core finds the tree-sitter
 * runtime, the grammars, the tokenizer's rank table and the default model without configuration. The files are copied into
 * dist/assets/ by scripts/copy-assets.mjs at build time.
 */
import type { LanguageId } from '../syntax/types.js';

export interface BundledAssets {
  treeSitterWasmUrl: string;
  tokenizerUrl: string;
  grammarUrls: Record<LanguageId, string>;
  modelUrl: string;
}

let cached: BundledAssets | null = null;

export function bundledAssets(): BundledAssets {
  cached ??= {
    treeSitterWasmUrl: new URL('../assets/web-tree-sitter.wasm', import.meta.url).href,
    tokenizerUrl: new URL('../assets/o200k_base.bin', import.meta.url).href,
    grammarUrls: {
      python: new URL('../assets/grammars/tree-sitter-python.wasm', import.meta.url).href,
      typescript: new URL('../assets/grammars/tree-sitter-typescript.wasm', import.meta.url).href,
      tsx: new URL('../assets/grammars/tree-sitter-tsx.wasm', import.meta.url).href,
      javascript: new URL('../assets/grammars/tree-sitter-javascript.wasm', import.meta.url).href,
      go: new URL('../assets/grammars/tree-sitter-go.wasm', import.meta.url).href,
      rust: new URL('../assets/grammars/tree-sitter-rust.wasm', import.meta.url).href,
      java: new URL('../assets/grammars/tree-sitter-java.wasm', import.meta.url).href,
      c: new URL('../assets/grammars/tree-sitter-c.wasm', import.meta.url).href,
      cpp: new URL('../assets/grammars/tree-sitter-cpp.wasm', import.meta.url).href,
      csharp: new URL('../assets/grammars/tree-sitter-c-sharp.wasm', import.meta.url).href,
      ruby: new URL('../assets/grammars/tree-sitter-ruby.wasm', import.meta.url).href,
      php: new URL('../assets/grammars/tree-sitter-php.wasm', import.meta.url).href,
    },
    modelUrl: new URL('../assets/models/ctxprune-lamr.onnx', import.meta.url).href,
  };
  return cached;
}
