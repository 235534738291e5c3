/**
 * The search of a multi-line statement for the blocks nested in it (closures, methods of an
 * object literal, nested control flow): `descendantsOfType` runs in wasm, its answer for a
 * statement also serves the statements nested in it, and statements whose text cannot hold such
 * a block are not searched.
 */
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './types.js';
import type { GrammarTable } from './grammars.js';

export class InnerSearch {
  /** The grammar's `inner` node types. */
  readonly types: string[];
  /** The grammar's `innerTokens` (grammars.ts): text an `inner` node cannot lack. */
  private readonly tokens: RegExp | undefined;
  /** Statements being segmented (statements.ts), each with its search. */
  readonly scope: { start: number; end: number; list: Node[] }[] = [];

  constructor(
    readonly lang: LanguageId,
    table: GrammarTable,
  ) {
    this.types = [...table.inner];
    this.tokens = table.innerTokens;
  }

  /** Whether a multi-line statement may hold an `inner` node (grammars.ts: innerTokens). */
  private mayHold(c: Node): boolean {
    const re = this.tokens;
    return !re || re.test(c.text) || c.hasError;
  }

  /**
   * `c.descendantsOfType(innerTypes)` (pre-order, so ordered by start), less entries that the
   * caller skips anyway: `c` itself, and for a statement without an opener in its text, a
   * single-line keyword token. Inside a statement already searched (`scope`), the answer is
   * the part of that search strictly inside `c` (nodes that start after `c` starts and before it
   * ends are its descendants); a node starting where `c` starts is ambiguous (descendant or
   * ancestor) and then `c` is searched itself.
   */
  of(c: Node): (Node | null)[] {
    const scope = this.scope.length ? this.scope[this.scope.length - 1] : null;
    if (scope) {
      const cs = c.startIndex;
      const ce = c.endIndex;
      if (cs >= scope.start && ce <= scope.end) {
        const list = scope.list;
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid].startIndex < cs) lo = mid + 1;
          else hi = mid;
        }
        const out: Node[] = [];
        for (let k = lo; k < list.length; k++) {
          const x = list[k];
          if (x.startIndex >= ce) break;
          if (x.startIndex === cs) {
            if (x.id !== c.id) return c.descendantsOfType(this.types);
            continue;
          }
          out.push(x);
        }
        return out;
      }
    }
    if (!this.mayHold(c)) return [];
    return c.descendantsOfType(this.types);
  }
}
