import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileUnits } from '../../src/cards/units.js';
import { syntaxStructureProvider } from '../../src/cards/syntax-provider.js';
import { main } from '../../src/cli/main.js';
import { approximateCounter } from '../../src/text/tokens.js';
import { readFile } from 'node:fs/promises';

const TREE = fileURLToPath(new URL('../locate/fixtures/pools/acme+web/0123abcd', import.meta.url));

describe('ctxprune cards', () => {
  it('prints cards within the budget and the audit verdict', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctxprune-cards-'));
    try {
      await writeFile(
        join(dir, 'm.jsonl'),
        JSON.stringify({ id: 'memory:cl', content: 'The Content-Length bug was in web/models.py last time.', about: ['web/models.py'] }) + '\n',
      );
      const out: string[] = [];
      const code = await main(
        [
          'cards',
          '--repo',
          TREE,
          '--memories',
          join(dir, 'm.jsonl'),
          '--tokens',
          '300',
          '--json',
          '--task',
          'GET requests always send a Content-Length header; prepare_content_length should skip it for GET',
        ],
        { out: (s) => out.push(s), err: () => undefined },
      );
      expect(code).toBe(0);
      const r = JSON.parse(out.join('\n'));
      expect(r.tokens).toBeLessThanOrEqual(300);
      expect(r.items.map((i: { id: string }) => i.id)).toContain('symbol:web/models.py#Request.prepare_content_length');
      expect(['PASS', 'WARN']).toContain(r.audit.verdict);
      const err: string[] = [];
      expect(await main(['cards', '--task', 'x'], { out: () => undefined, err: (s) => err.push(s) })).toBe(2);
      expect(err[0]).toMatch(/--tokens N/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the syntax layer and the lexical splitter agree on the fixture files', async () => {
    const text = await readFile(join(TREE, 'web/sessions.py'), 'utf8');
    const a = await fileUnits('web/sessions.py', text, { counter: approximateCounter, analyze: syntaxStructureProvider() });
    const b = await fileUnits('web/sessions.py', text, { counter: approximateCounter });
    const spans = (u: typeof a) => u.units.map((x) => `${x.id} ${x.span?.startLine ?? ''}-${x.span?.endLine ?? ''}`);
    expect(spans(a)).toEqual(spans(b));
    expect(spans(b)).toEqual([
      'file:web/sessions.py -',
      'class:web/sessions.py#Session 5-15',
      'symbol:web/sessions.py#Session.__init__ 6-7',
      'symbol:web/sessions.py#Session.merge_settings 9-12',
      'symbol:web/sessions.py#Session.request 14-15',
    ]);
  }, 30_000);
});
