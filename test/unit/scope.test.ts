import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createScope, matchesWildcard, sharedSite, type ScopeVerdict } from '../../src/core/url/scope.ts';

type ScopeOptions = Parameters<typeof createScope>[0];

function scope(options: Partial<ScopeOptions> & { startUrl: string }) {
  return createScope({ includeSubdomains: false, pathPrefix: '', excludePatterns: [], ...options });
}

const IN: ScopeVerdict = { inScope: true };
const out = (reason: 'scheme' | 'host' | 'prefix'): ScopeVerdict => ({ inScope: false, reason });

describe('createScope: same origin by default', () => {
  const check = scope({ startUrl: 'https://www.example.com/start' });
  const cases: [string, ScopeVerdict][] = [
    ['https://www.example.com/', IN],
    ['https://www.example.com/deep/page?q=1', IN],
    ['https://www.example.com:443/explicit-default-port', IN],
    ['http://www.example.com/', out('scheme')],
    ['https://example.com/', out('host')],
    ['https://blog.www.example.com/', out('host')],
    ['https://www.example.com:8443/', out('host')],
    ['https://www.example.org/', out('host')],
    // Another site over another scheme is another site (issue 13: it was labelled "scheme").
    ['http://www.example.org/', out('host')],
    ['http://example.com:8080/', out('host')],
    ['mailto:someone@www.example.com', out('scheme')],
    ['ftp://www.example.com/', out('scheme')],
    ['not a url', out('scheme')],
  ];
  for (const [url, expected] of cases) {
    test(`${expected.inScope ? 'admits' : 'rejects'} ${url}`, () => {
      assert.deepEqual(check.check(url), expected);
    });
  }

  test('keeps a non-default port of the start URL', () => {
    const onPort = scope({ startUrl: 'http://localhost:8080/' });
    assert.deepEqual(onPort.check('http://localhost:8080/a'), IN);
    assert.deepEqual(onPort.check('http://localhost/a'), out('host'));
    assert.deepEqual(onPort.check('http://localhost:8081/a'), out('host'));
  });
});

describe('createScope: includeSubdomains', () => {
  const check = scope({ startUrl: 'https://www.example.com/', includeSubdomains: true });
  const cases: [string, ScopeVerdict][] = [
    ['https://www.example.com/', IN],
    ['https://example.com/', IN],
    ['http://example.com/', IN],
    ['http://example.com:80/', IN],
    ['https://blog.example.com/', IN],
    ['http://a.b.example.com/x', IN],
    ['https://notexample.com/', out('host')],
    ['https://example.com.evil.org/', out('host')],
    ['https://example.org/', out('host')],
    ['https://example.com:8443/', out('host')],
    ['http://example.com:443/', out('host')],
    ['ws://example.com/', out('scheme')],
  ];
  for (const [url, expected] of cases) {
    test(`${expected.inScope ? 'admits' : 'rejects'} ${url}`, () => {
      assert.deepEqual(check.check(url), expected);
    });
  }

  test('does not strip anything but a leading www. from the start host', () => {
    const shop = scope({ startUrl: 'https://shop.example.com/', includeSubdomains: true });
    assert.deepEqual(shop.check('https://eu.shop.example.com/'), IN);
    assert.deepEqual(shop.check('https://example.com/'), out('host'));
    assert.deepEqual(shop.check('https://www.example.com/'), out('host'));
  });

  test('keeps a non-default start port for every subdomain', () => {
    const onPort = scope({ startUrl: 'http://example.test:8080/', includeSubdomains: true });
    assert.deepEqual(onPort.check('http://a.example.test:8080/'), IN);
    assert.deepEqual(onPort.check('http://a.example.test/'), out('host'));
  });
});

describe('createScope: pathPrefix', () => {
  const check = scope({ startUrl: 'https://example.com/docs/', pathPrefix: '/docs/' });
  const cases: [string, ScopeVerdict][] = [
    ['https://example.com/docs/', IN],
    ['https://example.com/docs/a/b?x=1', IN],
    ['https://example.com/docs', out('prefix')],
    ['https://example.com/documents/', out('prefix')],
    ['https://example.com/', out('prefix')],
    ['https://example.com/DOCS/', out('prefix')],
    ['https://other.com/docs/', out('host')],
  ];
  for (const [url, expected] of cases) {
    test(`${expected.inScope ? 'admits' : 'rejects'} ${url}`, () => {
      assert.deepEqual(check.check(url), expected);
    });
  }

  test('matches a non-ASCII prefix against the percent-encoded path', () => {
    const wiki = scope({ startUrl: 'https://example.com/', pathPrefix: '/wiki/Café' });
    assert.deepEqual(wiki.check('https://example.com/wiki/Caf%C3%A9_au_lait'), IN);
    assert.deepEqual(wiki.check('https://example.com/wiki/Cafe'), out('prefix'));
  });
});

