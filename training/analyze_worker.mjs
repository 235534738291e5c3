// Structure analysis in a worker thread, so the data builder can time out on a pathological file.
import { parentPort } from 'node:worker_threads';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const core = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'core', 'dist');
const { analyze } = await import(path.join(core, 'syntax', 'index.js'));
parentPort.on('message', async ({ id, text, lang }) => {
  try {
    const st = await analyze(text, lang);
    parentPort.postMessage({ id, st });
  } catch (e) {
    parentPort.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
});
