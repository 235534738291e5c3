/**
 * The client's queueing logic against a fake worker: a MessageChannel whose far end exposes the
 * real worker host (host.ts) over comlink, bound to a fake engine. The real worker, with the real
 * pipeline, is exercised by the browser tests in e2e/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expose } from 'comlink';
import { compact } from '../../src/compaction/compact.js';
import type { CompactOptions, Message } from '../../src/compaction/types.js';
import { CtxpruneError } from '../../src/errors.js';
import type { PruneOptions, PruneResult } from '../../src/prune/types.js';
import { createWorkerHost, resolveEngine, type Engine } from '../../src/worker/host.js';
import { createPrunerClient, isAbortError, WorkerCrashedError, type WorkerLike } from '../../src/worker/client.js';
import type { LoadProgress, WorkerPreload } from '../../src/worker/protocol.js';
import type { NeuralScorerLike } from '../../src/worker/host.js';

interface Call {
  text: string;
  options: PruneOptions;
  release(): void;
}

function fakeResult(text: string, options: PruneOptions): PruneResult {
  const lines = text.split('\n');
  return {
    text: lines[0] ?? '',
    keptLines: [1],
    lines: lines.map((_, i) => ({
      line: i + 1,
      kept: i === 0,
      reason: i === 0 ? 'evidence' : null,
      semantic: 0.5,
      dependency: 0.5,
      gate: 0.5,
      keep: i === 0 ? 1 : 0,
    })),
    stats: {
      originalTokens: text.length,
      outputTokens: 1,
      budgetTokens: options.tokens ?? 1,
      achievedRatio: text.length,
      totalLines: lines.length,
      keptLineCount: 1,
      ms: 1,
      timings: { syntax: 0, score: 0 } as unknown as PruneResult['stats']['timings'],
      scorer: typeof options.scorer === 'string' ? options.scorer : 'custom',
      backend: 'cpu',
      tokenizer: 'fake',
      language: null,
      syntax: 'indent',
      repair: 'skipped',
      inputParseOk: null,
      outputParseOk: null,
      documentScore: 0,
      keepBias: 0,
      degraded: [],
    },
  };
}

/** A fake engine whose prune calls wait until the test releases them (or auto-resolve). */
function fakeEngine(auto = false) {
  const calls: Call[] = [];
  const configured: unknown[] = [];
  const engine: Engine = {
    prune(text, options) {
      if (!text) return Promise.reject(new CtxpruneError('EMPTY_INPUT', 'The input is empty.'));
      return new Promise((resolve, reject) => {
        const call: Call = { text, options, release: () => resolve(fakeResult(text, options)) };
        options.signal?.addEventListener('abort', () => reject(new CtxpruneError('ABORTED', 'aborted')));
        calls.push(call);
        if (auto) call.release();
      });
    },
    configure(patch) {
      configured.push(patch);
      return {} as ReturnType<Engine['configure']>;
    },
    loadDefaultTokenCounter: async () => ({ name: 'fake', count: (t: string) => t.split(/\s+/).filter(Boolean).length }),
  };
  return { engine, calls, configured };
}

const opened: MessagePort[] = [];

/** A WorkerLike over a MessageChannel; crash() fires 'error' like a dying Worker. */
class FakeWorker extends EventTarget implements WorkerLike {
  port: MessagePort;
  far: MessagePort;
  terminated = false;
  constructor(engine: Engine) {
    super();
    const ch = new MessageChannel();
    this.port = ch.port1;
    this.far = ch.port2;
    opened.push(ch.port1, ch.port2);
    expose(createWorkerHost(engine, { probeWebGpu: async () => false }), this.far);
  }
  postMessage(message: unknown, transfer?: Transferable[]) {
    if (!this.terminated) this.port.postMessage(message, transfer ?? []);
  }
  override addEventListener(type: string, l: EventListenerOrEventListenerObject, o?: AddEventListenerOptions) {
    if (type === 'message') this.port.addEventListener(type, l as EventListener, o);
    else super.addEventListener(type, l, o);
  }
  override removeEventListener(type: string, l: EventListenerOrEventListenerObject, o?: EventListenerOptions) {
    if (type === 'message') this.port.removeEventListener(type, l as EventListener, o);
    else super.removeEventListener(type, l, o);
  }
  start() {
    this.port.start();
  }
  terminate() {
    this.terminated = true;
    this.port.close();
    this.far.close();
  }
  crash(message = 'boom') {
    const ev = new Event('error');
    Object.defineProperty(ev, 'message', { value: message });
    this.dispatchEvent(ev);
  }
}

