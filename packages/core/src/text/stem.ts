/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), so that a commit
 * message's "Fixed parsing of headers" meets `parseHeader`: a short query's terms and the code's
 * carry their stems beside them (text/identifiers.ts). Input is one lowercase identifier part of
 * ASCII letters; anything else (digits, `$`, words of two letters or fewer) comes back unchanged.
 */

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  // y is a consonant at the start or after a vowel, a vowel after a consonant
  if (c === 121) return i === 0 || !isConsonant(w, i - 1);
  return true;
}

/** m in [C](VC)^m[V] of w[0, end). */
function measure(w: string, end: number): number {
  let m = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    m++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return m;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3 || !isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replace `suffix` by `to` when w ends with it and the stem before it has measure > minM. */
function swap(w: string, suffix: string, to: string, minM: number): string | null {
  if (!w.endsWith(suffix)) return null;
  const base = w.length - suffix.length;
  return measure(w, base) > minM ? w.slice(0, base) + to : w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

/** The first rule of `rules` whose suffix w ends with decides (Porter's longest-match by order). */
function applyFirst(w: string, rules: readonly (readonly [string, string])[], minM: number): string {
  for (const [suffix, to] of rules) {
    const r = swap(w, suffix, to, minM);
    if (r !== null) return r;
  }
  return w;
}

function step1ab(w: string): string {
  // 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // 1b
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let cut = 0;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) cut = 2;
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) cut = 3;
  if (cut === 0) return w;
  w = w.slice(0, -cut);
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsDoubleConsonant(w, w.length)) {
    const c = w[w.length - 1];
    return c === 'l' || c === 's' || c === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + 'e';
  return w;
}

function step1c(w: string): string {
  return w.endsWith('y') && hasVowel(w, w.length - 1) ? w.slice(0, -1) + 'i' : w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const base = w.length - suffix.length;
    if (suffix === 'ion' && !(base > 0 && (w[base - 1] === 's' || w[base - 1] === 't'))) return w;
    return measure(w, base) > 1 ? w.slice(0, base) : w;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

const LOWER_WORD = /^[a-z]+$/;

/** Porter stem of one lowercase word (`parsing` → `pars`, `headers` → `header`, `validation` → `valid`). */
export function stem(word: string): string {
  if (word.length <= 2 || !LOWER_WORD.test(word)) return word;
  let w = step1c(step1ab(word));
  w = applyFirst(w, STEP2, 0);
  w = applyFirst(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
