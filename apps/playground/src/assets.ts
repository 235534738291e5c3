/**
 * The files the pruning worker needs, resolved by Vite to same-origin URLs and handed to the
 * worker at start (the library takes its asset URLs from the page).
 */
import type { WorkerInit } from '@ctxprune/core/worker';
import treeSitterWasm from 'web-tree-sitter/web-tree-sitter.wasm?url';
import python from '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm?url';
import typescript from '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm?url';
import tsx from '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm?url';
import javascript from '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm?url';
import go from '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm?url';
import rust from '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm?url';
import java from '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm?url';
import cpp from '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm?url';
import csharp from '@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm?url';
import ruby from '@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm?url';
import php from '@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm?url';
import c from 'tree-sitter-c/tree-sitter-c.wasm?url';
// onnxruntime-web's plain SIMD build, gzipped in builds (vite.config.ts): the WASM engine's runtime,
// which the worker downloads with progress and keeps in the Cache API.
import ortWasm from 'virtual:ort-wasm';
// The tokenizer's binary rank table (gzipped in builds), loaded in place of js-tiktoken's rank module.
import tokenizerTable from 'virtual:o200k-table';

/** The shipped line model, when the checkout has one (a glob: no model, no neural engine, no build error). */
const models = import.meta.glob<string>('../../../models/ctxprune-lamr.onnx', { query: '?url', import: 'default', eager: true });

/** Absolute URLs: the worker resolves relative ones against its own script URL, not the page. */
const abs = (u: string) => new URL(u, document.baseURI).href;

export function workerInit(): WorkerInit {
  const grammars = { python, typescript, tsx, javascript, go, rust, java, c, cpp, csharp, ruby, php };
  const model = Object.values(models)[0];
  return {
    assets: {
      treeSitterWasmUrl: abs(treeSitterWasm),
      grammarUrls: Object.fromEntries(Object.entries(grammars).map(([k, v]) => [k, abs(v)])),
      ...(tokenizerTable ? { tokenizerUrl: abs(tokenizerTable) } : {}),
    },
    modelUrl: model ? abs(model) : null,
    ortWasmUrl: abs(ortWasm),
  };
}
