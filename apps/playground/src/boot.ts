/**
 * Imported by main.tsx, before the app chunk (editors, React) is even fetched: the pruning worker
 * starts and fetches its assets (tokenizer, grammar, onnxruntime, model) in parallel with the page.
 */
import { startPruner } from './pruner';

startPruner();

// Offline once loaded, and a reload that downloads nothing: a service worker caches what the page
// fetched (production builds only). Registered now rather than at 'load', so that it takes over
// (clients.claim) while the large assets are still downloading.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch(() => undefined);
}
