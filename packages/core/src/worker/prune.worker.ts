/**
 * The pruning worker: hosts the whole pipeline (syntax, scorer, CRF decode, repair, render) off
 * the page's main thread. Asset URLs (grammars, tree-sitter's wasm) arrive with init() from the
 * page, which knows where its bundler put them; this file stays bundler-agnostic.
 *
 * Load as a module worker: new Worker(new URL('./prune.worker.js', import.meta.url), { type: 'module' }).
 */
import { expose } from 'comlink';
import { configure, loadDefaultTokenCounter, prune } from '../index.js';
import { createWorkerHost } from './host.js';

expose(createWorkerHost({ prune, configure, loadDefaultTokenCounter }));