describe('createScope: excludePatterns', () => {
  const check = scope({
    startUrl: 'https://example.com/',
    pathPrefix: '/a/',
    excludePatterns: ['*.pdf', '*?sessionid=*', '*/a/private*'],
  });

  test('rejects a URL matching a pattern and names the pattern', () => {
    assert.deepEqual(check.check('https://example.com/a/report.pdf'), {
      inScope: false,
      reason: 'excluded',
      pattern: '*.pdf',
    });
    assert.deepEqual(check.check('https://example.com/a/x?sessionid=42'), {
      inScope: false,
      reason: 'excluded',
      pattern: '*?sessionid=*',
    });
  });

  test('names the first matching pattern', () => {
    assert.deepEqual(check.check('https://example.com/a/private/doc.pdf'), {
      inScope: false,
      reason: 'excluded',
      pattern: '*.pdf',
    });
  });

  test('admits a URL that matches no pattern', () => {
    assert.deepEqual(check.check('https://example.com/a/report.pdf.html'), IN);
  });

  test('reports host and prefix before exclusion', () => {
    assert.deepEqual(check.check('https://other.com/a/x.pdf'), out('host'));
    assert.deepEqual(check.check('https://example.com/b/x.pdf'), out('prefix'));
  });

  test('matches patterns against the parsed URL', () => {
    assert.deepEqual(check.check('HTTPS://EXAMPLE.COM:443/a/x.pdf').inScope, false);
  });
});

