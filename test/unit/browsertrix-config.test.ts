/**
 * The hand-off to Browsertrix Crawler (src/handoff/): every config written for a table of
 * settings is checked against Browsertrix 1.14.1's own option list, read back with the `yaml`
 * package, and its scope regexes are held to Tabcrawl's scope function on a table of URLs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { createParser } from 'css-selector-parser';
import { parse, parseDocument } from 'yaml';
import { DEFAULT_SETTINGS, validateSettings, withSessionGuard, type CrawlSettings } from '../../src/core/settings.ts';
import { normalizeUrl } from '../../src/core/url/normalize-url.ts';
import { createScope } from '../../src/core/url/scope.ts';
import {
  browsertrixConfig,
  browsertrixConfigFileName,
  browsertrixConfigYaml,
  yamlString,
} from '../../src/handoff/browsertrix-config.ts';
import { linkSelectors } from '../../src/handoff/browsertrix-parts.ts';
import { escapeRegex, wildcardToRegex } from '../../src/handoff/browsertrix-scope.ts';
import {
  admits,
  browsertrixNormalized,
  configProblems,
  loadBrowsertrixOptions,
  scopeOf,
} from '../support/browsertrix-options.ts';
import { crawlerUserAgent, TABCRAWL_PROJECT_URL } from '../../src/core/user-agent.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OPTIONS = loadBrowsertrixOptions();

function settingsOf(input: Partial<CrawlSettings> & { startUrl: string }): CrawlSettings {
  const result = validateSettings(input);
  if (!result.ok) throw new Error(`bad settings in the test: ${JSON.stringify(result.errors)}`);
  return result.settings;
}

/** The table of crawls: each with the settings given and URLs that its scope must judge as Tabcrawl does. */
const CASES: { name: string; settings: Partial<CrawlSettings> & { startUrl: string }; urls: string[] }[] = [
  {
    name: 'defaults',
    settings: { startUrl: 'https://example.com/' },
    urls: [
      'https://example.com/',
      'https://example.com/a/b.html',
      'https://example.com/a?b=1&a=2',
      'https://example.com/a#top',
      'https://example.com/caf%C3%A9/',
      'https://example.com/caf%c3%a9/',
      'https://example.com/%7Euser/',
      'https://example.com/a%2Fb',
      'https://example.com/?',
      'http://example.com/',
      'https://www.example.com/',
      'https://www2.example.com/',
      'https://sub.example.com/',
      'https://example.com:8443/',
      'https://example.com:443/',
      'http://example.com:443/',
      'https://example.com.evil.test/',
      'https://evilexample.com/',
      'https://example.org/',
      'https://EXAMPLE.com/Upper',
    ],
  },
  {
    name: 'a start URL on www, path prefix',
    settings: { startUrl: 'https://www.example.com/docs/intro.html', pathPrefix: '/docs/' },
    urls: [
      'https://www.example.com/docs/',
      'https://www.example.com/docs/a/b?x=1',
      'https://www.example.com/docs',
      'https://www.example.com/docs?x=/docs/',
      'https://www.example.com/docsx/',
      'https://www.example.com/blog/docs/',
      'https://www.example.com/',
      'https://example.com/docs/',
      'http://www.example.com/docs/',
      'https://www2.example.com/docs/',
      'https://www.example.com/%64ocs/',
      'https://www.example.com/docs/%2E%2E/secret',
    ],
  },
  {
    name: 'a path prefix with characters to encode and regex metacharacters',
    settings: { startUrl: 'https://example.com/caf%C3%A9%20(1)/a+b.html', pathPrefix: '/café (1)/' },
    urls: [
      'https://example.com/caf%C3%A9%20(1)/',
      'https://example.com/caf%C3%A9%20(1)/x?y',
      'https://example.com/café (1)/z',
      'https://example.com/cafe%20(1)/',
      'https://example.com/caf%C3%A9%20%281%29/',
      'https://example.com/caf%C3%A9%20(1)x/',
    ],
  },
  {
    name: 'subdomains',
    settings: { startUrl: 'https://www.example.com/', includeSubdomains: true },
    urls: [
      'https://example.com/',
      'http://example.com/',
      'https://www.example.com/a',
      'http://www.example.com/a',
      'https://a.b.example.com/x?y=1',
      'https://www2.example.com/',
      'https://example.com:8443/',
      'http://example.com:443/',
      'https://example.com:443/',
      'http://example.com:80/',
      'https://evilexample.com/',
      'https://example.com.evil.test/',
      'https://example.co/',
      'https://xn--caf-dma.example.com/',
      'https://café.example.com/',
      'https://example.org/',
    ],
  },
  {
    name: 'subdomains on a port, with a prefix',
    settings: { startUrl: 'http://app.example.test:8080/docs/', includeSubdomains: true, pathPrefix: '/docs' },
    urls: [
      'http://app.example.test:8080/docs/',
      'https://app.example.test:8080/docs-old/',
      'http://example.test:8080/docs',
      'http://api.app.example.test:8080/docs/x',
      'http://other.example.test:8080/docs/',
      'http://app.example.test/docs/',
      'http://app.example.test:8081/docs/',
      'http://app.example.test:8080/',
    ],
  },
  {
    name: 'exclude patterns with *',
    settings: {
      startUrl: 'https://example.com/',
      excludePatterns: [
        '*?sessionid=*',
        '*?print=*',
        '*.pdf',
        'http*://*/cgi-bin/*',
        'https://example.com/exact',
        '*/a+b(c)[d]{e}|f^$\\g*',
        '**/private/**',
      ],
    },
    urls: [
      'https://example.com/page?sessionid=1',
      'https://example.com/page?a=1&sessionid=1',
      'https://example.com/page?b=1&a=2',
      'https://example.com/page?z=1&print=2',
      'https://example.com/page?print=1&a=2',
      'https://example.com/page?utm_source=x&sessionid=1',
      'https://example.com/file.pdf',
      'https://example.com/file.pdf?x=1',
      'https://example.com/filepdf',
      'https://example.com/cgi-bin/x',
      'https://example.com/cgi-bin',
      'https://example.com/exact',
      'https://example.com/exact/',
      'https://example.com/exactly',
      'https://example.com/a+b(c)[d]%7Be%7D%7Cf%5E$%5Cg',
      'https://example.com/x/private/y',
      'https://example.com/private',
      'https://example.com/Private/y',
    ],
  },
  {
    name: 'extra sites',
    settings: {
      startUrl: 'https://example.com/docs/',
      pathPrefix: '/docs/',
      extraOrigins: ['https://docs.example.org', 'http://127.0.0.1:8081', 'https://www.example.net'],
      excludePatterns: ['*/drafts/*'],
    },
    urls: [
      'https://example.com/docs/a',
      'https://example.com/blog/',
      'https://docs.example.org/',
      'https://docs.example.org/anything/at/all?x=1',
      'https://docs.example.org/drafts/x',
      'http://docs.example.org/',
      'https://docs.example.org:8443/',
      'https://sub.docs.example.org/',
      'http://127.0.0.1:8081/a',
      'http://127.0.0.1:8082/a',
      'http://127.0.0.1/',
      'https://www.example.net/',
      'https://example.net/',
      'https://docs.example.org.evil.test/',
    ],
  },
  {
    name: 'an extra site whose home page is excluded',
    settings: {
      startUrl: 'http://127.0.0.1:8080/',
      extraOrigins: ['http://127.0.0.1:8081'],
      excludePatterns: ['http://127.0.0.1:8081/'],
    },
    urls: ['http://127.0.0.1:8081/', 'http://127.0.0.1:8081/a', 'http://127.0.0.1:8080/', 'http://[::1]:8080/'],
  },
  {
    name: 'delay 0, several requests at once',
    settings: { startUrl: 'http://127.0.0.1:8080/', delayMs: 0, requestsPerHost: 8 },
    urls: ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/x', 'http://localhost:8080/', 'https://127.0.0.1:8080/'],
  },
  {
    name: 'a big delay with jitter, a custom agent, nofollow followed',
    settings: {
      startUrl: 'https://example.com/',
      delayMs: 7_250,
      jitterMs: 500,
      productToken: 'My-Bot_x',
      followNofollow: true,
      maxDepth: 0,
      maxPages: 1_000_000,
    },
    urls: ['https://example.com/x', 'https://example.net/'],
  },
  {
    name: 'with cookies: the session guards',
    settings: { startUrl: 'https://example.com/', withCookies: true },
    urls: [
      'https://example.com/logout',
      'https://example.com/account/Sign-Out?x',
      'https://example.com/blog/remove-stains',
      'https://example.com/account/',
    ],
  },
  {
    name: 'an IPv6 start host',
    settings: { startUrl: 'http://[::1]:8080/', includeSubdomains: true },
    urls: ['http://[::1]:8080/', 'https://[::1]:8080/a', 'http://[::2]:8080/', 'http://[::1]/'],
  },
];

