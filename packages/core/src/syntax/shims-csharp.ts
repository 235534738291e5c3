/**
 * Recovery shims of C# (GrammarTable.recover in grammars.ts, after CONDITIONALS; recovery.ts tries
 * them on a parse that has errors and keeps a rewrite only when the reparse has fewer): constructs
 * of today's C# that the shipped tree-sitter-c-sharp misreads. Like the other shims, each rewrite is
 * for the parser only and keeps every byte offset and line break; the text that is pruned and
 * returned is never the rewritten one. Each is tested in test/syntax/shims-csharp.test.ts. Pure.
 * - a params collection (C# 13: `params IEnumerable<T> items`, `params ReadOnlySpan<T> s`): the
 *   grammar takes only an array after `params` and reads the type as a nullable one with its `?`
 *   MISSING. `params` is blanked where its type is not an array.
 * - an attribute target word as an identifier right after `[` (`F(this, [method])`, a collection
 *   expression; `new D { [type] = v }`, an indexer initializer): the grammar's lexer takes `field`,
 *   `method`, `param`, `property`, `type` or `typevar` there for the target of an attribute
 *   (`[method: A]`), and the rest for an ERROR. Where no `:` follows, the word's last letter becomes
 *   `_` (`metho_`), an identifier of the same length. (`return` and `event` are keywords, never a
 *   name there; `assembly` and `module` the grammar already reads as names.)
 */
import type { RecoveryShim } from './shims-preprocessor.js';

/**
 * `params`, then a type that is no array (a name, maybe qualified, maybe generic, maybe nullable),
 * then the parameter's name and what may follow it.
 */
const PARAMS_COLLECTION = /\bparams(?=\s+(?:global::)?[A-Za-z_@][\w.]*\s*(?:<[^;{}=]*>)?\s*\??\s+@?[A-Za-z_]\w*\s*[,)=])/g;

/** `params` before a type that is not an array: blanked. */
export function blankParamsCollections(text: string): string {
  return text.includes('params') ? text.replace(PARAMS_COLLECTION, '      ') : text;
}

/** `[`, then an attribute target word that no `:` (a target's) follows. */
const TARGET_WORD = /(\[\s*)(field|method|param|property|typevar|type)\b(?!\s*:(?!:))/g;

/** An attribute target word used as a name right after `[`: its last letter becomes `_`. */
export function renameTargetWords(text: string): string {
  return text.replace(TARGET_WORD, (_, open: string, word: string) => open + word.slice(0, -1) + '_');
}

export const CSHARP_PARAMS_COLLECTIONS: RecoveryShim = { rewrite: (text) => blankParamsCollections(text), rounds: 1, perRow: false, everywhere: false };
export const CSHARP_TARGET_WORDS: RecoveryShim = { rewrite: (text) => renameTargetWords(text), rounds: 1, perRow: false, everywhere: false };
