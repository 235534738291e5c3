/**
 * Names bound by definitions, declarations and imports (pure over tree nodes and text).
 * Only statement-level nodes are inspected, never whole expression subtrees.
 */
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './types.js';
import { typeOf } from './nodecache.js';

const IDENTISH = new Set([
  'identifier',
  'field_identifier',
  'type_identifier',
  'property_identifier',
  'constant',
  'name',
  'variable_name',
  'shorthand_property_identifier_pattern',
  'private_property_identifier',
  'namespace_identifier',
  'package_identifier',
  'qualified_identifier',
  'scoped_identifier',
  'destructor_name',
  'operator_name',
  'scope_resolution',
  'qualified_name',
  'simple_identifier',
]);
const DECL_CHILD =
  /declarator|_spec$|_spec_list$|_element$|assignment|^variable_declaration$|pattern_list|tuple_pattern|^object_pattern$|^array_pattern$|^pair_pattern$/;
const NAME_FIELDS = ['name', 'left', 'declarator', 'pattern'];

function clean(text: string): string {
  let t = text.trim();
  const cut = Math.max(t.lastIndexOf('::'), t.lastIndexOf('\\'));
  if (cut >= 0) t = t.slice(cut + (t[cut] === '\\' ? 1 : 2));
  if (t.startsWith('$')) t = t.slice(1);
  if (t.startsWith('~')) t = t.slice(1);
  return t;
}

function collect(node: Node, out: string[], depth: number): void {
  const type = typeOf(node);
  if (IDENTISH.has(type)) {
    const t = clean(node.text);
    if (/^[A-Za-z_$][\w$]*$/.test(t)) out.push(t);
    return;
  }
  if (depth > 5) return;
  if (type === 'pair_pattern') {
    const v = node.childForFieldName('value');
    if (v) collect(v, out, depth + 1);
    return;
  }
  for (const f of NAME_FIELDS) {
    const kids = node.childrenForFieldName(f);
    if (kids.length) {
      for (const k of kids) if (k) collect(k, out, depth + 1);
      return;
    }
  }
  for (const k of node.namedChildren) {
    if (!k) continue;
    const kt = typeOf(k);
    if (DECL_CHILD.test(kt) || (type.endsWith('pattern') && IDENTISH.has(kt))) collect(k, out, depth + 1);
  }
}

/** Names declared by a variable/field/constant declaration statement (empty for other statements). */
export function declNames(node: Node): string[] {
  const out: string[] = [];
  collect(node, out, 0);
  return out;
}

/** Name(s) of a definition node (function, class, type, ...). */
export function defNames(node: Node, lang: LanguageId): string[] {
  const t = typeOf(node);
  if (t === 'impl_item' || t === 'linkage_specification' || t === 'static_initializer') return [];
  if (lang === 'go' && t === 'type_declaration') {
    const out: string[] = [];
    for (const spec of node.namedChildren) {
      const n = spec?.childForFieldName('name');
      if (n) out.push(n.text);
    }
    return out;
  }
  const name = node.childForFieldName('name');
  if (name) {
    const out: string[] = [];
    collect(name, out, 4);
    return out.length ? out : [clean(name.text)];
  }
  const decl = node.childForFieldName('declarator');
  if (decl) {
    const out: string[] = [];
    collect(decl, out, 0);
    return out.slice(0, 1);
  }
  return [];
}

const lastSeg = (s: string) =>
  clean(
    s
      .split(/[.:\\/]+/)
      .filter(Boolean)
      .pop() ?? '',
  );

/** Names bound by an import-like statement, from its text. */
export function importNames(text: string, lang: LanguageId): string[] {
  const out: string[] = [];
  const flat = text.replace(/\s+/g, ' ').trim();
  switch (lang) {
    case 'python': {
      const from = /^from\s+\S+\s+import\s+(.*)$/.exec(flat);
      const list = from ? from[1] : flat.replace(/^import\s+/, '');
      for (let part of list.replace(/[()\\]/g, ' ').split(',')) {
        part = part.trim();
        if (!part || part === '*') continue;
        const as = /\bas\s+(\w+)$/.exec(part);
        if (as) out.push(as[1]);
        else out.push(from ? part.split('.').pop()!.trim() : part.split('.')[0].trim());
      }
      break;
    }
    case 'typescript':
    case 'tsx':
    case 'javascript': {
      const alias = /^import\s+(?:type\s+)?(\w+)\s*=/.exec(flat);
      if (alias) {
        out.push(alias[1]);
        break;
      }
      const m = /^import\s+(?:type\s+)?(.*?)\s+from\s/.exec(flat);
      if (!m) break;
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
      break;
    }
    case 'go': {
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
      break;
    }
    case 'rust': {
      const body = flat.replace(/^(pub(\([^)]*\))?\s+)?use\s+/, '').replace(/;\s*$/, '');
      if (/^extern\s+crate/.test(flat)) {
        const m = /crate\s+(\w+)(\s+as\s+(\w+))?/.exec(flat);
        if (m) out.push(m[3] ?? m[1]);
        break;
      }
      rustUse(body, '', out);
      break;
    }
    case 'java': {
      const m = /import\s+(?:static\s+)?([\w.]+?)(\.\*)?\s*;/.exec(flat);
      if (m && !m[2]) out.push(lastSeg(m[1]));
      break;
    }
    case 'cpp': {
      const alias = /^using\s+(\w+)\s*=/.exec(flat);
      if (alias) out.push(alias[1]);
      else if (/^using\s+(?!namespace\b)/.test(flat)) out.push(lastSeg(flat.replace(/^using\s+/, '').replace(/;$/, '')));
      break;
    }
    case 'csharp': {
      const alias = /^(?:global\s+)?using\s+(?:static\s+)?(\w+)\s*=/.exec(flat);
      if (alias) out.push(alias[1]);
      else {
        const m = /^(?:global\s+)?using\s+(?:static\s+)?([\w.]+)\s*;/.exec(flat);
        if (m) out.push(lastSeg(m[1]));
      }
      break;
    }
    case 'php': {
      const body = flat.replace(/^use\s+(function\s+|const\s+)?/, '').replace(/;\s*$/, '');
      const group = /^(.*?)\{(.*)\}$/.exec(body);
      const parts = group ? group[2].split(',') : body.split(',');
      for (let p of parts) {
        p = p.trim().replace(/^(function|const)\s+/, '');
        if (!p) continue;
        const as = /\bas\s+(\w+)$/.exec(p);
        out.push(as ? as[1] : lastSeg(p));
      }
      break;
    }
    default:
      break;
  }
  return out.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
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