/** URLs with a user name or password: Tabcrawl's scope admits them (and fetch refuses them); the regexes do not, on purpose. */
const WITH_USER_INFO = [
  'https://user@example.com/docs/',
  'https://user:pass@example.com/docs/a',
  'https://user@www.example.com/docs/',
];

/**
 * The URLs of {@link CASES} whose verdict changes once Browsertrix has normalized them, and why
 * (docs/browsertrix.md, "What could not be carried over"). Browsertrix then requests the URL as found.
 */
const NORMALIZATION_DIFFERENCES: Record<string, string> = {
  'https://example.com/?':
    'an empty query is dropped with the slash before it (https://example.com): out, where Tabcrawl has it in',
  'https://www.example.com/%64ocs/':
    'the path is percent-decoded (/docs/): in, where Tabcrawl has /%64ocs/ outside /docs/',
  'https://example.com/caf%C3%A9%20%281%29/':
    'the path is percent-decoded ((1)): in, where Tabcrawl has %281%29 outside the prefix',
  'https://example.com/page?z=1&print=2':
    'query sorted: print comes first and *?print=* excludes it, where Tabcrawl has it in',
  'https://example.com/page?print=1&a=2':
    'query sorted: print no longer comes first, so *?print=* lets it in, where Tabcrawl excludes it',
};

