/**
 * Long synchronous work written once, run two ways. A step generator does its work and `yield`s
 * between chunks of it (every few hundred lines, or between passes); `runSteps` runs it back to
 * back (the synchronous API), `runStepsAsync` awaits `pause()` at each yield — the pipeline's
 * checkpoint (prune/checkpoint.ts), which throws ABORTED once the signal has fired and yields a
 * macrotask every ~10 ms so that the signal can fire at all. Both give the same result.
 */

/** Work that yields (nothing) between chunks and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** Awaited at each step's end: throws to stop, resolves to go on. */
export type Pause = () => Promise<void>;

/** Run the steps back to back. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Run the steps, awaiting `pause()` between them (back to back without one). */
export async function runStepsAsync<T>(steps: Steps<T>, pause?: Pause): Promise<T> {
  if (!pause) return runSteps(steps);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** Lines (or items) of work between two yields in a per-line loop. */
export const STEP_LINES = 256;
