import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/cards/tree-node.js';
import { documentScoreFromScorer } from '../../src/locate/document-score.js';
import { LexicalScorer } from '../../src/scorers/lexical.js';
import type { Scorer } from '../../src/scorers/types.js';
import { analyzeByIndent } from '../../src/syntax/fallback.js';

const TREE = fileURLToPath(new URL('./fixtures/pools/acme+web/0123abcd', import.meta.url));

/** The lexical scorer's full score(), seen as a plain Scorer: documentScoreFromScorer takes no shortcut. */
function full(s: LexicalScorer): Scorer {
  return { name: 'lexical-full', score: (input) => s.score(input) };
}

describe('the lexical document score shortcut', () => {
  const texts = [
    'def get(url):\n    return request("GET", url)\n',
    'class Session:\r\n\r\n    def send(self, request):\r\n  \t\r\n        return self.adapter.send(request)\r\n',
    '\n\n   \n\u00a0\n',
    '',
    '// a comment\nfunction fetchJson(url) {\n  return fetch(url).then((r) => r.json());\n}\n',
    'x = 1\n' + 'timeout = 30\n'.repeat(50) + '\n'.repeat(10) + 'raise TimeoutError("read timed out")\n',
  ];
  const queries = ['requests get timeout', 'Session.send adapter', 'fetchJson json', '', '   ', 'the of and', 'read timed out TimeoutError 30'];

  it('equals score().documentScore on every text and query (blank, CRLF, non-breaking space, empty)', async () => {
    const s = new LexicalScorer();
    for (const q of queries) {
      const fast = await documentScoreFromScorer(s)(q, texts);
      const slow = await documentScoreFromScorer(full(s))(q, texts);
      expect(fast).toEqual(slow);
      if (/\w{4}/.test(q) && q !== 'the of and') expect(Math.max(...fast)).toBeGreaterThan(0);
      for (const t of texts) {
        const lines = t.split('\n');
        expect(s.documentScore(q, lines)).toBe(s.score({ query: q, lines, structure: analyzeByIndent(lines, 'python'), language: 'python' }).documentScore);
      }
    }
  });

  it('equals it on the fixture tree', async () => {
    const files = await readTree(TREE);
    const texts = [...files.values(), await readFile(fileURLToPath(import.meta.url), 'utf8')];
    const s = new LexicalScorer({ kernel: [0.5], scopeShare: 0.2 });
    for (const q of ['session adapter send retries', 'parse url params', 'documentScore LexicalScorer lines']) {
      expect(await documentScoreFromScorer(s)(q, texts)).toEqual(await documentScoreFromScorer(full(s))(q, texts));
    }
  });
});
