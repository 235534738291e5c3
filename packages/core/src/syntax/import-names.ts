/**
 * The names an import-like statement binds, one parser per language (pure over the statement's
 * text, whitespace already folded to single spaces). The per-language table (grammars.ts,
 * GrammarTable.importNames) picks the parser; names.ts importNames calls it.
 */

/** An identifier as written, less a namespace path (`a::b`, `A\\B`) and a `$` / `~` prefix. */
export function clean(text: string): string {
  let t = text.trim();
  const cut = Math.max(t.lastIndexOf('::'), t.lastIndexOf('\\'));
  if (cut >= 0) t = t.slice(cut + (t[cut] === '\\' ? 1 : 2));
  if (t.startsWith('$')) t = t.slice(1);
  if (t.startsWith('~')) t = t.slice(1);
  return t;
}

const lastSeg = (s: string) =>
  clean(
    s
      .split(/[.:\\/]+/)
      .filter(Boolean)
      .pop() ?? '',
  );

/** `import a.b as c`, `from m import (x, y as z)`. */
export function pythonImportNames(flat: string): string[] {
  const out: string[] = [];
  const from = /^from\s+\S+\s+import\s+(.*)$/.exec(flat);
  const list = from ? from[1] : flat.replace(/^import\s+/, '');
  for (let part of list.replace(/[()\\]/g, ' ').split(',')) {
    part = part.trim();
    if (!part || part === '*') continue;
    const as = /\bas\s+(\w+)$/.exec(part);
    if (as) out.push(as[1]);
    else out.push(from ? part.split('.').pop()!.trim() : part.split('.')[0].trim());
  }
  return out;
}

/** JavaScript / TypeScript: `import x, { y as z, type T } from 'm'`, `import * as ns from 'm'`, `import a = require('m')`. */
export function jsImportNames(flat: string): string[] {
  const out: string[] = [];
  const alias = /^import\s+(?:type\s+)?(\w+)\s*=/.exec(flat);
  if (alias) {
    out.push(alias[1]);
    return out;
  }
  const m = /^import\s+(?:type\s+)?(.*?)\s+from\s/.exec(flat);
  if (!m) return out;
  let clause = m[1];
  const ns = /\*\s*as\s+([\w$]+)/.exec(clause);
  if (ns) out.push(ns[1]);
  const braces = /\{([^}]*)\}/.exec(clause);
  if (braces) {
    for (let spec of braces[1].split(',')) {
      spec = spec.replace(/^\s*type\s+/, '').trim();
      if (!spec) continue;
      const as = /\bas\s+([\w$]+)$/.exec(spec);
      out.push(as ? as[1] : spec.split(/\s/)[0]);
    }
    clause = clause.replace(braces[0], '');
  }
  const def = /^\s*([\w$]+)\s*(,|$)/.exec(clause.replace(/\*\s*as\s+[\w$]+/, ''));
  if (def) out.push(def[1]);
  return out;
}

/** Go: `import ( alias "path/pkg" )`, the package name being the last path segment (a `/vN` major-version suffix skipped). */
export function goImportNames(flat: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s(;])([A-Za-z_]\w*|\.|_)?\s*"([^"]*)"/g;
  for (let m; (m = re.exec(flat));) {
    if (m[1] === '_' || m[1] === '.') continue;
    if (m[1] && m[1] !== 'import') out.push(m[1]);
    else {
      const segs = m[2].split('/');
      let s = segs.pop() ?? '';
      if (/^v\d+$/.test(s) && segs.length) s = segs.pop()!;
      out.push(s.replace(/[^\w]/g, '_'));
    }
  }
  return out;
}

/** Rust: `use a::{b, c::d as e}`, `extern crate x as y`. */
export function rustImportNames(flat: string): string[] {
  const out: string[] = [];
  const body = flat.replace(/^(pub(\([^)]*\))?\s+)?use\s+/, '').replace(/;\s*$/, '');
  if (/^extern\s+crate/.test(flat)) {
    const m = /crate\s+(\w+)(\s+as\s+(\w+))?/.exec(flat);
    if (m) out.push(m[3] ?? m[1]);
    return out;
  }
  rustUse(body, '', out);
  return out;
}

/** Java: `import a.b.C;` (not `.*`). */
export function javaImportNames(flat: string): string[] {
  const out: string[] = [];
  const m = /import\s+(?:static\s+)?([\w.]+?)(\.\*)?\s*;/.exec(flat);
  if (m && !m[2]) out.push(lastSeg(m[1]));
  return out;
}

/** C++: `using T = …;`, `using ns::name;` (not `using namespace`). */
export function cppImportNames(flat: string): string[] {
  const out: string[] = [];
  const alias = /^using\s+(\w+)\s*=/.exec(flat);
  if (alias) out.push(alias[1]);
  else if (/^using\s+(?!namespace\b)/.test(flat)) out.push(lastSeg(flat.replace(/^using\s+/, '').replace(/;$/, '')));
  return out;
}

/** C#: `using A = B;`, `using (static) A.B;`. */
export function csharpImportNames(flat: string): string[] {
  const out: string[] = [];
  const alias = /^(?:global\s+)?using\s+(?:static\s+)?(\w+)\s*=/.exec(flat);
  if (alias) out.push(alias[1]);
  else {
    const m = /^(?:global\s+)?using\s+(?:static\s+)?([\w.]+)\s*;/.exec(flat);
    if (m) out.push(lastSeg(m[1]));
  }
  return out;
}

/** PHP: `use A\\B as C`, `use function A\\{b, c}`. */
export function phpImportNames(flat: string): string[] {
  const out: string[] = [];
  const body = flat.replace(/^use\s+(function\s+|const\s+)?/, '').replace(/;\s*$/, '');
  const group = /^(.*?)\{(.*)\}$/.exec(body);
  const parts = group ? group[2].split(',') : body.split(',');
  for (let p of parts) {
    p = p.trim().replace(/^(function|const)\s+/, '');
    if (!p) continue;
    const as = /\bas\s+(\w+)$/.exec(p);
    out.push(as ? as[1] : lastSeg(p));
  }
  return out;
}

function rustUse(s: string, prefix: string, out: string[]): void {
  s = s.trim();
  const brace = s.indexOf('{');
  if (brace < 0) {
    const as = /^(.*?)\s+as\s+(\w+)$/.exec(s);
    if (as) {
      if (as[2] !== '_') out.push(as[2]);
      return;
    }
    if (s === '*' || s.endsWith('::*')) return;
    if (s === 'self') {
      const p = prefix.split('::').filter(Boolean).pop();
      if (p) out.push(p);
      return;
    }
    const seg = s.split('::').filter(Boolean).pop();
    if (seg) out.push(seg);
    return;
  }
  const head = s.slice(0, brace).replace(/::\s*$/, '');
  const inner = s.slice(brace + 1, s.lastIndexOf('}'));
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const ch = inner[i];
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if ((ch === ',' && depth === 0) || i === inner.length) {
      const part = inner.slice(start, i).trim();
      if (part) rustUse(part, prefix + '::' + head, out);
      start = i + 1;
    }
  }
}
