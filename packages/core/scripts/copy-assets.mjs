// After tsc: copy the browser assets next to the compiled code, where dist/integrations/bundled.js
// references them with `new URL(..., import.meta.url)` (bundlers such as Vite then emit them):
// dist/assets/web-tree-sitter.wasm, dist/assets/grammars/tree-sitter-*.wasm, dist/assets/models/ctxprune-lamr.onnx.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(pkg, 'dist/assets');
const { listGrammarAssets } = await import(join(pkg, 'dist/syntax/loader.js'));
await mkdir(join(out, 'grammars'), { recursive: true });
await mkdir(join(out, 'models'), { recursive: true });
for (const a of await listGrammarAssets()) {
  await copyFile(a.sourcePath, a.id === 'runtime' ? join(out, a.fileName) : join(out, 'grammars', a.fileName));
}
// The default model lives at the repository root (models/); a package built elsewhere may set CTXPRUNE_MODEL.
const model = process.env.CTXPRUNE_MODEL ?? join(pkg, '../../models/ctxprune-lamr.onnx');
if (existsSync(model)) await copyFile(model, join(out, 'models/ctxprune-lamr.onnx'));
else {
  console.error(`copy-assets: no model at ${model}; the package will not ship a default model`);
  process.exitCode = 1;
}
// The o200k_base rank table in binary (text/o200k.ts serializeRankTable): Node reads it instead of
// parsing js-tiktoken's 2.3 MB rank module (tokenizer load ~10x faster in a fresh process).
const { serializeRankTable } = await import(join(pkg, 'dist/text/o200k.js'));
const { default: ranks } = await import('js-tiktoken/ranks/o200k_base');
await writeFile(join(out, 'o200k_base.bin'), serializeRankTable(ranks.bpe_ranks));
