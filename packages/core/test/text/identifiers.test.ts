import { describe, expect, it } from 'vitest';
import { identifierParts, termsOf } from '../../src/text/identifiers.js';

describe('termsOf', () => {
  it('splits identifiers into parts and keeps compounds whole, without stopwords or 1-char parts', () => {
    expect(termsOf('def parseHeaderValue(self, x, http2Server): return 404')).toEqual([
      'parseheadervalue',
      'parse',
      'header',
      'value',
      'http2server',
      'http2',
      'server',
      '404',
    ]);
    expect(identifierParts('HTTPServer_v2')).toEqual(['http', 'server', 'v2']);
  });

  it('gives the same terms on every call (memoised words), and a caller cannot change them', () => {
    const text = 'retry_after = parse_retry_after(headers["Retry-After"])';
    const first = termsOf(text);
    first.push('tampered');
    first[0] = 'tampered';
    const again = termsOf(text);
    expect(again).toEqual(['retryafter', 'retry', 'parseretryafter', 'parse', 'retry', 'headers', 'retry']); // 'after' is a stopword
    expect(termsOf(text, ['kept'])).toEqual(['kept', ...again]);
  });
});
