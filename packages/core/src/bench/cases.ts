/** Benchmark cases as ../shared/bench/materialize.py writes them (one JSON object per line). */
import { readJsonLines } from './jsonl.js';

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

const isCase = (c: unknown): c is BenchCase => {
  const o = c as Partial<BenchCase> | null;
  return o !== null && typeof o === 'object' && typeof o.file_text === 'string' && Array.isArray(o.gold_lines) && typeof o.query === 'string';
};

export function readCases(path: string): Promise<BenchCase[]> {
  return readJsonLines(
    path,
    isCase,
    'a case needs query, file_text and gold_lines (materialize.py output)',
    (why) => `cannot read cases from ${path}: ${why}. Materialize them first (README: Benchmark).`,
  );
}
