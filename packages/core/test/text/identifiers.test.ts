import { describe, expect, it } from 'vitest';
import { identifierParts, nameTerm, queryTermsOf, STEMMED_QUERY_MAX_TERMS, termsOf } from '../../src/text/identifiers.js';

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

describe('stemmed terms', () => {
  it('follows each part with its stem where that differs, and keeps the whole compound as written', () => {
    expect(termsOf('def parseCookies(self): return 404', [], true)).toEqual(['parsecookies', 'parse', 'pars', 'cookies', 'cooki', '404']);
    expect(termsOf('Fixed parsing of cookies', [], true)).toEqual(['fixed', 'fix', 'parsing', 'pars', 'cookies', 'cooki']);
  });

  it('drops stopwords as written, before stemming (`this` would stem to `thi`, `does` to `doe`)', () => {
    expect(termsOf('this.has(x) does it?', [], true)).toEqual([]);
  });

  it('keeps stemmed and written terms apart across calls (two memos)', () => {
    expect(termsOf('retries', [], true)).toEqual(['retries', 'retri']);
    expect(termsOf('retries')).toEqual(['retries']);
    expect(termsOf('retries', [], true)).toEqual(['retries', 'retri']);
  });
});

describe('queryTermsOf', () => {
  it(`matches a query of at most ${STEMMED_QUERY_MAX_TERMS} terms on stems`, () => {
    expect(queryTermsOf('Fixed parsing of cookies')).toEqual({ terms: ['fixed', 'fix', 'parsing', 'pars', 'cookies', 'cooki'], stemmed: true });
    expect(queryTermsOf('Fixed parsing of cookies', false)).toEqual({ terms: ['fixed', 'parsing', 'cookies'], stemmed: false });
  });

  it('matches a longer query (a bug report) as written', () => {
    const words = Array.from({ length: STEMMED_QUERY_MAX_TERMS + 1 }, (_, i) => `parsing${i}x`);
    const r = queryTermsOf(words.join(' '));
    expect(r.stemmed).toBe(false);
    expect(r.terms).toEqual(words);
    expect(queryTermsOf(words.slice(1).join(' ')).stemmed).toBe(true);
  });

  it('has nothing to stem in an empty query', () => {
    expect(queryTermsOf('the of and')).toEqual({ terms: [], stemmed: false });
  });
});

describe('nameTerm', () => {
  it('gives a definition name the term a query is matched on', () => {
    expect(nameTerm('parseHeaders', true)).toBe('parseheaders');
    expect(nameTerm('cookies', true)).toBe('cooki');
    expect(nameTerm('cookies', false)).toBe('cookies');
    // A name code shortens: the term its long form gets in a stemmed query.
    expect(nameTerm('cfg', true)).toBe('config~');
    expect(queryTermsOf('load the configuration').terms).toEqual(['load', 'config~', 'configur']);
    expect(nameTerm('cfg', false)).toBe('cfg');
  });
});
