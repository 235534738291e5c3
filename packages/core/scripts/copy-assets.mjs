// After tsc: copy the browser assets next to the compiled code, where dist/integrations/bundled.js
// references them with `new URL(..., import.meta.url)` (bundlers such as Vite then emit them):
// dist/assets/web-tree-sitter.wasm, dist/assets/grammars/tree-sitter-*.wasm, dist/assets/models/ctxprune-lamr.onnx.
import { copyFile, mkdir } from 'node:fs/promises';
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
