/// <reference types="vite/client" />

/** vite.config.ts's ortWasm plugin: the URL of onnxruntime-web's plain SIMD wasm (gzipped in builds). */
declare module 'virtual:ort-wasm' {
  const url: string;
  export default url;
}
