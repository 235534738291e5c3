/**
 * Grammar loading: the only module of syntax/ that does I/O (through io/assets.ts). Initialises web-tree-sitter once,
 * loads each grammar once and caches it. In Node the .wasm files come from the npm packages (or
 * from `env.assets` when set); in a browser they are fetched with `env.fetch` from `env.assets`.
 * Node-only modules are imported dynamically so this module bundles for the browser.
 */
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { assetUrl, env, isNode, onAssetsChange } from '../config.js';
import { builtAssetUrl, joinBase, readAsset } from '../io/assets.js';
import { CtxpruneError } from '../errors.js';
import { LANGUAGES, type LanguageId } from './types.js';
import { grammarFileFor } from './languages.js';
import { own } from '../util/own.js';
import { shimForGrammar, shimForGrammarAsync } from './shims.js';
import { languageEntry } from './grammars.js';
import { recoverParse } from './recovery.js';

export interface LoadedGrammar {
  language: Language;
  parser: Parser;
}

let runtime: Promise<void> | null = null;
const grammars = new Map<LanguageId, Promise<LoadedGrammar>>();

/** npm package + path inside it for each grammar (Node defaults, playground asset copy). */
const PACKAGE_PATHS: Record<LanguageId, string> = {
  python: '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
  typescript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm',
  tsx: '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm',
  javascript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm',
  go: '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm',
  rust: '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm',
  java: '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm',
  c: 'tree-sitter-c/tree-sitter-c.wasm',
  cpp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm',
  csharp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm',
  ruby: '@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm',
  php: '@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm',
};
const RUNTIME_WASM = 'web-tree-sitter/web-tree-sitter.wasm';
const RUNTIME_FILE = 'web-tree-sitter.wasm';

// A specifier in a variable keeps bundlers from pulling Node built-ins into browser builds.
const NODE_MODULE = 'node:module';
const NODE_FS = 'node:fs';

/**
 * The built package's copy of an asset (Node), or null (a source checkout): read from there, a
 * one-shot process skips resolving the npm packages (~12 M instructions for the first).
 */
async function builtAsset(file: string): Promise<string | null> {
  const url = builtAssetUrl(file);
  const { existsSync } = (await import(/* @vite-ignore */ NODE_FS)) as typeof import('node:fs');
  return existsSync(new URL(url)) ? url : null;
}

async function nodeResolve(spec: string): Promise<string> {
  const { createRequire } = (await import(/* @vite-ignore */ NODE_MODULE)) as typeof import('node:module');
  return createRequire(import.meta.url).resolve(spec);
}

/** Where the grammar for `lang` is read from under the current env. */
export async function grammarLocation(lang: LanguageId): Promise<string> {
  const a = env.assets;
  const exact = own(a.grammarUrls, lang);
  if (exact) return String(exact);
  if (a.grammarBaseUrl) return joinBase(a.grammarBaseUrl, grammarFileFor(lang));
  if (isNode) return (await builtAsset(`grammars/${grammarFileFor(lang)}`)) ?? nodeResolve(own(PACKAGE_PATHS, lang) ?? grammarFileFor(lang));
  return assetUrl(`grammars/${grammarFileFor(lang)}`);
}

async function runtimeLocation(): Promise<string> {
  const u = env.assets.treeSitterWasmUrl;
  if (u) return String(u);
  if (isNode) return (await builtAsset(RUNTIME_FILE)) ?? nodeResolve(RUNTIME_WASM);
  return assetUrl(RUNTIME_FILE);
}

/** Initialise web-tree-sitter once (idempotent; retried after a failure). */
export function initTreeSitter(): Promise<void> {
  if (!runtime) {
    runtime = (async () => {
      const where = await runtimeLocation();
      let wasmBinary: Uint8Array;
      try {
        wasmBinary = await readAsset(where);
      } catch (e) {
        throw new CtxpruneError('GRAMMAR_LOAD_FAILED', `could not load the tree-sitter runtime from ${where}: ${(e as Error).message}`, { cause: e });
      }
      try {
        await Parser.init({ wasmBinary });
      } catch (e) {
        throw new CtxpruneError('GRAMMAR_LOAD_FAILED', `could not start the tree-sitter runtime from ${where}: ${(e as Error).message}`, { cause: e });
      }
    })();
    runtime.catch(() => {
      runtime = null;
    });
  }
  return runtime;
}

