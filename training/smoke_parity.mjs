#!/usr/bin/env node
// @ts-check
/**
 * The exported graph, run by onnxruntime-web (WASM) through packages/core's ModelSession, against the
 * torch reference outputs export.py wrote: the same checks as packages/core/test/runtime/parity.test.ts,
 * for a freshly exported model (training/smoke.sh).
 *   node training/smoke_parity.mjs MODEL.onnx torch-outputs.json features.f32
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const core = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'core', 'dist');
const { ModelSession } = await import(path.join(core, 'runtime', 'session.js'));
const { FEATURE_SETS } = await import(path.join(core, 'features', 'lines.js'));

const [modelPath, refPath, featuresPath] = process.argv.slice(2);
const ref = JSON.parse(fs.readFileSync(refPath, 'utf8'));
const buf = fs.readFileSync(featuresPath);
const features = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
const session = await ModelSession.create({ model: new Uint8Array(fs.readFileSync(modelPath)), backend: 'wasm' });
const failures = [];
const check = (what, ok) => {
  if (!ok) failures.push(what);
};
const maxAbs = (a, b) => (a.length !== b.length ? Infinity : Math.max(0, ...Array.from(a, (v, i) => Math.abs(v - b[i]))));
check(`feature version ${session.info.featureVersion} is one this build computes`, !!FEATURE_SETS[session.info.featureVersion]);
check(`feature count ${session.info.featureCount} = ${ref.f}`, session.info.featureCount === ref.f);
const out = await session.run(features, ref.n, ref.f);
check(`semantic within 1e-4 (${maxAbs(out.semantic, ref.semantic)})`, maxAbs(out.semantic, ref.semantic) < 1e-4);
check(`dependency within 1e-4 (${maxAbs(out.dependency, ref.dependency)})`, maxAbs(out.dependency, ref.dependency) < 1e-4);
check(`gate within 1e-5 (${maxAbs(out.gate, ref.gate)})`, maxAbs(out.gate, ref.gate) < 1e-5);
check(`doc within 1e-5 (${Math.abs(out.doc - ref.doc)})`, Math.abs(out.doc - ref.doc) < 1e-5);
check(`crf within 1e-6 (${maxAbs(out.crf, ref.crf)})`, maxAbs(out.crf, ref.crf) < 1e-6);
check(`info equals [${ref.info}]`, JSON.stringify(Array.from(out.info ?? [])) === JSON.stringify(ref.info));
await session.release();
if (failures.length) {
  console.error(`training smoke: the exported model does not match torch:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(`training smoke: exported graph matches torch on ${ref.n} fixture lines (${ref.f} features)`);
