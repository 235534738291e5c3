export { CONTRACT, INPUT_FEATURES, OUTPUTS, type ModelInfo } from './contract.js';
export { configureRuntime, defaultModelLocation, defaultModelLocations, runtimeConfig, type Backend, type ModelSource, type RuntimeConfig } from './config.js';
export { loadModelBytes, type ProgressCallback } from './model-bytes.js';
export { ModelSession, type ModelOutputs, type SessionOptions } from './session.js';