function setup(
  opts: {
    auto?: boolean;
    retries?: number;
    modelUrl?: string;
    neural?: (e: Engine) => void;
    onProgress?: (p: LoadProgress) => void;
    preload?: WorkerPreload;
  } = {},
) {
  const engines: ReturnType<typeof fakeEngine>[] = [];
  const workers: FakeWorker[] = [];
  const client = createPrunerClient({
    retries: opts.retries,
    onProgress: opts.onProgress,
    init: {
      assets: { grammarUrls: { python: '/g/python.wasm' }, treeSitterWasmUrl: '/ts.wasm' },
      ...(opts.modelUrl ? { modelUrl: opts.modelUrl } : {}),
      ...(opts.preload ? { preload: opts.preload } : {}),
    },
    createWorker: () => {
      const e = fakeEngine(opts.auto);
      opts.neural?.(e.engine);
      engines.push(e);
      const w = new FakeWorker(e.engine);
      workers.push(w);
      return w;
    },
  });
  return { client, engines, workers };
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 2000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await tick(2);
  }
}

afterEach(() => {
  for (const p of opened.splice(0)) p.close();
});

describe('createPrunerClient', () => {
  it('starts the worker lazily, passes asset URLs at init and returns results', async () => {
    const { client, engines, workers } = setup({ auto: true });
    expect(workers.length).toBe(0);
    const r = await client.prune('a\nb\nc', { query: 'q', ratio: 2, engine: 'lexical' });
    expect(r.keptLines).toEqual([1]);
    expect(r.engine).toEqual({ requested: 'lexical', scorer: 'lexical', backend: 'cpu', note: null, loadMs: expect.any(Number) });
    expect(engines[0].configured).toEqual([{ assets: { grammarUrls: { python: '/g/python.wasm' }, treeSitterWasmUrl: '/ts.wasm' } }]);
    expect(engines[0].calls[0].options).toMatchObject({ query: 'q', ratio: 2, scorer: 'lexical' });
    expect(engines[0].calls[0].options).not.toHaveProperty('engine');
    client.dispose();
  });

  it('a newer request supersedes: the older rejects ABORTED and its result is never delivered', async () => {
    const { client, engines } = setup();
    const first = client.prune('one', { query: 'a' });
    const firstOutcome = first.then(
      () => 'resolved',
      (e) => (isAbortError(e) ? 'aborted' : 'other'),
    );
    await until(() => engines[0]?.calls.length === 1);
    const second = client.prune('two', { query: 'b' });
    expect(await firstOutcome).toBe('aborted');
    await until(() => engines[0].calls.length === 2);
    // The old call was told to stop (its signal aborted in the worker).
    expect(engines[0].calls[0].options.signal?.aborted).toBe(true);
    engines[0].calls[1].release();
    const r = await second;
    expect(r.text).toBe('two');
    client.dispose();
  });

  it('a request superseded while still queued never reaches the engine', async () => {
    const { client, engines } = setup({ auto: true });
    const results: string[] = [];
    const ps = ['a', 'b', 'c', 'd'].map((t) =>
      client.prune(t, { query: '' }).then(
        (r) => results.push(r.text),
        (e) => results.push(isAbortError(e) ? `aborted:${t}` : 'error'),
      ),
    );
    await Promise.all(ps);
    expect(results).toEqual(['aborted:a', 'aborted:b', 'aborted:c', 'd']);
    // Cancels arrive before the yield in the host, so only the last one is pruned.
    expect(engines[0].calls.map((c) => c.text)).toEqual(['d']);
    client.dispose();
  });

  it('an AbortSignal cancels one request; supersede:false keeps others running', async () => {
    const { client, engines } = setup();
    const ac = new AbortController();
    const a = client.prune('a', { query: '', signal: ac.signal });
    const b = client.prune('b', { query: '', supersede: false });
    await until(() => engines[0]?.calls.length === 2);
    ac.abort();
    await expect(a).rejects.toMatchObject({ code: 'ABORTED' });
    engines[0].calls[1].release();
    expect((await b).text).toBe('b');
    await expect(client.prune('x', { query: '', signal: ac.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    client.dispose();
  });

  it('keeps CtxpruneError codes across the boundary', async () => {
    const { client } = setup({ auto: true });
    const err = await client.prune('', { query: '' }).catch((e) => e);
    expect(err).toBeInstanceOf(CtxpruneError);
    expect(err.code).toBe('EMPTY_INPUT');
    expect(err.message).toBe('The input is empty.');
    client.dispose();
  });

  it('restarts a crashed worker and retries the in-flight request once', async () => {
    const { client, engines, workers } = setup();
    const p = client.prune('code', { query: 'q' });
    await until(() => engines[0]?.calls.length === 1);
    workers[0].crash();
    await until(() => engines[1]?.calls.length === 1);
    expect(workers[0].terminated).toBe(true);
    expect(client.starts).toBe(2);
    // A late reply from the dead worker must not count.
    engines[1].calls[0].release();
    expect((await p).text).toBe('code');
    client.dispose();
  });

  it('a second crash rejects with a clear WorkerCrashedError, and the next request starts fresh', async () => {
    const { client, engines, workers } = setup();
    const p = client.prune('code', { query: 'q' }).catch((e) => e);
    await until(() => engines[0]?.calls.length === 1);
    workers[0].crash('out of memory');
    await until(() => engines[1]?.calls.length === 1);
    workers[1].crash('out of memory');
    const err = await p;
    expect(err).toBeInstanceOf(WorkerCrashedError);
    expect(err.message).toMatch(/stopped unexpectedly 2 times \(out of memory\)/);
    const next = client.prune('again', { query: '' });
    await until(() => engines[2]?.calls.length === 1);
    engines[2].calls[0].release();
    expect((await next).text).toBe('again');
    client.dispose();
  });

  it('a crash with nothing pending does not restart until the next request', async () => {
    const { client, workers } = setup({ auto: true });
    await client.prune('a', { query: '' });
    workers[0].crash();
    await tick(20);
    expect(workers.length).toBe(1);
    expect((await client.prune('b', { query: '' })).text).toBe('b');
    expect(workers.length).toBe(2);
    client.dispose();
  });

  it('dispose rejects pending requests and terminates the worker', async () => {
    const { client, engines, workers } = setup();
    const p = client.prune('a', { query: '' });
    await until(() => engines[0]?.calls.length === 1);
    client.dispose();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(workers[0].terminated).toBe(true);
    await expect(client.prune('b', { query: '' })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('counts tokens without superseding prunes, and reports capabilities', async () => {
    const { client } = setup({ auto: true });
    const [r, n] = await Promise.all([client.prune('x y', { query: '' }), client.countTokens('one two three')]);
    expect(r.text).toBe('x y');
    expect(n).toBe(3);
    expect(await client.capabilities()).toMatchObject({ webgpu: false, neural: false });
    client.dispose();
  });
});

describe('resolveEngine', () => {
  const caps = { webgpu: false, neural: false, crossOriginIsolated: false, threads: 2 };
  it('lexical runs as asked', () => {
    expect(resolveEngine('lexical', caps)).toEqual({ scorer: 'lexical', note: null });
  });
  it('neural requests fall back to lexical with a note saying so', () => {
    expect(resolveEngine('webgpu', caps).note).toMatch(/WebGPU is not available.*no WebGPU adapter.*lexical/);
    expect(resolveEngine('wasm', { ...caps, webgpu: true }).note).toMatch(/WASM is not available.*lexical/);
    expect(resolveEngine('auto', caps).note).toMatch(/auto picked the lexical scorer/);
  });
});

describe('neural engine choice in the worker', () => {
  /** A fake neural scorer: records its backend; WebGPU falls back to WASM like a machine without an adapter. */
  function withNeural(fail = false) {
    const loads: string[] = [];
    return {
      loads,
      install: (e: Engine) => {
        e.loadNeural = async ({ backend, model, onProgress }) => {
          loads.push(`${backend}:${model}`);
          onProgress?.(50, 100);
          onProgress?.(100, 100);
          if (fail) throw new Error('HTTP 404');
          const s: NeuralScorerLike = {
            name: 'neural',
            backend: 'wasm',
            fallbackReason: backend === 'webgpu' ? 'no WebGPU adapter' : null,
            score: () => {
              throw new Error('not used by the fake engine');
            },
          };
          return s;
        };
      },
    };
  }

  it('loads the model once per backend, reports progress, and says when WebGPU fell back', async () => {
    const n = withNeural();
    const progress: LoadProgress[] = [];
    const { client, engines } = setup({ auto: true, modelUrl: '/m.onnx', neural: n.install, onProgress: (p) => progress.push(p) });
    expect(await client.capabilities()).toMatchObject({ neural: true });
    const a = await client.prune('x', { query: '', engine: 'wasm' });
    expect(a.engine.note).toBeNull();
    expect(typeof engines[0].calls[0].options.scorer).toBe('object');
    await client.prune('x', { query: '', engine: 'auto' }); // auto = the WASM scorer, already loaded
    const g = await client.prune('x', { query: '', engine: 'webgpu' });
    expect(g.engine.note).toMatch(/WebGPU unavailable \(no WebGPU adapter\): the neural scorer ran on WASM/);
    expect(n.loads).toEqual(['wasm:/m.onnx', 'webgpu:/m.onnx']);
    await until(() => progress.filter((p) => p.done).length === 2);
    expect(progress.some((p) => !p.done && p.loaded === 50 && p.total === 100)).toBe(true);
    client.dispose();
  });

  it('a model that fails to load falls back to the lexical scorer with the reason', async () => {
    const n = withNeural(true);
    const { client, engines } = setup({ auto: true, modelUrl: '/missing.onnx', neural: n.install });
    const r = await client.prune('x', { query: '', engine: 'auto' });
    expect(r.engine.note).toMatch(/neural model failed to load \(HTTP 404\).*lexical/);
    expect(engines[0].calls[0].options.scorer).toBe('lexical');
    client.dispose();
  });

  it('without a model URL the neural options run lexical and say so', async () => {
    const n = withNeural();
    const { client } = setup({ auto: true, neural: n.install });
    expect(await client.capabilities()).toMatchObject({ neural: false });
    const r = await client.prune('x', { query: '', engine: 'webgpu' });
    expect(r.engine.note).toMatch(/no model is bundled/);
    expect(n.loads).toEqual([]);
    client.dispose();
  });
});

describe("Auto's first results on the JavaScript executor", () => {
  /** Fake neural scorers that report the backend they were loaded for; WASM's load waits for the test. */
  function backends(opts: { jsFallsBack?: boolean } = {}) {
    const loads: string[] = [];
    let openWasm: () => void = () => undefined;
    const wasmGate = new Promise<void>((r) => (openWasm = r));
    const install = (e: Engine) => {
      e.loadNeural = async ({ backend }) => {
        loads.push(backend);
        if (backend === 'wasm') await wasmGate;
        const ran = backend === 'js' && opts.jsFallsBack ? 'wasm' : backend;
        return { name: 'neural', backend: ran, fallbackReason: null, score: () => ({}) as never };
      };
    };
    return { loads, install, openWasm: () => openWasm() };
  }
  const ranOn = (call: { options: PruneOptions }) => (call.options.scorer as { backend?: string }).backend;

  it('the first result runs on js, onnxruntime starts loading only after it, and Auto moves to WASM once loaded', async () => {
    const b = backends();
    const { client, engines } = setup({ auto: true, modelUrl: '/m.onnx', neural: b.install });
    await client.prune('x', { query: 'q', engine: 'auto' });
    expect(ranOn(engines[0].calls[0])).toBe('js');
    await until(() => b.loads.includes('wasm'));
    expect(b.loads).toEqual(['js', 'wasm']);
    // WASM still loading: the executor answers.
    await client.prune('x', { query: 'q', engine: 'auto' });
    expect(ranOn(engines[0].calls[1])).toBe('js');
    b.openWasm();
    await tick(10);
    await client.prune('x', { query: 'q', engine: 'auto' });
    expect(ranOn(engines[0].calls[2])).toBe('wasm');
    expect(b.loads).toEqual(['js', 'wasm']);
    client.dispose();
  });

  it('a model the executor cannot run (it fell back to WASM itself) is the WASM scorer: no second load', async () => {
    const b = backends({ jsFallsBack: true });
    const { client, engines } = setup({ auto: true, modelUrl: '/m.onnx', neural: b.install });
    await client.prune('x', { query: 'q', engine: 'auto' });
    await client.prune('x', { query: 'q', engine: 'auto' });
    await tick(10);
    expect(engines[0].calls.map(ranOn)).toEqual(['wasm', 'wasm']);
    expect(b.loads).toEqual(['js']);
    client.dispose();
  });

  it('the WASM engine asked for by name never runs on the executor', async () => {
    const b = backends();
    const { client, engines } = setup({ auto: true, modelUrl: '/m.onnx', neural: b.install });
    const r = client.prune('x', { query: 'q', engine: 'wasm' });
    await until(() => b.loads.length === 1);
    b.openWasm();
    await r;
    expect(ranOn(engines[0].calls[0])).toBe('wasm');
    expect(b.loads).toEqual(['wasm']);
    client.dispose();
  });
});

describe('loading before the first request', () => {
  /** An engine whose tokenizer, grammars and model resolve when the test says, recording what was asked. */
  function gated() {
    const asked: string[] = [];
    const gates = new Map<string, () => void>();
    const once = new Map<string, Promise<void>>(); // loaded once, like the real loaders
    const gate = (what: string) => {
      let p = once.get(what);
      if (!p) {
        asked.push(what);
        p = new Promise<void>((r) => gates.set(what, r));
        once.set(what, p);
      }
      return p;
    };
    const install = (e: Engine) => {
      e.loadDefaultTokenCounter = async () => {
        await gate('tokenizer');
        return { name: 'fake', count: (t: string) => t.length };
      };
      e.loadGrammar = (l) => gate(`grammar:${l}`);
      e.languageOf = (_text, o) => (o.language && o.language !== 'auto' ? o.language : null);
      e.loadNeural = async ({ backend }) => {
        await gate(`neural:${backend}`);
        return { name: 'neural', backend: 'wasm', fallbackReason: null, score: () => ({}) as never };
      };
    };
    const open = (what: string) => gates.get(what)?.();
    return { asked, install, open };
  }

  it('init starts the tokenizer, the grammar and the model (on the JavaScript executor for Auto) at once, and reports each load', async () => {
    const g = gated();
    const progress: LoadProgress[] = [];
    const { client } = setup({
      auto: true,
      modelUrl: '/m.onnx',
      neural: g.install,
      preload: { languages: ['python'], engine: 'auto' },
      onProgress: (p) => progress.push(p),
    });
    await client.capabilities();
    await until(() => g.asked.length === 3);
    expect(g.asked.sort()).toEqual(['grammar:python', 'neural:js', 'tokenizer']);
    g.open('tokenizer');
    await until(() => progress.some((p) => p.what === 'tokenizer' && p.done));
    expect(progress.filter((p) => p.what === 'tokenizer').map((p) => p.done)).toEqual([false, true]);
    client.dispose();
  });

  it('Auto on a language the model was not trained on (Go) loads the model too: it runs there', async () => {
    const g = gated();
    const { client } = setup({ auto: true, modelUrl: '/m.onnx', neural: g.install, preload: { languages: ['go'], engine: 'auto' } });
    await client.capabilities();
    await until(() => g.asked.length === 3);
    expect(g.asked.sort()).toEqual(['grammar:go', 'neural:js', 'tokenizer']);
    client.dispose();
  });

  it('the lexical engine loads no model', async () => {
    for (const preload of [
      { languages: ['python'], engine: 'lexical' },
      { languages: ['go'], engine: 'lexical' },
    ] as WorkerPreload[]) {
      const g = gated();
      const { client } = setup({ auto: true, modelUrl: '/m.onnx', neural: g.install, preload });
      await client.capabilities();
      await until(() => g.asked.length === 2);
      await tick(20);
      expect(g.asked.sort()).toEqual([`grammar:${preload.languages![0]}`, 'tokenizer']);
      client.dispose();
    }
  });

  it('a request waits for its loads, which it reports apart from the pruning (engine.loadMs)', async () => {
    const g = gated();
    const { client, engines } = setup({ auto: true, modelUrl: '/m.onnx', neural: g.install });
    const r = client.prune('x = 1', { query: 'q', language: 'python', engine: 'wasm' });
    await until(() => g.asked.length === 3);
    expect(g.asked.sort()).toEqual(['grammar:python', 'neural:wasm', 'tokenizer']);
    await tick(30);
    expect(engines[0].calls.length).toBe(0); // nothing pruned while a load is pending
    for (const w of ['tokenizer', 'grammar:python', 'neural:wasm']) g.open(w);
    const done = await r;
    expect(done.engine.loadMs).toBeGreaterThanOrEqual(25);
    // Loaded once: the next request waits for nothing.
    const again = await client.prune('x = 2', { query: 'q', language: 'python', engine: 'wasm' });
    expect(again.engine.loadMs).toBeLessThan(25);
    client.dispose();
  });
});

describe('the first request pruned ahead (preload.request)', () => {
  const request = { text: 'def f():\n  return 1', options: { query: 'q', ratio: 4, language: 'auto', fileName: undefined, engine: 'lexical' as const } };

  /** A client whose worker has started pruning `request` ahead; `aborted` settles when that prune is cancelled. */
  async function started() {
    const s = setup({ preload: { languages: [], engine: 'lexical', request } });
    await s.client.capabilities();
    await until(() => s.engines[0].calls.length === 1);
    const ahead = s.engines[0].calls[0];
    const aborted = new Promise<boolean>((r) => ahead.options.signal?.addEventListener('abort', () => r(true)));
    return { ...s, ahead, aborted };
  }

  it('is pruned at init, before any request; the same request (options in any order) gets that result without a second prune', async () => {
    const { client, engines, ahead } = await started();
    expect(ahead.text).toBe(request.text);
    ahead.release();
    const r = await client.prune(request.text, { engine: 'lexical', language: 'auto', ratio: 4, query: 'q' });
    expect(r.text).toBe('def f():');
    expect(engines[0].calls.length).toBe(1);
    // Only once: the same request again is pruned again.
    const again = client.prune(request.text, request.options);
    await until(() => engines[0].calls.length === 2);
    engines[0].calls[1].release();
    await again;
    client.dispose();
  });

  it('a different first request cancels it and runs itself', async () => {
    const { client, engines, aborted } = await started();
    const r = client.prune(request.text, { ...request.options, ratio: 8 });
    expect(await aborted).toBe(true);
    await until(() => engines[0].calls.length === 2);
    expect(engines[0].calls[1].options.ratio).toBe(8);
    engines[0].calls[1].release();
    await r;
    client.dispose();
  });

  it('cancelling the request that took it cancels the prune', async () => {
    const { client, aborted } = await started();
    const ac = new AbortController();
    const r = client.prune(request.text, { ...request.options, signal: ac.signal });
    await tick(10);
    ac.abort();
    await expect(r).rejects.toSatisfy(isAbortError);
    expect(await aborted).toBe(true);
    client.dispose();
  });

  it("Auto: onnxruntime starts loading only once the page's request has taken the ahead result", async () => {
    const loads: string[] = [];
    const { client } = setup({
      auto: true,
      modelUrl: '/m.onnx',
      neural: (e) => {
        e.loadNeural = async ({ backend }) => {
          loads.push(backend);
          return { name: 'neural', backend, fallbackReason: null, score: () => ({}) as never };
        };
      },
      preload: { languages: [], engine: 'auto', request: { ...request, options: { ...request.options, engine: 'auto' } } },
    });
    await client.capabilities();
    await tick(30);
    expect(loads).toEqual(['js']);
    await client.prune(request.text, { ...request.options, engine: 'auto' });
    await until(() => loads.includes('wasm'));
    client.dispose();
  });
});

describe('compaction in the worker', () => {
  // Two reads and the task; the budget leaves room for one read beside the placeholders.
  const transcript: Message[] = [
    { id: 'u1', role: 'user', content: 'Fix parseHeader for an empty header' },
    { id: 'a1', role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/parser.py"}' }] },
    { id: 't1', role: 'tool', toolName: 'read_file', toolCallId: 'c1', content: 'def parseHeader(raw):\n    return raw.split(":")\n' + 'x = 1\n'.repeat(20) },
    { id: 'a2', role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c2', name: 'read_file', arguments: '{"path":"src/render.py"}' }] },
    { id: 't2', role: 'tool', toolName: 'read_file', toolCallId: 'c2', content: 'def render(tpl):\n    return tpl\n' + 'y = 2\n'.repeat(20) },
    { id: 'a3', role: 'assistant', content: 'Done reading.' },
    { id: 'u2', role: 'user', content: 'Go on.' },
  ];

  /** The fake engine with the library's compact(); `gate` holds each call until the test opens it. */
  function withCompact(gate?: Promise<void>) {
    const seen: CompactOptions[] = [];
    return {
      seen,
      install: (e: Engine) => {
        e.compact = async (messages, options) => {
          seen.push(options);
          if (gate) await gate;
          return compact(messages, options);
        };
      },
    };
  }

  it('compacts with the requested engine and the worker tokenizer, and returns the store as plain entries', async () => {
    const c = withCompact();
    const { client } = setup({ auto: true, neural: c.install });
    const r = await client.compact(transcript, { strategy: 'task_aware', tokens: 40, engine: 'lexical' });
    expect(c.seen[0]).toMatchObject({ strategy: 'task_aware', tokens: 40, scorer: 'lexical' });
    expect(c.seen[0]).not.toHaveProperty('engine');
    expect(c.seen[0].tokenCounter?.name).toBe('fake');
    expect(r.tokensAfter).toBeLessThanOrEqual(40);
    expect(r.evicted).toContain('t2');
    expect(r.evicted).not.toContain('t1');
    // Every placeholder's key answers with the original, byte for byte.
    const key = Object.keys(r.store).find((k) => r.store[k].messageId === 't2')!;
    expect(r.store[key].content).toBe(transcript[4].content);
    expect(r.messages.find((m) => m.id === 't2')!.content).toContain(key);
    expect(r.engine).toEqual({ requested: 'lexical', scorer: r.dump.cutScorers.join(', ') || 'none', backend: 'cpu', note: null, loadMs: expect.any(Number) });
    client.dispose();
  });

  it("'auto' without a model cuts lexically and says so", async () => {
    const c = withCompact();
    const { client } = setup({ auto: true, neural: c.install });
    const r = await client.compact(transcript, { strategy: 'task_aware_mig', tokens: 40 });
    expect(c.seen[0].scorer).toBe('lexical');
    expect(r.engine.requested).toBe('auto');
    expect(r.engine.note).toMatch(/auto picked the lexical scorer/);
    client.dispose();
  });

  it('a newer compact supersedes an older one, not a pending prune', async () => {
    let open: () => void = () => undefined;
    const c = withCompact(new Promise<void>((r) => (open = r)));
    const { client, engines } = setup({ neural: c.install });
    const pruned = client.prune('a\nb', { query: 'q' });
    const first = client.compact(transcript, { tokens: 40, engine: 'lexical' });
    const firstOutcome = first.then(
      () => 'resolved',
      (e) => (isAbortError(e) ? 'aborted' : 'other'),
    );
    const second = client.compact(transcript, { tokens: 50, engine: 'lexical' });
    expect(await firstOutcome).toBe('aborted');
    open();
    expect((await second).budget).toBe(50);
    await until(() => engines[0].calls.length === 1);
    engines[0].calls[0].release();
    expect((await pruned).text).toBe('a');
    client.dispose();
  });

  it('bad input and a worker without compaction answer with typed errors', async () => {
    const c = withCompact();
    const { client } = setup({ auto: true, neural: c.install });
    await expect(client.compact(transcript, { tokens: -1, engine: 'lexical' })).rejects.toMatchObject({ code: 'INVALID_BUDGET' });
    client.dispose();
    const bare = setup({ auto: true }).client;
    await expect(bare.compact(transcript, { tokens: 40 })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: /without compaction/ });
    bare.dispose();
  });
});

describe('a request that only moves the budget reuses the last preparation', () => {
  /** preparePrune on the fake engine: counts preparations; each can be held until the test opens it. */
  function withPrepare(gated = false) {
    const prepared: string[] = [];
    const gates: (() => void)[] = [];
    return {
      prepared,
      open: () => gates.splice(0).forEach((g) => g()),
      install: (e: Engine) => {
        e.preparePrune = async (text, options) => {
          prepared.push(`${text}|${options.query}`);
          if (gated) await new Promise<void>((r) => gates.push(r));
          return { at: (b) => e.prune(text, { ...options, tokens: b.tokens, ratio: b.ratio, signal: b.signal }) };
        };
      },
    };
  }

  it('one preparation for the same text and options at several budgets; another text or query prepares again', async () => {
    const p = withPrepare();
    const { client, engines } = setup({ auto: true, neural: p.install });
    await client.prune('a\nb', { query: 'q', ratio: 2, engine: 'lexical' });
    const r = await client.prune('a\nb', { query: 'q', ratio: 4, engine: 'lexical' });
    expect(r.stats.budgetTokens).toBe(1);
    expect(p.prepared).toEqual(['a\nb|q']);
    expect(engines[0].calls.map((c) => c.options.ratio)).toEqual([2, 4]);
    await client.prune('a\nb', { query: 'other', ratio: 4, engine: 'lexical' });
    await client.prune('c\nd', { query: 'other', ratio: 4, engine: 'lexical' });
    await client.prune('c\nd', { query: 'other', tokens: 9, engine: 'lexical' });
    expect(p.prepared).toEqual(['a\nb|q', 'a\nb|other', 'c\nd|other']);
    client.dispose();
  });

  it('a request superseded while its text is being prepared leaves the preparation to the next one', async () => {
    const p = withPrepare(true);
    const { client, engines } = setup({ auto: true, neural: p.install });
    const first = client.prune('a\nb', { query: 'q', ratio: 2, engine: 'lexical' });
    const firstOutcome = first.then(
      () => 'resolved',
      (e) => (isAbortError(e) ? 'aborted' : 'other'),
    );
    await until(() => p.prepared.length === 1);
    const second = client.prune('a\nb', { query: 'q', ratio: 8, engine: 'lexical' });
    expect(await firstOutcome).toBe('aborted');
    await tick(10); // the worker hears of the cancel
    p.open();
    expect((await second).text).toBe('a');
    expect(p.prepared).toEqual(['a\nb|q']);
    expect(engines[0].calls.map((c) => c.options.ratio)).toEqual([8]);
    client.dispose();
  });
});
