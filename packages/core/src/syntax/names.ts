/**
 * Names bound by definitions, declarations and imports (pure over tree nodes and text).
 * Only statement-level nodes are inspected, never whole expression subtrees.
 */
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './types.js';
import { languageEntry } from './grammars.js';
import { clean } from './import-names.js';
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
  const byLanguage = languageEntry(lang)?.defNames?.(node);
  if (byLanguage) return byLanguage;
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

/** Names bound by an import-like statement, from its text (the language's parser: GrammarTable.importNames). */
export function importNames(text: string, lang: LanguageId): string[] {
  const parse = languageEntry(lang)?.importNames;
  if (!parse) return [];
  return parse(text.replace(/\s+/g, ' ').trim()).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
}
