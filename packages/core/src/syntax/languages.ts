/**
 * Language identification and per-language lexical facts, read from the per-language table
 * (grammars.ts); content detection's rules are here (pure, no I/O).
 */
import { grammarTable, languageEntry, type GrammarTable } from './grammars.js';
import { LANGUAGES, type LanguageId } from './types.js';

/** A lookup from the table's lists (extensions, file names, aliases): each key names one language. */
function index(list: (t: GrammarTable) => readonly string[] | undefined): Map<string, LanguageId> {
  const out = new Map<string, LanguageId>();
  for (const lang of LANGUAGES) {
    for (const key of list(grammarTable(lang)) ?? []) {
      const other = out.get(key);
      if (other !== undefined) throw new Error(`grammars.ts: "${key}" names both ${other} and ${lang}`);
      out.set(key, lang);
    }
  }
  return out;
}

const EXTENSIONS = index((t) => t.extensions);
const EXTENSIONS_EXACT = index((t) => t.extensionsExact);
const SPECIAL_NAMES = index((t) => t.fileNames);
const ALIASES = index((t) => t.aliases);

/** Map a user-supplied language name or alias (case-insensitive) to a LanguageId, or null. */
export function parseLanguageName(name: string | null | undefined): LanguageId | null {
  if (!name) return null;
  const key = name.trim().toLowerCase().replace(/\s+/g, '');
  return ALIASES.get(key) ?? null;
}

export function isLanguageId(x: unknown): x is LanguageId {
  return typeof x === 'string' && (LANGUAGES as readonly string[]).includes(x);
}

/** Language from a file name's extension (or well-known name), or null. */
export function languageFromFileName(fileName: string): LanguageId | null {
  const base = fileName.replace(/\\/g, '/').split('/').pop() ?? '';
  const special = SPECIAL_NAMES.get(base.toLowerCase());
  if (special) return special;
  const dot = base.lastIndexOf('.');
  if (dot <= 0 && !(dot === 0 && base.length > 1)) return null;
  const ext = base.slice(dot + 1);
  return EXTENSIONS_EXACT.get(ext) ?? EXTENSIONS.get(ext.toLowerCase()) ?? null;
}

const SHEBANGS: Array<[RegExp, LanguageId]> = [
  [/\bpython[0-9.]*\b/, 'python'],
  [/\b(node|nodejs|bun)\b/, 'javascript'],
  [/\b(deno|ts-node|tsx)\b/, 'typescript'],
  [/\bruby\b/, 'ruby'],
  [/\bphp\b/, 'php'],
];

/**
 * Content heuristics, in a fixed order; each returns a score. Deterministic; null when no rule
 * is confident.
 */
