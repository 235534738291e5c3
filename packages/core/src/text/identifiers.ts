/**
 * Query and code are compared on identifier parts: `parseHeaderValue` → parse, header, value,
 * plus the whole compound `parseheadervalue` so exact identifiers weigh more than their parts.
 */
const WORD_RE = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;

export const STOPWORDS = new Set(
  (
    'a an the and or not of to in on at by for with from as is are was were be been being it its this that these those ' +
    'there here then than so if else elif when while do does did done doing can could should would will shall may might must ' +
    'i we you he she they me us my our your their them his her what which who whom how why where all any some no yes ' +
    'into out up down over under again further once only own same too very just also but about above below after before ' +
    'between through during each few more most other such both nor get got has have had having use used using make made ' +
    'def function fn func return returns class self this let const var new import from export default public private protected ' +
    'static void int str string bool true false none null nil undefined async await pass end begin try except catch finally ' +
    'raise throw throws package lambda yield type interface struct impl enum trait mut pub mod use crate super'
  ).split(' '),
);

/** Split an identifier into lowercase parts (camelCase, PascalCase, snake_case, digits). */
export function identifierParts(word: string): string[] {
  const parts = word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[_$\s]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  return parts;
}

/**
 * Terms of a text: each identifier's parts (≥ 2 chars, not stopwords) and, for compound
 * identifiers, the whole lowercased identifier.
 */
export function termsOf(text: string, out: string[] = []): string[] {
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(text))) {
    const w = m[0];
    if (w.length > 64) continue;
    const parts = identifierParts(w);
    if (parts.length > 1) {
      const whole = parts.join('');
      if (!STOPWORDS.has(whole)) out.push(whole);
    }
    // Numbers of two digits or more are kept: error codes, ports, limits are often what a query names.
    for (const p of parts) if (p.length >= 2 && !STOPWORDS.has(p)) out.push(p);
  }
  return out;
}
