/**
 * The page's entry, kept small: it starts the pruning worker (boot.ts), which fetches the
 * tokenizer, grammar, onnxruntime and model, and only then loads the app (React, Monaco, the
 * views: ~3.6 MB of script in a chunk of its own, mount.tsx). In one chunk, the worker started only
 * once all of it had downloaded, parsed and run.
 */
import './boot';

void import('./mount');
