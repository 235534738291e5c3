import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze, detectLanguage, type FileStructure } from '../../src/syntax/index.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/syntax/', import.meta.url));
const LETTERS = 'BCIDHKLX.';

export async function analyzeFixture(name: string): Promise<FileStructure> {
  const text = readFileSync(FIXTURES + name, 'utf8');
  return analyze(text, detectLanguage(name, text));
}
/** Kinds as letters: B blank, C comment, I import, D decorator, H def header, K control, L clause, X closer, . code. */
export const kinds = (s: FileStructure) => Array.from(s.kind, (k) => LETTERS[k]).join('');
export const span = (s: FileStructure, i: number) => [s.spanStart[i], s.spanEnd[i]];
export const uses = (s: FileStructure, i: number) => Array.from(s.useTargets.slice(s.useOffsets[i], s.useOffsets[i + 1]));
export const group = (s: FileStructure, rows: number[]) => rows.map((r) => s.companionGroup[r]);
export const parents = (s: FileStructure, rows: number[]) => rows.map((r) => s.parent[r]);
/** `text` with each of `parts` (found in order) replaced by as many spaces. */
export function gone(text: string, ...parts: string[]): string {
  let out = text;
  let from = 0;
  for (const p of parts) {
    const at = out.indexOf(p, from);
    if (at < 0) throw new Error(`no ${p} in ${text}`);
    out = out.slice(0, at) + ' '.repeat(p.length) + out.slice(at + p.length);
    from = at + p.length;
  }
  return out;
}
/** Lines joined, each replaced by spaces where `blanked` has its index. */
export const lines = (ls: string[], blanked: number[], eol = '\n') => ls.map((l, i) => (blanked.includes(i) ? l.replace(/[^\r]/g, ' ') : l)).join(eol);
