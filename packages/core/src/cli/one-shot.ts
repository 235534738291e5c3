/**
 * What a CLI process of its own (bin/ctxprune.js sets CTXPRUNE_ONE_SHOT) does to answer sooner:
 * the model on the js executor for inputs it scores faster than onnxruntime starts, and V8
 * settings for a short process. `prune` and `compact` share them; a caller's process (the
 * library, the MCP server) never gets them.
 */
import v8 from 'node:v8';
import { configureRuntime, runtimeConfig } from '../runtime/config.js';
import type { Scorer } from '../scorers/types.js';

export const oneShot = () => process.env.CTXPRUNE_ONE_SHOT === '1';

/**
 * The model's backend in a one-shot process (no --backend, no configured one): the js executor up
 * to this many lines, else onnxruntime's WASM. The executor has no start-up cost but is slower per
 * line; onnxruntime's WASM initialisation costs ~0.6 s. Measured break-even (whole `prune`
 * processes, CPU seconds, machine loaded): 4,000 lines js 1.79 vs WASM 1.95, 8,000 lines 3.38 vs
 * 2.94, i.e. ~5,000 lines.
 */
export const JS_BACKEND_MAX_LINES = 5000;

/** The js executor for a one-shot process that scores at most JS_BACKEND_MAX_LINES lines in all, unless a backend is configured. */
export function oneShotBackend(lines: number): void {
  if (oneShot() && runtimeConfig.backend === 'auto' && lines <= JS_BACKEND_MAX_LINES) configureRuntime({ backend: 'js' });
}

export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * V8 settings for a one-shot process: WebAssembly compiled by the baseline compiler only (no
 * optimizing tier-up, which compiles onnxruntime's 14 MB in the background and holds the exit:
 * 2.8 → 1.0 s CPU for the neural scorer's start-up); a young generation that stays at its first
 * size, for a process this short spends more on the first touch of each page a larger one adds
 * (~15–25 µs a page fault on this VM; unoptimized code boxes every float it computes) than on the
 * extra scavenges (a 1,011-line file: 8,980 → 7,410 page faults, lexical 393 → 370 ms; 6,370
 * lines 704 → 671 ms; 19,000 lines 1.28 → 1.24 s); and, for inputs under 256 KB, no optimizing
 * JavaScript compiler either (its compile costs a short run more than it saves). Same results:
 * the compilers and the heap's sizing change speed only. Set by bin/ctxprune.js's process only
 * (CTXPRUNE_ONE_SHOT); CTXPRUNE_V8_DEFAULTS=1 keeps V8's defaults there too. Returns whether --no-opt is set (the js
 * executor then scores with it lifted: optimizedWhileScoring).
 */
export function oneShotEngineFlags(chars: number): boolean {
  // Only in a process of its own (bin/ctxprune.js says so), never in a caller's process.
  if (!oneShot() || process.env.CTXPRUNE_V8_DEFAULTS === '1') return false;
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  if (chars >= 256 * 1024) return false;
  v8.setFlagsFromString('--no-opt');
  return true;
}

/**
 * The scorer, with the optimizing compiler back on while it scores: the js executor's matrix
 * loops run ~25× faster optimized (a 1,000-line file: ~0.2 s instead of ~3 s). Optimizing the
 * whole process instead costs ~0.5 s of CPU compiling the rest of the pipeline (lexical prune:
 * 0.76 → 1.28 s CPU).
 */
export function optimizedWhileScoring(scorer: Scorer): Scorer {
  const wrapped = Object.create(scorer) as Scorer;
  wrapped.score = async (input) => {
    v8.setFlagsFromString('--opt');
    try {
      return await scorer.score(input);
    } finally {
      v8.setFlagsFromString('--no-opt');
    }
  };
  return wrapped;
}
