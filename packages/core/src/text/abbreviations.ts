/**
 * Words code shortens: a query says "configuration", the code `cfg`; Porter stems do not meet
 * (configur, cfg). Each group's words, as written (lowercase identifier parts, plurals listed),
 * share one term, the first word and a `~` that no text can spell, which replaces the part where
 * terms are stemmed (identifiers.ts). Written forms only: stems would join unrelated words
 * (`general` and `generate` both stem to gener). Words that are stopwords there (fn, func, str,
 * int, var, impl, …) never reach it, and ambiguous short forms are left out (`res`: result,
 * resource or response; `ms`, `ts`, `el`, `id`, `mod`).
 *
 * On the validation corpus (3,849 cases, default scorer), against the same build without it:
 * 4× +0.004, 8× +0.0015 (every third case +0.005 / +0.001, the rest +0.003 / +0.0015; Python
 * +0.005 / +0.010 at 4×). Carried beside the part instead of replacing it, TypeScript 8× lost
 * 0.016: an exact `props` or `callback` then counted twice.
 */
const GROUPS: readonly string[] = [
  'config configs configuration configurations cfg conf',
  'auth authenticate authenticated authentication',
  'message messages msg msgs',
  'request requests req',
  'response responses resp',
  'error errors err errs',
  'directory directories dir dirs',
  'argument arguments arg args',
  'parameter parameters param params',
  'initialize initialise initialization initialisation init',
  'information info',
  'application applications app apps',
  'environment environments env',
  'attribute attributes attr attrs',
  'reference references ref refs',
  'property properties prop props',
  'specification specifications spec specs',
  'utility utilities util utils',
  'temporary temp tmp',
  'number numbers num',
  'index indices indexes idx',
  'length len',
  'value values val vals',
  'context contexts ctx',
  'callback callbacks cb',
  'connection connections conn conns',
  'document documents doc docs',
  'element elements elem elems',
  'event events evt',
  'exception exceptions exc',
  'expression expressions expr',
  'image images img',
  'library libraries lib libs',
  'maximum max',
  'minimum min',
  'object objects obj',
  'option options opt opts',
  'position positions pos',
  'previous prev',
  'source sources src',
  'destination dest dst',
  'statement statements stmt',
  'synchronous sync',
  'version versions ver',
  'button buttons btn',
  'column columns col cols',
  'current curr',
  'database databases db',
  'description descriptions desc',
  'dictionary dictionaries dict',
  'execute execution exec',
  'extension extensions ext',
  'format formats fmt',
  'iterator iterators iter',
  'manager managers mgr',
  'original orig',
  'repository repositories repo repos',
  'sequence sequences seq',
  'template templates tmpl tpl',
  'transaction transactions txn',
  'certificate certificates cert certs',
  'password passwords passwd pwd',
  'calculate calculation calc',
  'command commands cmd cmds',
  'coordinate coordinates coord coords',
  'keyword keywords kw kwarg kwargs',
  'second seconds sec secs',
  'count counts cnt',
  'buffer buffers buf',
  'address addresses addr',
  'character characters char chars',
  'array arrays arr',
  'socket sockets sock',
  'signature signatures sig',
  'statistics stats',
  'navigation nav',
  'administrator admin',
  'language languages lang',
  'dependency dependencies dep deps',
  'production prod',
  'distribution dist',
  'instance instances inst',
  'header headers hdr',
  'regular regex regexp',
];

const KEY = new Map<string, string>();
for (const group of GROUPS) {
  const words = group.split(' ');
  for (const w of words) KEY.set(w, `${words[0]}~`);
}

/** The synthetic term a part shares with its long or short forms, if it has any. */
export function abbreviationKey(part: string): string | undefined {
  return KEY.get(part);
}
