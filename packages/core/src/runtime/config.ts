/**
 * Where the neural scorer's model comes from and which backend runs it: `env.runtime` of the one
 * configuration surface (../config.ts). Browser IDEs point `model` at their own origin or pass
 * bytes; Node uses the copy shipped in models/ unless configured otherwise.
 */
import { assetUrl, configure, env, isNode, type RuntimeConfig } from '../config.js';

export type { Backend, ModelSource, RuntimeConfig } from '../config.js';

/** The runtime part of the env (the same object as `env.runtime`). */
export const runtimeConfig: RuntimeConfig = env.runtime;

/** `configure({ runtime: patch })`. */
export function configureRuntime(patch: Partial<RuntimeConfig>): RuntimeConfig {
  return configure({ runtime: patch }).runtime;
}

export const DEFAULT_MODEL_FILE = 'ctxprune-lamr.onnx';

/** The shipped model: repo-root models/ in Node (relative to dist/runtime/), `<assetBase>models/` in browsers. */
export function defaultModelLocation(): string | URL {
  return defaultModelLocations()[0];
}

/**
 * Where to look for the shipped model, in order. Node: the repository's models/ (a checkout), then
 * the copy the build puts in dist/assets/models/ (an installed package).
 */
export function defaultModelLocations(): (string | URL)[] {
  if (isNode) {
    return [new URL(`../../../../models/${DEFAULT_MODEL_FILE}`, import.meta.url), new URL(`../assets/models/${DEFAULT_MODEL_FILE}`, import.meta.url)];
  }
  return [assetUrl(`models/${DEFAULT_MODEL_FILE}`)];
}