function detectByContent(content: string): LanguageId | null {
  // The /m rules below start `^\s*` at every line start, and `\s` crosses line breaks: a run of
  // blank lines (or of CRs, which /m also reads as line starts) made each rule quadratic (a line of
  // 30,000 CRs took 20 s). Blank lines go, CRs become spaces; no rule looks at either.
  const head = (content.length > 20000 ? content.slice(0, 20000) : content).replace(/[\r\u2028\u2029]/g, ' ').replace(/\n\s*\n/g, '\n');
  const firstLine = head.slice(0, head.indexOf('\n') >>> 0).trim();
  if (firstLine.startsWith('#!')) {
    for (const [re, lang] of SHEBANGS) if (re.test(firstLine)) return lang;
    // A script for another interpreter (sh, bash, perl, awk…): no parsed language, whatever its
    // body resembles (a shell script full of printf scored as C and got `// …` markers, #21).
    return null;
  }
  if (/^\s*<\?php\b/.test(head) || /<\?php\b/.test(head.slice(0, 200))) return 'php';

  const score: Record<LanguageId, number> = {
    python: 0,
    typescript: 0,
    tsx: 0,
    javascript: 0,
    go: 0,
    rust: 0,
    java: 0,
    c: 0,
    cpp: 0,
    csharp: 0,
    ruby: 0,
    php: 0,
  };
  const count = (re: RegExp) => (head.match(re) ?? []).length;
  const m = (re: RegExp) => re.test(head);

  // Go
  if (m(/^package\s+\w+\s*$/m) && m(/^func\s/m)) score.go += 10;
  if (m(/^import\s+\(\s*$/m) && m(/^\s*"[\w./-]+"\s*$/m)) score.go += 4;
  if (m(/:=/) && m(/^func\s/m)) score.go += 3;
  // Rust
  score.rust += 3 * count(/^\s*(pub(\([\w:]+\))?\s+)?fn\s+\w+/gm);
  score.rust += 3 * count(/\blet\s+mut\s/g);
  score.rust += 3 * count(/^\s*impl\b/gm);
  score.rust += 4 * count(/^\s*use\s+(std|crate|super|self)::/gm);
  score.rust += 2 * count(/#\[derive\(/g);
  // Python
  score.python += 3 * count(/^\s*def\s+\w+\s*\(.*\)\s*(->\s*[^:]+)?:\s*$/gm);
  score.python += 3 * count(/^\s*from\s+[\w.]+\s+import\s+/gm);
  score.python += 2 * count(/^import\s+[\w.]+(\s+as\s+\w+)?\s*$/gm);
  score.python += 2 * count(/^\s*(elif|except|class\s+\w+(\(.*\))?)\b.*:\s*$/gm);
  score.python += 2 * count(/\bself\.\w+/g) * (m(/^\s*def\s/m) ? 1 : 0);
  // Ruby
  score.ruby += 3 * count(/^\s*require(_relative)?\s+['"]/gm);
  score.ruby += 2 * count(/^\s*def\s+[\w?!.]+(\(.*\))?\s*$/gm) * (m(/^\s*end\s*$/m) ? 1 : 0);
  score.ruby += 2 * count(/\bdo\s*\|[^|]*\|/g);
  score.ruby += 2 * count(/^\s*(module|class)\s+[A-Z]\w*(\s*<\s*[\w:]+)?\s*$/gm) * (m(/^\s*end\s*$/m) ? 1 : 0);
  score.ruby += 1 * count(/^\s*end\s*$/gm) * (m(/[{};]\s*$/m) ? 0 : 1);
  // C / C++
  const includes = count(/^\s*#include\s*[<"]/gm);
  score.c += 3 * includes;
  score.cpp += 3 * includes;
  score.cpp +=
    4 * count(/\b(std::|namespace\s+\w+|template\s*<|class\s+\w+\s*(:\s*public)?|public:|private:|#include\s*<(iostream|vector|string|memory|map)>)/g);
  score.c += 2 * count(/\b(malloc|printf|sizeof|typedef\s+struct|#define)\b/g);
  // Java / C#
  score.java += 3 * count(/^\s*import\s+(static\s+)?[\w.]+(\.\*)?;\s*$/gm);
  score.java += 3 * count(/^\s*package\s+[\w.]+;\s*$/gm);
  score.java += 2 * count(/\bpublic\s+(static\s+)?(final\s+)?(class|interface|enum|void)\b/g);
  score.java += 2 * count(/\bSystem\.out\.print/g);
  score.csharp += 4 * count(/^\s*using\s+[\w.]+;\s*$/gm);
  score.csharp += 4 * count(/^\s*namespace\s+[\w.]+\s*(;|\{)?\s*$/gm);
  score.csharp += 2 * count(/\{\s*get;\s*(private\s+)?set;\s*\}/g);
  score.csharp += 2 * count(/\bConsole\.Write/g);
  if (score.csharp > 0) score.java = Math.max(0, score.java - 2);
  // TypeScript / JavaScript
  score.typescript += 3 * count(/^\s*(export\s+)?(interface|type)\s+\w+(<[^>]*>)?\s*(=|\{|extends)/gm);
  score.typescript += 2 * count(/\b(\w+)\s*:\s*(string|number|boolean|void|unknown|any|never)\b/g);
  score.typescript += 2 * count(/\b(private|public|readonly)\s+\w+\s*[:?]/g);
  score.typescript += 2 * count(/^\s*import\s+type\s/gm);
  const jsLike =
    count(/^\s*(import\s+.*\s+from\s+['"]|export\s+(default\s+)?(function|const|class)|const\s+\w+\s*=\s*require\()/gm) +
    count(/\b(const|let)\s+\w+\s*=/g) +
    count(/=>\s*[{(]?/g) +
    count(/\bfunction\s*\w*\s*\(/g) +
    count(/\bconsole\.\w+\(/g);
  score.javascript += 2 * jsLike;
  if (score.typescript > 0) score.typescript += score.javascript;
  if (score.typescript > 0 && /<\/?[A-Z][\w.]*[\s>/]/.test(head) && /return\s*\(?\s*</.test(head)) score.tsx = score.typescript + 1;

  let best: LanguageId | null = null;
  let bestScore = 0;
  let second = 0;
  for (const lang of LANGUAGES) {
    const s = score[lang];
    if (s > bestScore) {
      second = bestScore;
      bestScore = s;
      best = lang;
    } else if (s > second) second = s;
  }
  // C vs C++ ties go to C; require a clear winner otherwise.
  if (best === 'cpp' && score.cpp === score.c) best = 'c';
  if (bestScore < 3) return null;
  if (!languageEntry(best)?.detectWithoutMargin && bestScore - second < 2) return null;
  return best;
}

/** Language by file extension first, then content heuristics; null when unsure. */
/**
 * The language a prune of `text` runs in: the caller's `language` when named (TypeScript in a
 * .tsx file is TSX, whose JSX the plain TypeScript grammar reads as errors), else detected from
 * the file name and content. null for an unknown name or an undetected language. One answer for
 * the pipeline and for the workers that preload its grammar.
 */
export function resolveLanguage(text: string, options: { language?: string | null; fileName?: string | null }): LanguageId | null {
  const requested = options.language;
  if (requested && requested !== 'auto') {
    const named = parseLanguageName(requested);
    return named === 'typescript' && options.fileName && languageFromFileName(options.fileName) === 'tsx' ? 'tsx' : named;
  }
  return detectLanguage(options.fileName, text);
}

/**
 * Extensions and names of text formats with no grammar here: their content is not sniffed (a
 * shell script, a YAML or Markdown file must not be read, parsed and commented as C or Python).
 */
const UNPARSED_EXTENSIONS = new Set(
  (
    'sh bash zsh ksh fish csh ps1 bat cmd yml yaml toml ini cfg conf properties env md markdown mdx rst adoc tex ' +
    'html htm xhtml xml svg vue svelte css scss sass less styl json jsonc json5 geojson sql lua hs elm pl pm r ' +
    'kt kts swift scala dart zig proto gradle groovy sol tf hcl nix mk cmake dockerfile'
  ).split(' '),
);
const UNPARSED_NAMES = new Set(['makefile', 'gnumakefile', 'dockerfile', 'containerfile', 'jenkinsfile', 'vagrantfile', 'procfile', 'cmakelists.txt']);

/** Whether a file name says it is a format without a grammar here (no content detection then). */
function unparsedByName(fileName: string): boolean {
  const base = (fileName.replace(/\\/g, '/').split('/').pop() ?? '').toLowerCase();
  if (UNPARSED_NAMES.has(base)) return true;
  const dot = base.lastIndexOf('.');
  return dot >= 0 && UNPARSED_EXTENSIONS.has(base.slice(dot + 1));
}

export function detectLanguage(fileName: string | undefined | null, content: string): LanguageId | null {
  if (fileName) {
    const byName = languageFromFileName(fileName);
    // `.h` is C's and C++'s: a header whose content is clearly C++ (classes, templates,
    // namespaces) is read as C++, which the C grammar reads as errors.
    if (byName === 'c' && /\.h$/i.test(fileName) && content && detectByContent(content) === 'cpp') return 'cpp';
    if (byName) return byName;
    if (unparsedByName(fileName)) return null;
  }
  return content ? detectByContent(content) : null;
}

/** File name of the grammar's wasm (`tree-sitter-<grammar>.wasm`). */
export function grammarFileFor(lang: LanguageId): string {
  return grammarTable(lang).grammarFile;
}

/**
 * Line-comment prefix used when rendering elision markers; an unknown language gets '#'
 * (shell, YAML, TOML, Makefiles…: the commonest line comment outside the C family).
 */
export function lineCommentPrefix(lang: LanguageId | null): string {
  return languageEntry(lang)?.lineComment ?? (lang === null ? '#' : '//');
}
