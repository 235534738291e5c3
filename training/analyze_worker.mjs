// @ts-check
// Structure analysis in a worker thread, so the data builder can time out on a pathological file.
import { parentPort } from 'node:worker_threads';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const core = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'core', 'dist');
const { analyze } = await import(path.join(core, 'syntax', 'index.js'));
const port = parentPort;
if (!port) throw new Error('analyze_worker.mjs runs as a worker thread (build_dataset.mjs starts it)');
const handle = async ({ id, text, lang }) => {
  try {
    const st = await analyze(text, lang);
    port.postMessage({ id, st });
  } catch (e) {
    port.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
port.on('message', (m) => void handle(m));