describe('matchesWildcard', () => {
  const cases: [pattern: string, url: string, expected: boolean][] = [
    ['http*://*/cgi-bin/*', 'https://example.com/cgi-bin/run.pl?x', true],
    ['http*://*/cgi-bin/*', 'http://example.com/cgi-bin/', true],
    ['http*://*/cgi-bin/*', 'https://example.com/scripts/cgi-bin', false],
    ['*?sessionid=*', 'https://example.com/a?sessionid=1', true],
    ['*?sessionid=*', 'https://example.com/a?x=1&sessionid=1', false],
    ['*?sessionid=*', 'https://example.com/asessionid=1', false],
    ['*.pdf', 'https://example.com/a.pdf', true],
    ['*.pdf', 'https://example.com/apdf', false],
    ['*.pdf', 'https://example.com/a.pdf?download=1', false],
    ['*.PDF', 'https://example.com/a.pdf', false],
    ['https://example.com/a+b', 'https://example.com/a+b', true],
    ['https://example.com/a+b', 'https://example.com/aab', false],
    ['https://example.com/a+b', 'https://example.com/a++b', false],
    ['https://example.com/(a)[b]{c}^$|\\', 'https://example.com/(a)[b]{c}^$|\\', true],
    ['https://example.com/a', 'https://example.com/a', true],
    ['https://example.com/a', 'https://example.com/a/b', false],
    ['https://example.com/a', 'xhttps://example.com/a', false],
    ['example.com', 'https://example.com/', false],
    ['*example.com*', 'https://example.com/', true],
    ['*example.com*', 'https://exampleXcom/', false],
    ['*', 'https://example.com/', true],
    ['*', '', true],
    ['**', 'x', true],
    ['', '', true],
    ['', 'x', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['a*a', 'aXa', true],
    ['*a*b*', 'xbxa', false],
    ['*a*b*', 'xaxb', true],
    ['*/a/*/c', 'https://h/a/b/x/c', true],
    ['*/a/*/c', 'https://h/a/c', false],
  ];
  for (const [pattern, url, expected] of cases) {
    test(`${expected ? 'matches' : 'does not match'} ${JSON.stringify(url)} with ${JSON.stringify(pattern)}`, () => {
      assert.equal(matchesWildcard(pattern, url), expected);
    });
  }

  test('stays fast on a hostile URL and pattern', () => {
    // Would backtrack for a very long time as the regex ^a.*a.*a.*a.*a.*b$.
    assert.equal(matchesWildcard('a*a*a*a*a*b', 'a'.repeat(10_000)), false);
  });
});

describe('createScope: extraOrigins', () => {
  const check = scope({
    startUrl: 'http://127.0.0.1:8080/docs/',
    pathPrefix: '/docs/',
    extraOrigins: ['http://127.0.0.1:8081', 'https://b.example'],
    excludePatterns: ['*/private/*'],
  });
  const cases: [string, ScopeVerdict][] = [
    ['http://127.0.0.1:8080/docs/a', IN],
    ['http://127.0.0.1:8081/', IN],
    ['http://127.0.0.1:8081/anything/deep?q=1', IN],
    ['https://b.example/', IN],
    ['https://b.example:443/x', IN],
    ['http://127.0.0.1:8082/', out('host')],
    ['http://b.example/', out('host')],
    // Not one of the extra origins, so the start's rule decides: another site than the start's.
    ['https://sub.b.example/', out('host')],
    ['https://b.example:8443/', out('host')],
    ['https://127.0.0.1:8080/docs/a', out('scheme')],
    ['http://127.0.0.1:8080/blog/', out('prefix')],
  ];
  for (const [url, expected] of cases) {
    test(`${expected.inScope ? 'admits' : 'rejects'} ${url}`, () => {
      assert.deepEqual(check.check(url), expected);
    });
  }

  test('applies the path prefix to the start site only: an extra site is crawled whole', () => {
    assert.deepEqual(check.check('http://127.0.0.1:8081/blog/'), IN);
    assert.deepEqual(check.check('http://127.0.0.1:8080/blog/'), out('prefix'));
  });

  test('applies the exclude patterns to the extra sites too', () => {
    assert.deepEqual(check.check('http://127.0.0.1:8081/private/x'), {
      inScope: false,
      reason: 'excluded',
      pattern: '*/private/*',
    });
  });

  test('adds the extra sites to the subdomains of the start host', () => {
    const withSubdomains = scope({
      startUrl: 'https://www.example.com/',
      includeSubdomains: true,
      extraOrigins: ['http://other.test:8080'],
    });
    assert.deepEqual(withSubdomains.check('https://docs.example.com/'), IN);
    assert.deepEqual(withSubdomains.check('http://other.test:8080/a'), IN);
    assert.deepEqual(withSubdomains.check('http://other.test/a'), out('host'));
  });

  test('reads a crawl stored before the setting existed as having no extra site', () => {
    const old = createScope({
      startUrl: 'http://127.0.0.1:8080/',
      includeSubdomains: false,
      pathPrefix: '',
      excludePatterns: [],
    });
    assert.deepEqual(old.check('http://127.0.0.1:8081/'), out('host'));
  });
});

describe('sharedSite: whether two crawls may request one site', () => {
  const crawlOf = (startUrl: string, more: { includeSubdomains?: boolean; extraOrigins?: string[] } = {}) => ({
    startUrl,
    includeSubdomains: false,
    ...more,
  });

  test('finds the start site, an extra site of either, and a subdomain in either scope', () => {
    assert.equal(sharedSite(crawlOf('https://a.test/docs/'), crawlOf('https://a.test/blog/')), 'https://a.test');
    assert.equal(
      sharedSite(crawlOf('https://a.test/', { extraOrigins: ['https://b.test'] }), crawlOf('https://b.test/')),
      'https://b.test',
    );
    assert.equal(
      sharedSite(crawlOf('https://c.test/'), crawlOf('https://a.test/', { extraOrigins: ['https://c.test'] })),
      'https://c.test',
    );
    assert.equal(
      sharedSite(
        crawlOf('https://a.test/', { extraOrigins: ['https://x.test'] }),
        crawlOf('https://b.test/', { extraOrigins: ['https://x.test'] }),
      ),
      'https://x.test',
    );
    assert.equal(
      sharedSite(
        crawlOf('https://www.example.test/', { includeSubdomains: true }),
        crawlOf('https://blog.example.test/'),
      ),
      'https://blog.example.test',
    );
    assert.equal(
      sharedSite(
        crawlOf('https://blog.example.test/', { includeSubdomains: true }),
        crawlOf('https://example.test/', { includeSubdomains: true }),
      ),
      'https://blog.example.test',
    );
    // Subdomains include the other scheme on its default port.
    assert.equal(
      sharedSite(crawlOf('http://example.test/', { includeSubdomains: true }), crawlOf('https://shop.example.test/')),
      'https://shop.example.test',
    );
  });

  test('finds none for sites that cannot meet: other hosts, ports or schemes, sibling subdomains', () => {
    assert.equal(sharedSite(crawlOf('https://a.test/'), crawlOf('https://b.test/')), null);
    assert.equal(sharedSite(crawlOf('http://a.test:8080/'), crawlOf('http://a.test:8081/')), null);
    assert.equal(sharedSite(crawlOf('http://a.test/'), crawlOf('https://a.test/')), null);
    assert.equal(
      sharedSite(crawlOf('https://example.test/'), crawlOf('https://blog.example.test/', { includeSubdomains: true })),
      null,
    );
    assert.equal(
      sharedSite(
        crawlOf('https://blog.example.test/', { includeSubdomains: true }),
        crawlOf('https://shop.example.test/', { includeSubdomains: true }),
      ),
      null,
    );
  });
});
