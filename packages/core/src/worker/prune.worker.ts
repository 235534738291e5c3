/**
 * The pruning worker: hosts the whole pipeline (syntax, scorer, CRF decode, repair, render) off
 * the page's main thread, and history compaction, whose tool outputs that pipeline cuts with the
 * same loaded model. Asset URLs (grammars, tree-sitter's wasm, the model) arrive with init()
 * from the page, which knows where its bundler put them; this file stays bundler-agnostic. It is
 * the one worker script of the package: the browser entry's `createPruner()` starts it with the
 * bundled assets' URLs, an app that bundles the sources itself (the playground) with its own.
 *
 * Load as a module worker: new Worker(new URL('./prune.worker.js', import.meta.url), { type: 'module' }),
 * or import `@ctxprune/core/worker/prune.worker` through the bundler's worker syntax.
 */
import { expose } from 'comlink';
import { compact } from '../compaction/compact.js';
import { configure } from '../config.js';
import { preparePrune, prune } from '../prune/pipeline.js';
import { NeuralScorer } from '../scorers/neural.js';
import { loadParser, resolveLanguage, type LanguageId } from '../syntax/index.js';
import { loadDefaultTokenCounter } from '../text/tokens.js';
import { createWorkerHost } from './host.js';
// In the worker's own chunk: the library imports these on first use (so that Node's lexical-only
// processes never load them), which in a browser is one more fetch each on the first result's path.
import '../text/o200k.js';
import '../runtime/js/executor.js';

expose(
  createWorkerHost({
    prune,
    preparePrune,
    compact,
    configure,
    loadDefaultTokenCounter,
    loadNeural: ({ backend, model, onProgress, onRuntimeProgress }) => NeuralScorer.load({ backend, model, onProgress, onRuntimeProgress }),
    loadGrammar: async (language) => {
      await loadParser(language as LanguageId);
    },
    languageOf: resolveLanguage,
    configureRuntime: (patch) => {
      configure({ runtime: patch });
    },
  }),
);
