/// <reference types="vite/client" />

/** vite.config.ts's ortWasm plugin: the URL of onnxruntime-web's plain SIMD wasm (gzipped in builds). */
declare module 'virtual:ort-wasm' {
  const url: string;
  export default url;
}

/** vite.config.ts's o200kTable plugin: the URL of the tokenizer's binary rank table (null without a built core). */
declare module 'virtual:o200k-table' {
  const url: string | null;
  export default url;
}
