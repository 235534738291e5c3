/**
 * The pruning worker of the browser entry: prune.worker.ts's host with the package's bundled
 * assets as defaults (the page's init message overrides them).
 */
import { expose } from 'comlink';
import { loadDefaultTokenCounter } from '../text/tokens.js';
import { prune } from '../prune/pipeline.js';
import { configureRuntime } from '../runtime/config.js';
import { NeuralScorer } from '../scorers/neural.js';
import { loadParser, resolveLanguage, type LanguageId } from '../syntax/index.js';
import { createWorkerHost } from '../worker/host.js';
import { configure, useBundledAssets } from './embed.js';

useBundledAssets();

expose(
  createWorkerHost({
    prune,
    configure: (patch) => configure(patch),
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