const yamlOf = (settings: CrawlSettings): string =>
  browsertrixConfigYaml({ settings, version: '0.1.0', createdAt: Date.UTC(2026, 10, 21) });

describe('the Browsertrix config', () => {
  for (const { name, settings: given } of CASES) {
    test(`${name}: only options Browsertrix knows, of the right types and choices, and the YAML reads back as written`, () => {
      const settings = settingsOf(given);
      const text = yamlOf(settings);
      const document = parseDocument(text, { uniqueKeys: true });
      assert.deepEqual(document.errors, []);
      assert.deepEqual(document.warnings, []);
      const parsed = parse(text) as Record<string, unknown>;
      assert.deepEqual(configProblems(parsed, OPTIONS), []);
      assert.deepEqual(parsed, browsertrixConfig({ settings, version: '0.1.0' }).options);
      // Every regex compiles as Browsertrix compiles it (no flags), and with `u` too.
      for (const rx of [...(parsed['include'] as string[]), ...((parsed['exclude'] as string[] | undefined) ?? [])]) {
        assert.doesNotThrow(() => new RegExp(rx), rx);
        assert.doesNotThrow(() => new RegExp(rx, 'u'), rx);
      }
      // The commented-out sitemap line is a valid option once uncommented.
      const withSitemap = parse(text.replace('    # sitemap: ', '    sitemap: ')) as { seeds: { sitemap?: string }[] };
      assert.equal(withSitemap.seeds[0]?.sitemap, `${new URL(settings.startUrl).origin}/robots.txt`);
      assert.deepEqual(configProblems(withSitemap, OPTIONS), []);
    });
  }

  test('the settings each become their option', () => {
    const settings = settingsOf({
      startUrl: 'https://example.com/a',
      maxDepth: 3,
      maxPages: 42,
      productToken: 'MyBot',
      delayMs: 2_001,
      maxRetries: 5,
    });
    const { options } = browsertrixConfig({ settings, version: '9.8.7' });
    assert.deepEqual(options['seeds'], [{ url: 'https://example.com/a' }]);
    assert.equal(options['scopeType'], 'custom');
    assert.equal(options['depth'], 3);
    assert.equal(options['pageLimit'], 42);
    assert.equal(options['useRobots'], true);
    assert.equal(options['robotsAgent'], 'MyBot');
    assert.equal(options['userAgent'], `Mozilla/5.0 (compatible; tabcrawl/9.8.7; +${TABCRAWL_PROJECT_URL})`);
    assert.equal(options['workers'], 1);
    assert.equal(options['pageExtraDelay'], 3, '2.001 s rounds up');
    assert.equal(options['maxPageRetries'], 0);
    assert.deepEqual(options['rateLimitStatusCodes'], [429, 503]);
    assert.equal(options['rateLimitMaxRetries'], 5);
    assert.equal(options['rateLimitInterruptCount'], 1);
    assert.equal(options['generateWACZ'], true);
    assert.equal('exclude' in options, false, 'no exclude patterns: no exclude');
  });

  test('politeness is never less than the crawl: one worker, and a pause after each page of at least the delay plus the jitter', () => {
    for (const [delayMs, jitterMs, expected] of [
      [0, 0, 0],
      [1, 0, 1],
      [1000, 0, 1],
      [1000, 1, 2],
      [2500, 0, 3],
      [3_600_000, 60_000, 3660],
    ] as const) {
      const { options } = browsertrixConfig({
        settings: settingsOf({ startUrl: 'https://example.com/', delayMs, jitterMs }),
        version: '0.1.0',
      });
      assert.equal(options['pageExtraDelay'], expected, `delay ${delayMs} ms + jitter ${jitterMs} ms`);
      assert.ok((options['pageExtraDelay'] as number) * 1000 >= delayMs + jitterMs);
      assert.equal(options['workers'], 1);
    }
  });

  test('each extra site is a seed, unless its home page is out of scope (Browsertrix never excludes a seed)', () => {
    const settings = settingsOf({
      startUrl: 'https://example.com/',
      extraOrigins: ['https://a.example.org', 'https://b.example.org'],
      excludePatterns: ['https://b.example.org/'],
    });
    const { options } = browsertrixConfig({ settings, version: '0.1.0' });
    assert.deepEqual(options['seeds'], [{ url: 'https://example.com/' }, { url: 'https://a.example.org/' }]);
    assert.equal((options['include'] as string[]).length, 3, 'b.example.org is still in scope, but its home page');
  });

  test('a crawl stored before extra sites, jitter and newer settings existed still gets a config', () => {
    const old = { ...DEFAULT_SETTINGS, startUrl: 'https://example.com/' } as Partial<CrawlSettings>;
    delete old.extraOrigins;
    delete old.jitterMs;
    delete old.requestsPerHost;
    const text = browsertrixConfigYaml({ settings: old as CrawlSettings, version: '0.1.0' });
    const parsed = parse(text) as Record<string, unknown>;
    assert.deepEqual(configProblems(parsed, OPTIONS), []);
    assert.equal(parsed['pageExtraDelay'], 1);
  });

  test('the header says what each setting became and what could not be carried over, as comments only', () => {
    const text = yamlOf(
      settingsOf({ startUrl: 'https://example.com/', delayMs: 4000, excludePatterns: ['*\nevil: yes*'] }),
    );
    const header = text.slice(0, text.indexOf('\nseeds:'));
    for (const line of header.split('\n')) assert.match(line, /^(#.*)?$/, 'every header line is a comment');
    for (const line of text.split('\n').filter((l) => l.startsWith('#')))
      assert.ok(line.length <= 100 || !line.slice(2).includes(' '), `wrapped: ${line}`);
    for (const words of [
      'per-host gap',
      'Crawl-delay',
      'response-time rule',
      'Back-off',
      'Page resources',
      'Links to other sites',
      'Cookies',
      'Your network',
      'Sitemaps',
      'pageExtraDelay 4',
      'docker run',
    ]) {
      assert.ok(header.includes(words), `the header names ${words}`);
    }
    assert.equal(
      (parse(text) as Record<string, unknown>)['evil'],
      undefined,
      'a line break in a pattern cannot end a comment',
    );
  });

  test('its docker run line mounts the file under the name it is saved as', () => {
    const settings = settingsOf({ startUrl: 'http://127.0.0.1:8090/' });
    const dockerLine = (text: string): string => text.split('\n').find((line) => line.includes('docker run')) ?? '';
    // The pages save HOST-DATE.browsertrix.yaml; the command line, the name given to --browsertrix-config.
    const saved = browsertrixConfigFileName({ settings, createdAt: Date.UTC(2026, 10, 21) });
    assert.equal(saved, '127.0.0.1_8090-2026-11-21.browsertrix.yaml');
    assert.match(
      dockerLine(yamlOf(settings)),
      /docker run -v \$PWD\/127\.0\.0\.1_8090-2026-11-21\.browsertrix\.yaml:\/app\/crawl-config\.yaml /,
    );
    const named = (fileName: string): string =>
      dockerLine(browsertrixConfigYaml({ settings, version: '0.1.0', createdAt: Date.UTC(2026, 10, 21), fileName }));
    assert.match(named('handoff.yaml'), /-v \$PWD\/handoff\.yaml:\/app\/crawl-config\.yaml /);
    // A name a shell would split or expand is quoted, $PWD still expanding.
    assert.match(named('my $crawl "1".yaml'), /-v "\$PWD\/my \\\$crawl \\"1\\"\.yaml":\/app\/crawl-config\.yaml /);
    assert.match(
      dockerLine(browsertrixConfigYaml({ settings, version: '0.1.0' })),
      /-v \$PWD\/crawl-config\.yaml:/,
      'no date, no name: the generic one',
    );
  });

  test("the User-Agent is the one the extension sends: the background's rule and the config both take it from core/user-agent.ts", () => {
    assert.equal(
      crawlerUserAgent('1.2.3'),
      'Mozilla/5.0 (compatible; tabcrawl/1.2.3; +https://github.com/tabcrawl/tabcrawl)',
    );
    const background = readFileSync(resolve(ROOT, 'src/shells/background/index.ts'), 'utf8');
    assert.match(background, /import \{ crawlerUserAgent \} from '\.\.\/\.\.\/core\/user-agent\.ts';/);
    // One User-Agent for the crawl's own requests (the rule) and, in Firefox, for the render tabs' requests.
    assert.match(background, /const userAgent = crawlerUserAgent\(browser\.runtime\.getManifest\(\)\.version\);/);
    assert.match(background, /installUserAgentRule\(userAgent\)/);
    const { options } = browsertrixConfig({
      settings: { ...DEFAULT_SETTINGS, startUrl: 'https://example.com/' },
      version: '1.2.3',
    });
    assert.equal(options['userAgent'], crawlerUserAgent('1.2.3'));
  });

  test('the link selectors parse as Browsertrix parses them, with no comma (it splits on commas)', () => {
    const parser = createParser();
    for (const follow of [false, true]) {
      for (const entry of linkSelectors(follow)) {
        assert.ok(!entry.includes(','), entry);
        const [selector, property] = entry.split('->');
        assert.equal(property, 'href');
        assert.doesNotThrow(() => parser(selector ?? ''), entry);
      }
    }
  });

  test('the file is named as the exports are', () => {
    assert.equal(
      browsertrixConfigFileName({
        settings: { startUrl: 'http://127.0.0.1:8080/x' },
        createdAt: Date.UTC(2026, 10, 21, 23),
      }),
      '127.0.0.1_8080-2026-11-21.browsertrix.yaml',
    );
  });

  test('strings read back as written, however odd', () => {
    for (const text of [
      '',
      'plain',
      "it's",
      '#not a comment',
      'a: b',
      ' lead',
      'trail ',
      '\\d+\\.',
      '"quoted"',
      '- dash',
      'tab\there',
      'line\nbreak',
      '\u0085\u2028',
      'café ✓ 😀',
      '\ufeffbom',
      'yes',
      'null',
      '~',
      '1e3',
      '0x10',
    ]) {
      assert.equal(parse(`key: ${yamlString(text)}\n`).key, text, JSON.stringify(text));
    }
  });
});

describe('the scope regexes', () => {
  test('escapeRegex and wildcardToRegex keep every character literal but *', () => {
    const odd = 'a.b*c?d+e(f)[g]{h}|i^j$k\\l/m-n';
    assert.ok(new RegExp(`^${escapeRegex(odd)}$`).test(odd));
    assert.ok(new RegExp(`^${escapeRegex(odd)}$`, 'u').test(odd));
    assert.equal(wildcardToRegex('*?sessionid=*'), '^.*\\?sessionid=.*$');
    assert.equal(wildcardToRegex('a**b***'), '^a.*b.*$');
    assert.equal(wildcardToRegex('exact'), '^exact$');
  });

  for (const { name, settings: given, urls } of CASES) {
    test(`${name}: each URL is in Browsertrix's scope exactly when it is in Tabcrawl's`, () => {
      const settings = settingsOf(given);
      const parsed = parse(yamlOf(settings)) as Record<string, unknown>;
      const scope = scopeOf(parsed);
      const tabcrawl = createScope(withSessionGuard(settings));
      let inside = 0;
      for (const written of [settings.startUrl, ...urls]) {
        const url = normalizeUrl(written);
        assert.notEqual(url, null, written);
        const expected = tabcrawl.check(url ?? '').inScope;
        if (expected) inside++;
        assert.equal(admits(scope, url ?? ''), expected, `${url}: Tabcrawl says ${expected ? 'in' : 'out of'} scope`);
      }
      assert.ok(inside >= 1 && inside <= urls.length, 'the table has URLs on both sides of the scope');
    });
  }

  test("a URL with a user name or password is out of the regexes' scope (Tabcrawl admits it, then cannot fetch it)", () => {
    const settings = settingsOf({ startUrl: 'https://www.example.com/docs/', includeSubdomains: true });
    const scope = scopeOf(parse(yamlOf(settings)) as Record<string, unknown>);
    for (const url of WITH_USER_INFO) {
      assert.equal(createScope(settings).check(url).inScope, true, url);
      assert.equal(admits(scope, url), false, url);
    }
  });

  test('on URLs as Browsertrix normalizes them (query sorted, utm_ dropped, path decoded), the verdicts differ only where docs/browsertrix.md says', () => {
    const differences: string[] = [];
    for (const { settings: given, urls } of CASES) {
      const settings = settingsOf(given);
      const scope = scopeOf(parse(yamlOf(settings)) as Record<string, unknown>);
      const tabcrawl = createScope(withSessionGuard(settings));
      for (const written of urls) {
        const url = normalizeUrl(written) ?? '';
        const expected = tabcrawl.check(url).inScope;
        const seen = browsertrixNormalized(url);
        if (admits(scope, seen) !== expected) differences.push(url);
      }
    }
    assert.deepEqual(differences, Object.keys(NORMALIZATION_DIFFERENCES));
  });
});
