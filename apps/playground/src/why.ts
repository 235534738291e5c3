/**
 * Why a line was kept, in words, for the hover (#21): "kept … keep 0.09" for a line kept by
 * repair read as a contradiction. The result says which rule kept each line (evidence,
 * dependency, repair); this finds the line it was kept for, from the kept lines and the code:
 * - repair: the kept line it serves: the block it heads (the next kept line indented deeper),
 *   the block it closes (the previous kept line indented deeper), else the nearest kept line;
 * - dependency: the first kept line that uses a name it defines (import, def, class, const …), or
 *   that none does (kept as outline on its own score).
 */
import type { LineInfo } from '@ctxprune/core';

const indent = (s: string) => s.length - s.trimStart().length;
const blank = (s: string | undefined) => s === undefined || s.trim() === '';
const CLOSER = /^\s*([)\]}]+[;,)]*|end|fi|done|esac)\s*$/;

/** Names a line defines: imported names, a def/class/function/const/let/var/type name. */
export function definedNames(line: string): string[] {
  const s = line.trim();
  let m = /^from\s+[\w.]+\s+import\s+\(?([^)#]*)/.exec(s);
  if (m)
    return m[1]
      .split(',')
      .map((x) =>
        x
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      )
      .filter(Boolean);
  m = /^import\s+([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(s);
  if (m) return [m[2] ?? m[1].split('.')[0]];
  m = /^import\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?(?:\*\s+as\s+(\w+))?\s*from\b/.exec(s);
  if (m) {
    const names = [
      m[1],
      m[3],
      ...(m[2] ?? '').split(',').map((x) =>
        x
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      ),
    ];
    return names.filter((x): x is string => !!x);
  }
  m = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function\*?|interface|type|enum|struct|fn|func)\s+([A-Za-z_$][\w$]*)/.exec(s);
  if (m) return [m[1]];
  m = /^(?:export\s+)?(?:const|let|var|val)\s+([A-Za-z_$][\w$]*)/.exec(s);
  if (m) return [m[1]];
  m = /^([A-Z_][A-Z0-9_]*)\s*(?::[^=]+)?=/.exec(s);
  if (m) return [m[1]];
  return [];
}

/** line (1-based) → why it was kept, for every kept line that is not evidence. */
export function keptFor(lines: readonly LineInfo[], code: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  const kept = lines.filter((l) => l.kept && !blank(code[l.line - 1])).map((l) => l.line);
  const evidence = lines.filter((l) => l.kept && l.reason === 'evidence').map((l) => l.line);
  const text = (n: number) => code[n - 1] ?? '';
  for (const li of lines) {
    if (!li.kept || li.reason === 'evidence' || li.reason === null) continue;
    const n = li.line;
    const s = text(n);
    if (li.reason === 'dependency') {
      const names = definedNames(s);
      let user: number | null = null;
      let name = '';
      for (const e of [...evidence, ...kept]) {
        if (e === n) continue;
        const hit = names.find((x) => new RegExp(`(^|[^\\w$])${x.replace(/\$/g, '\\$')}([^\\w$]|$)`).test(text(e)));
        if (hit) {
          user = e;
          name = hit;
          break;
        }
      }
      // A line kept on its own dependency score that no kept line uses (the lexical scorer rates
      // every import and definition header a little as outline): say so, not that code needs it.
      out.set(
        n,
        user !== null
          ? `dependency of line ${user} (it uses \`${name}\`)`
          : names.length
            ? `dependency: outline (imports and definitions score on their own); no kept line uses \`${names.join('`, `')}\``
            : 'dependency: an import, header or definition the kept code needs',
      );
      continue;
    }
    // repair
    if (blank(s)) {
      out.set(n, 'repair: a blank line between kept lines');
      continue;
    }
    const ind = indent(s);
    const after = kept.find((k) => k > n);
    const before = [...kept].reverse().find((k) => k < n);
    if (CLOSER.test(s) && before !== undefined && indent(text(before)) > ind) {
      out.set(n, `repair for line ${before}: closes the block it is in, so the pruned code still parses`);
    } else if (after !== undefined && indent(text(after)) > ind) {
      out.set(n, `repair for line ${after}: the header of the block it is in, so the pruned code still parses`);
    } else {
      const near = after !== undefined && (before === undefined || after - n <= n - before) ? after : before;
      out.set(
        n,
        near !== undefined ? `repair for line ${near}: keeps its statement whole, so the pruned code still parses` : 'repair: so the pruned code still parses',
      );
    }
  }
  return out;
}
