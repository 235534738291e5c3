/** Benchmark cases as ../shared/bench/materialize.py writes them (one JSON object per line). */
import { readFile } from 'node:fs/promises';
import { CtxpruneError } from '../errors.js';

export interface BenchCase {
  id: string;
  query: string;
  file_text: string;
  gold_lines: number[];
  language?: string;
  path?: string;
  repo?: string;
  source?: string;
  /** commit | issue | description (validation cases carry it; dev cases get it from `source`) */
  kind?: string;
  /** The commit the file is at (materialised cases with a pool). */
  commit?: string;
}

export async function readCases(path: string): Promise<BenchCase[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new CtxpruneError('INVALID_OPTION', `cannot read cases from ${path}: ${(e as Error).message}. Materialize them first (README: Benchmark).`);
  }
  const cases: BenchCase[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let c: BenchCase;
    try {
      c = JSON.parse(line) as BenchCase;
    } catch {
      throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: not valid JSON`);
    }
    // A line such as `null` or `3` parses too: not a case.
    if (c === null || typeof c !== 'object' || typeof c.file_text !== 'string' || !Array.isArray(c.gold_lines) || typeof c.query !== 'string') {
      throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: a case needs query, file_text and gold_lines (materialize.py output)`);
    }
    cases.push(c);
  });
  return cases;
}
