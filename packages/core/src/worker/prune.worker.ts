/**
 * The pruning worker: hosts the whole pipeline (syntax, scorer, CRF decode, repair, render) off
 * the page's main thread. Asset URLs (grammars, tree-sitter's wasm, the model) arrive with init()
 * from the page, which knows where its bundler put them; this file stays bundler-agnostic.
 *
 * Load as a module worker: new Worker(new URL('./prune.worker.js', import.meta.url), { type: 'module' }).
 */
import { expose } from 'comlink';
import { configure, loadDefaultTokenCounter, prune } from '../index.js';
import { configureRuntime } from '../runtime/config.js';
import { NeuralScorer } from '../scorers/neural.js';
import { loadParser, resolveLanguage, type LanguageId } from '../syntax/index.js';
import { createWorkerHost } from './host.js';

expose(
  createWorkerHost({
    prune,
    configure,
    loadDefaultTokenCounter,
    loadNeural: ({ backend, model, onProgress, onRuntimeProgress }) => NeuralScorer.load({ backend, model, onProgress, onRuntimeProgress }),
    loadGrammar: async (language) => {
      await loadParser(language as LanguageId);
    },
    languageOf: resolveLanguage,
    configureRuntime: (patch) => {
      configureRuntime(patch);
    },
  }),
);
