/**
 * Own-property lookup in a constant table keyed by caller-supplied strings: `table[key]` would
 * return Object.prototype's members for `constructor`, `__proto__`, `toString`, ….
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
