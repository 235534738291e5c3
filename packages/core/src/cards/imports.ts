/**
 * Import edges between the files of a tree (pure, lexical): Python `import a.b` / `from .x import y`
 * and JS/TS relative specifiers. Used for precondition edges and by file localization.
 */

const PY_IMPORT = /^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\(?[^\n#]*)|import[ \t]+([^\n#]+))/gm;
const JS_IMPORT =
  /(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Dotted module name → path, for every .py file (with and without a leading src./lib.). */
export function pythonModuleIndex(paths: Iterable<string>): Map<string, string> {
  const idx = new Map<string, string>();
  for (const p of paths) {
    if (!p.endsWith('.py')) continue;
    let mod = p.slice(0, -3).replace(/\\/g, '/');
    if (mod.endsWith('/__init__')) mod = mod.slice(0, -9);
    const dotted = mod.split('/').join('.');
    if (!idx.has(dotted)) idx.set(dotted, p);
    const m = /^(?:src|lib)\.(.+)$/.exec(dotted);
    if (m && !idx.has(m[1])) idx.set(m[1], p);
  }
  return idx;
}

function pyPackageOf(path: string): string[] {
  const parts = path.replace(/\\/g, '/').split('/');
  parts.pop();
  if (parts[0] === 'src' || parts[0] === 'lib') parts.shift();
  return parts;
}

/** Paths of the tree that a Python file imports (resolved through the module index). */
export function pythonImports(path: string, content: string, index: Map<string, string>): string[] {
  const out = new Set<string>();
  const add = (mod: string) => {
    const p = index.get(mod);
    if (p && p !== path) out.add(p);
    return !!p;
  };
  PY_IMPORT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PY_IMPORT.exec(content))) {
    if (m[3] !== undefined) {
      for (const part of m[3].split(',')) {
        const name = part
          .trim()
          .split(/\s+as\s+/)[0]
          .trim();
        if (!name) continue;
        // `import a.b.c` binds a and loads a.b.c: take the longest resolvable prefix.
        const segs = name.split('.');
        for (let k = segs.length; k > 0; k--) if (add(segs.slice(0, k).join('.'))) break;
      }
      continue;
    }
    let base = m[1];
    const dots = /^\.*/.exec(base)![0].length;
    if (dots > 0) {
      const pkg = pyPackageOf(path);
      const up = pkg.slice(0, Math.max(0, pkg.length - (dots - 1)));
      const rest = base.slice(dots);
      base = [...up, ...(rest ? rest.split('.') : [])].join('.');
    }
    const names = m[2]
      .replace(/[()\\]/g, ' ')
      .split(',')
      .map((s) =>
        s
          .trim()
          .split(/\s+as\s+/)[0]
          .trim(),
      )
      .filter(Boolean);
    let any = false;
    for (const n of names) if (n !== '*' && base && add(`${base}.${n}`)) any = true;
    if (!any && base) {
      const segs = base.split('.');
      for (let k = segs.length; k > 0; k--) if (add(segs.slice(0, k).join('.'))) break;
    }
  }
  return [...out];
}

const JS_EXT = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '/index.ts', '/index.tsx', '/index.js'];

/** Paths of the tree that a JS/TS file imports through relative specifiers. */
export function jsImports(path: string, content: string, paths: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  const dir = path.replace(/\\/g, '/').split('/').slice(0, -1);
  JS_IMPORT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = JS_IMPORT.exec(content))) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (!spec || !spec.startsWith('.')) continue;
    const parts = [...dir];
    for (const s of spec.split('/')) {
      if (s === '.' || s === '') continue;
      if (s === '..') parts.pop();
      else parts.push(s);
    }
    const base = parts.join('/');
    const stripped = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
    for (const cand of [base, stripped]) {
      const hit = JS_EXT.map((e) => cand + e).find((c) => paths.has(c) && c !== path);
      if (hit) {
        out.add(hit);
        break;
      }
    }
  }
  return [...out];
}

/** Import edges for a whole tree: importer path → imported paths. */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const pyIndex = pythonModuleIndex(files.keys());
  const pathSet = new Set(files.keys());
  const out = new Map<string, string[]>();
  for (const [p, text] of files) {
    if (p.endsWith('.py')) out.set(p, pythonImports(p, text, pyIndex));
    else if (/\.(m|c)?(t|j)sx?$/.test(p)) out.set(p, jsImports(p, text, pathSet));
  }
  return out;
}
