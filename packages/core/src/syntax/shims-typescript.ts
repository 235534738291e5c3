/**
 * Source shims of the JavaScript-family grammars (GrammarTable.shim in grammars.ts; shims.ts applies
 * them): constructs that today's code uses and the shipped grammars predate or get wrong,
 * rewritten for the parser only, without changing a byte offset (a keyword becomes as many
 * spaces, an indenting space a `;`), so every row and column of the tree still points into the
 * caller's text. The text that is pruned and returned is never the shimmed one. Pure.
 *
 * tree-sitter-typescript 0.23.2 (the newest published grammar) fails on, in the validation
 * corpus (training/validation.py), these; each shim is tested in test/syntax/shims.test.ts:
 * - variance annotations (TypeScript 4.7: `interface Z<out O, in I>`, `<const in out T>`, also
 *   after a comment): one turns the whole declaration into ERROR nodes. The modifier is blanked.
 * - `export type * from './x'` (TypeScript 5.0): `type` is blanked.
 * - `using` as an identifier (`using(using: X)`, `using += y`): the grammar takes it for the
 *   TypeScript 5.2 declaration keyword (tree-sitter-javascript 0.25 too). Renamed `usin_` where
 *   no declared name follows.
 * - a type literal's call signature that starts with its type parameters right after another
 *   member (`(k: string): R\n  <A>(k: string, r: A): R`): read as a comparison with the line
 *   before. An indenting space becomes the `;` that separates members.
 *
 * Three more are recovery shims (GrammarTable.recover, recovery.ts): out of context they cannot
 * tell code from text, so they are tried only on a parse with errors (the first and last only on
 * its rows in error) and kept only when the reparse has fewer:
 * - a `&` in JSX text that is no character reference (`Terms & Conditions`, `R&D`): tsx and
 *   tree-sitter-javascript 0.25 both fail on it. It becomes a space.
 * - in TSX, the generic call signature above: there JSX elements start lines with `<` too.
 * - an escape in a template literal type (`` type E = `a\`${T}\`` ``, `` `a\nb` ``): fine in a
 *   template string, an error in a type. The backslash and the escaped character become spaces.
 */
import type { RecoveryShim } from './shims-preprocessor.js';
import type { Steps } from '../util/steps.js';

const COMMENTS = String.raw`(?:(?:\/\/[^\n]*\n|\/\*(?:[^*]|\*(?!\/))*\*\/)\s*)*`;
/**
 * `<` or `,` (a type parameter list), comments, `const`, then `in`, `out` or `in out`, then a type
 * parameter followed by what may follow one: `extends`, `=`, `,` or `>`.
 */
const VARIANCE = new RegExp(
  String.raw`([<,]\s*${COMMENTS}(?:const\s+)?)((?:in|out)\s+(?:out\s+)?)(?=(?:const\s+)?[A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>))`,
  'g',
);
const EXPORT_TYPE_STAR = /(\bexport\s+)(type)(?=\s*\*)/g;
/** `using` not followed by the name a `using` declaration declares. */
const USING_IDENT = /\busing\b(?!\s*[A-Za-z_$[{])/g;
/**
 * A line that starts with a type parameter list (a generic call signature), after one that can end a
 * member; the list may open alone on its line (`<` then `T extends …,` below, as Prettier breaks a
 * long one).
 */
const GENERIC_SIGNATURE_LINE =
  /([\w$)\]}]|[^=]>)([ \t]*(?:\/\/[^\n]*)?\r?\n(?:[ \t]*\r?\n)*)([ \t])([ \t]*<(?:[ \t]*\r?\n[ \t]*)?[A-Za-z_$][\w$]*\s*(?:,|extends\b|=|>))/g;

/** JavaScript: `using` as an identifier only. */
// eslint-disable-next-line require-yield -- one rewrite: nothing to pause between
export function* javascriptShims(text: string): Steps<string> {
  return text.includes('using') ? text.replace(USING_IDENT, 'usin_') : text;
}

/** TypeScript and TSX (`jsx`: JSX elements start lines with `<` too, so no generic-signature shim). */
export function* typescriptShims(text: string, jsx: boolean): Steps<string> {
  let out = text;
  if (/\b(?:in|out)\s/.test(out)) out = out.replace(VARIANCE, (_m, lead: string, mods: string) => lead + ' '.repeat(mods.length));
  yield;
  if (out.includes('export')) out = out.replace(EXPORT_TYPE_STAR, (_m, lead: string, kw: string) => lead + ' '.repeat(kw.length));
  if (out.includes('using')) out = out.replace(USING_IDENT, 'usin_');
  yield;
  return jsx ? out : separateGenericSignatures(out);
}

/** A `;` before each generic call signature that starts a line after a member (GENERIC_SIGNATURE_LINE). */
export function separateGenericSignatures(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(GENERIC_SIGNATURE_LINE, (_m: string, end: string, gap: string, sp: string, sig: string, at: number) =>
    endsMember(text, at + end.length) ? end + gap + ';' + sig : end + gap + sp + sig,
  );
}

/**
 * Whether the code before `pos` (on its line, less a trailing `//` comment) ends a type member
 * without its own separator: not a comment line, not already closed by `;` or `,`.
 */
function endsMember(text: string, pos: number): boolean {
  const start = text.lastIndexOf('\n', pos - 1) + 1;
  let line = text.slice(start, pos);
  const comment = line.indexOf('//');
  if (comment >= 0) line = line.slice(0, comment);
  const code = line.trim();
  return code !== '' && !/^(\*|\/\*)/.test(code) && !/[;,{]$/.test(code) && !line.includes('*/');
}

/** `text` with `rewrite` applied to each of `rows` (0-based); `text` itself when nothing changed. */
function rewriteRows(text: string, rows: readonly number[], rewrite: (line: string) => string): string {
  const lines = text.split('\n');
  let changed = false;
  for (const r of new Set(rows)) {
    if (r < 0 || r >= lines.length) continue;
    const next = rewrite(lines[r]);
    if (next !== lines[r]) {
      lines[r] = next;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : text;
}

/** A `&` that starts a character reference (`&amp;`, `&#38;`, `&#x26;`), matched where `lastIndex` points. */
const CHARACTER_REFERENCE = /&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);/y;

/** Each `&` of `line` that is no `&&`, `&=` or character reference, as a space. */
export function blankBareAmpersands(line: string): string {
  if (!line.includes('&')) return line;
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch !== '&') {
      out += ch;
      continue;
    }
    if (line[i + 1] === '&') {
      out += '&&';
      i++;
      continue;
    }
    CHARACTER_REFERENCE.lastIndex = i;
    out += line[i + 1] === '=' || CHARACTER_REFERENCE.test(line) ? ch : ' ';
  }
  return out;
}

/** Each backslash escape of `line`, but of a quote, as two spaces (a quote's escape keeps its string closed). */
export function blankEscapes(line: string): string {
  return line.includes('\\') ? line.replace(/\\[^"'\r\n]/g, '  ') : line;
}

export const JSX_AMPERSANDS: RecoveryShim = {
  rewrite: (text, rows) => rewriteRows(text, rows, blankBareAmpersands),
  rounds: 2,
  perRow: true,
  everywhere: false,
};
export const TSX_GENERIC_SIGNATURES: RecoveryShim = { rewrite: (text) => separateGenericSignatures(text), rounds: 1, perRow: false, everywhere: false };
export const TEMPLATE_TYPE_ESCAPES: RecoveryShim = {
  rewrite: (text, rows) => rewriteRows(text, rows, blankEscapes),
  rounds: 2,
  perRow: true,
  everywhere: false,
};
