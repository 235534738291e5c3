/** Slow inputs the fuzz suite (prune.fuzz.test.ts) found, kept as fixed cases. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../src/syntax/languages.js';

const SAMPLES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/samples');

describe('language detection by content is linear in runs of line terminators', () => {
  // Seed 99, case 205: a line of 30,000 CRs in Inventory.java took 63 s to prune (neural), 20 s
  // in detection alone: the /m rules' `^\s*` ran from every CR to the end of the run.
  for (const [name, run] of [
    ['CRs', '\r'],
    ['blank lines', '\n'],
    ['U+2028', '\u2028'],
    ['space-newline', ' \n'],
  ] as const) {
    it(`20,000 ${name}`, () => {
      const lines = readFileSync(join(SAMPLES, 'Inventory.java'), 'utf8').split('\n');
      lines.splice(1, 0, run.repeat(20_000));
      const t = performance.now();
      const lang = detectLanguage(null, lines.join('\n'));
      expect(performance.now() - t).toBeLessThan(1500); // ~4 s per rule before, 25 rules
      expect(lang).toBe(detectLanguage(null, readFileSync(join(SAMPLES, 'Inventory.java'), 'utf8')));
    });
  }
  it('CRLF and blank lines do not change what is detected', () => {
    for (const f of ['Inventory.java', 'rate_limiter.py', 'cache.ts', 'ring.rs', 'slugger.rb', 'server.go', 'buffer.c', 'OrderService.cs']) {
      const text = readFileSync(join(SAMPLES, f), 'utf8');
      const lang = detectLanguage(null, text);
      expect(lang).not.toBeNull();
      expect(detectLanguage(null, text.replaceAll('\n', '\r\n'))).toBe(lang);
      expect(detectLanguage(null, text.replaceAll('\n', '\n\n\n'))).toBe(lang);
    }
  });
});