/** Load (once) the grammar and a parser for `lang`. Throws CtxpruneError GRAMMAR_LOAD_FAILED / UNKNOWN_LANGUAGE. */
export function loadParser(lang: LanguageId): Promise<LoadedGrammar> {
  if (!(LANGUAGES as readonly string[]).includes(lang)) {
    return Promise.reject(new CtxpruneError('UNKNOWN_LANGUAGE', `unknown language: ${String(lang)}`));
  }
  let p = grammars.get(lang);
  if (!p) {
    p = (async () => {
      // The grammar downloads while the runtime starts.
      const where = await grammarLocation(lang);
      const bytes = readAsset(where);
      bytes.catch(() => undefined);
      await initTreeSitter();
      let language: Language;
      try {
        language = await Language.load(await bytes);
      } catch (e) {
        throw new CtxpruneError('GRAMMAR_LOAD_FAILED', `could not load the ${lang} grammar from ${where}: ${(e as Error).message}`, { cause: e });
      }
      const parser = new Parser();
      parser.setLanguage(language);
      return { language, parser };
    })();
    grammars.set(lang, p);
    p.catch(() => {
      if (grammars.get(lang) === p) grammars.delete(lang);
    });
  }
  return p;
}

/**
 * Parse `text` with the grammar for `lang`, through the source shims (shims.ts: same offsets), and,
 * when the tree has errors, through the language's recovery shims (recovery.ts: a rewrite is kept
 * only when it parses with fewer errors). The caller owns the tree (call `tree.delete()` when done).
 */
export async function parse(lang: LanguageId, text: string, pause?: () => Promise<void>): Promise<Tree> {
  const { language, parser } = await loadParser(lang);
  const parseText = async (input: string): Promise<Tree> => {
    if (pause) return parseSliced(language, input, pause);
    const tree = parser.parse(input);
    if (!tree) throw new CtxpruneError('GRAMMAR_LOAD_FAILED', `the ${lang} parser returned no tree`);
    return tree;
  };
  const input = pause ? await shimForGrammarAsync(lang, text, pause) : shimForGrammar(lang, text);
  const tree = await parseText(input);
  const recover = languageEntry(lang)?.recover;
  return recover && tree.rootNode.hasError ? recoverParse(tree, input, recover, parseText) : tree;
}

/**
 * Progress callbacks per slice of a sliced parse. tree-sitter calls the callback every fixed number
 * of parse operations (~0.1 ms of work each on valid code, more in error recovery), so 64 calls are
 * ~5-10 ms on this hardware. The cut is counted, not timed: where a parse halts changes the tree
 * tree-sitter builds for a file with syntax errors (its error recovery resumes differently), so a
 * timed cut made the pruned output of such files depend on the machine's load.
 */
const CALLS_PER_SLICE = 64;

/**
 * A parse cut into slices with `pause()` between them (which may throw, to cancel): a parse
 * stopped by its progress callback resumes on the next call. With a parser of its own, as a
 * shared one would resume another caller's input. Deterministic: the same input halts at the
 * same points on any machine.
 */
async function parseSliced(language: Language, input: string, pause: () => Promise<void>): Promise<Tree> {
  const parser = new Parser();
  try {
    parser.setLanguage(language);
    let calls = 0;
    const progressCallback = () => ++calls % CALLS_PER_SLICE === 0;
    for (;;) {
      const tree = parser.parse(input, null, { progressCallback });
      if (tree) return tree;
      await pause();
    }
  } finally {
    parser.delete();
  }
}

/** Forget loaded grammars (after `configure()` changed asset locations). The runtime stays initialised. */
export function resetGrammarCache(): void {
  grammars.clear();
}
onAssetsChange(resetGrammarCache);

export interface GrammarAsset {
  /** LanguageId, or 'runtime' for web-tree-sitter's own wasm. */
  id: LanguageId | 'runtime';
  /** File name the browser defaults expect (under `<assetBase>/grammars/`, or `<assetBase>/` for the runtime). */
  fileName: string;
  /** Absolute path of the source file inside node_modules. */
  sourcePath: string;
}

/** Node only: where each grammar .wasm and the runtime wasm live in node_modules (for asset copying). */
export async function listGrammarAssets(): Promise<GrammarAsset[]> {
  if (!isNode) throw new CtxpruneError('ASSET_LOAD_FAILED', 'listGrammarAssets() needs Node');
  const out: GrammarAsset[] = [{ id: 'runtime', fileName: RUNTIME_FILE, sourcePath: await nodeResolve(RUNTIME_WASM) }];
  for (const lang of LANGUAGES) out.push({ id: lang, fileName: grammarFileFor(lang), sourcePath: await nodeResolve(PACKAGE_PATHS[lang]) });
  return out;
}
