/**
 * Speed check: analyzeTree on ~1,000-line Python and TypeScript files (warm). Logs the median
 * CPU time (process.cpuUsage: wall time is noisy on a shared machine) and wall time; the
 * assertion is loose so a loaded CI machine does not flake (target: <= 6 ms CPU).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeTree, parse, type LanguageId } from '../../src/syntax/index.js';
import { FIXTURES } from './helpers.js';

function grow(file: string, lines: number): string {
  const src = readFileSync(FIXTURES + file, 'utf8');
  const parts: string[] = [];
  for (let i = 0, n = 0; n < lines; i++) {
    const part = src.replace(/\b(load|Store|Settings|pick|handler|Loader)\b/g, `$1${i}`);
    parts.push(part);
    n += part.split('\n').length - 1;
  }
  return parts.join('').split('\n').slice(0, lines).join('\n');
}

async function measure(lang: LanguageId, text: string): Promise<{ parse: number; analyze: number; analyzeCpu: number }> {
  const lines = text.split('\n');
  const p: number[] = [];
  const a: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = performance.now();
    const tree = await parse(lang, text);
    const t1 = performance.now();
    const u0 = process.cpuUsage();
    analyzeTree(tree, lang, lines.length, lines);
    const u = process.cpuUsage(u0);
    const t2 = performance.now();
    tree.delete();
    if (i >= 10) {
      p.push(t1 - t0);
      a.push(t2 - t1);
      c.push((u.user + u.system) / 1000);
    }
  }
  const med = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1];
  return { parse: med(p), analyze: med(a), analyzeCpu: med(c) };
}

describe('analyzeTree speed (1,000 lines)', () => {
  for (const [file, lang] of [
    ['sample.py', 'python'],
    ['sample.ts', 'typescript'],
  ] as const) {
    it(lang, async () => {
      const r = await measure(lang, grow(file, 1000));
      console.log(`${lang} 1000 lines: parse ${r.parse.toFixed(1)} ms, analyzeTree ${r.analyzeCpu.toFixed(1)} ms CPU (${r.analyze.toFixed(1)} ms wall)`);
      expect(r.analyze).toBeLessThan(100);
    });
  }
});
