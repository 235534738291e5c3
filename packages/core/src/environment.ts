/**
 * Environment variables, read at the edge of a Node program (the CLI, the MCP server's workers),
 * never by the library itself: each one maps onto `configure`.
 *
 * - `CTXPRUNE_MODEL`: the neural scorer's model file (`runtime.model`).
 * - `CTXPRUNE_NEURAL_TSCALE`, `CTXPRUNE_NEURAL_BLEND`, `CTXPRUNE_NEURAL_SPREAD`,
 *   `CTXPRUNE_NEURAL_SEMGATE`: `runtime.transitionScale`, `lexicalBlend`, `spread`, `semanticGate`.
 */
import { configure, type CtxpruneEnv, type RuntimeConfig } from './config.js';

type NumberKey = 'transitionScale' | 'lexicalBlend' | 'spread' | 'semanticGate';

const NUMBERS: Record<string, NumberKey> = {
  CTXPRUNE_NEURAL_TSCALE: 'transitionScale',
  CTXPRUNE_NEURAL_BLEND: 'lexicalBlend',
  CTXPRUNE_NEURAL_SPREAD: 'spread',
  CTXPRUNE_NEURAL_SEMGATE: 'semanticGate',
};

/** The configuration the variables ask for (a malformed number is ignored). */
export function runtimeFromEnvironment(vars: Readonly<Record<string, string | undefined>>): Partial<RuntimeConfig> {
  const out: Partial<RuntimeConfig> = {};
  if (vars.CTXPRUNE_MODEL) out.model = vars.CTXPRUNE_MODEL;
  for (const [name, key] of Object.entries(NUMBERS)) {
    const v = vars[name];
    const x = v === undefined || v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(x)) out[key] = x;
  }
  return out;
}

/** Apply the variables (the program passes `process.env`) through `configure`. */
export function configureFromEnvironment(vars: Readonly<Record<string, string | undefined>>): CtxpruneEnv {
  return configure({ runtime: runtimeFromEnvironment(vars) });
}
