import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  allowAllPolicy,
  classifyRobotsStatus,
  decodeRobotsBody,
  disallowAllPolicy,
  parseRobots,
  robotsUrlFor,
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_REDIRECTS,
} from '../../src/core/robots/robots-policy.ts';

const ROBOTS_URL = 'http://example.test/robots.txt';
const TOKEN = 'tabcrawl';

function policy(body: string): ReturnType<typeof parseRobots> {
  return parseRobots(ROBOTS_URL, body, TOKEN);
}

/** Whether `path` of example.test may be fetched under `body`. */
function allows(body: string, path: string): boolean {
  return policy(body).isAllowed(`http://example.test${path}`).allowed;
}

/** Checks every `[path, allowed]` pair against one robots.txt body. */
function assertPaths(body: string, cases: [path: string, allowed: boolean][]): void {
  for (const [path, allowed] of cases) {
    assert.equal(allows(body, path), allowed, `${path} under:\n${body}`);
  }
}

/** Checks, for each `[rule, path, isMatch]`, that `Disallow: rule` alone disallows `path` exactly when it should match. */
function assertRuleMatches(cases: [rule: string, path: string, isMatch: boolean][]): void {
  for (const [rule, path, isMatch] of cases) {
    const decision = policy(`User-agent: tabcrawl\nDisallow: ${rule}\n`).isAllowed(`http://example.test${path}`);
    assert.equal(decision.allowed, !isMatch, `Disallow: ${rule} against ${path}`);
  }
}

describe('parseRobots: which group applies', () => {
  it('matches our product token whatever its case on the User-agent line', () => {
    for (const agent of ['tabcrawl', 'TABCRAWL', 'TabCrawl']) {
      const robots = policy(`User-agent: ${agent}\nDisallow: /\n`);
      assert.equal(robots.group, 'tabcrawl', agent);
      assert.equal(robots.isAllowed('http://example.test/x').allowed, false, agent);
    }
  });

  it('matches the product token at the start of a User-agent value and nothing longer', () => {
    const cases: [agent: string, isOurs: boolean][] = [
      ['Tabcrawl/2.0', true],
      ['tabcrawl/1.0 (+https://example.test)', true],
      ['Tabcrawl 1.0', true],
      ['tabcrawlbot', false],
      ['tabcrawl_x', false],
      ['my-tabcrawl', false],
      ['*tabcrawl', false],
    ];
    for (const [agent, isOurs] of cases) {
      const robots = policy(`User-agent: ${agent}\nDisallow: /\n`);
      assert.equal(robots.group, isOurs ? 'tabcrawl' : null, agent);
      assert.equal(robots.isAllowed('http://example.test/x').allowed, !isOurs, agent);
    }
  });

  it('matches the product token given in any case', () => {
    const robots = parseRobots(ROBOTS_URL, 'User-agent: tabcrawl\nDisallow: /\n', 'TabCrawl');
    assert.equal(robots.group, 'tabcrawl');
    assert.equal(robots.isAllowed('http://example.test/x').allowed, false);
  });

  it('falls back to the * group when no group names us', () => {
    const robots = policy('User-agent: otherbot\nDisallow: /other\n\nUser-agent: *\nDisallow: /star\n');
    assert.equal(robots.group, '*');
    assert.equal(robots.isAllowed('http://example.test/star').allowed, false);
    assert.equal(robots.isAllowed('http://example.test/other').allowed, true);
  });

  it('ignores the * group entirely when a group names us', () => {
    const body = 'User-agent: *\nDisallow: /x/\n\nUser-agent: tabcrawl\nDisallow: /y/\n';
    assertPaths(body, [
      ['/x/page', true],
      ['/y/page', false],
    ]);
  });

  it('merges every group that names us', () => {
    const body =
      'User-agent: tabcrawl\nDisallow: /a\n\nUser-agent: otherbot\nDisallow: /b\n\nUser-agent: Tabcrawl/2.0\nDisallow: /c\n';
    assertPaths(body, [
      ['/a', false],
      ['/b', true],
      ['/c', false],
    ]);
  });

  it('gives the rules after several User-agent lines to each of them, blank lines included', () => {
    const body = 'User-agent: otherbot\n\nUser-agent: tabcrawl\nDisallow: /shared\n';
    assert.equal(allows(body, '/shared'), false);
    assert.equal(parseRobots(ROBOTS_URL, body, 'otherbot').isAllowed('http://example.test/shared').allowed, false);
  });

  it('allows everything when no group names us and there is no * group', () => {
    for (const body of ['', '\n\n', 'User-agent: otherbot\nDisallow: /\n', '# only a comment\n']) {
      const robots = policy(body);
      assert.equal(robots.group, null, JSON.stringify(body));
      assert.deepEqual(robots.isAllowed('http://example.test/x'), { allowed: true, rule: null });
    }
  });

  it('applies a group that names us but has no rules, even at the end of the file, instead of *', () => {
    for (const body of [
      'User-agent: *\nDisallow: /\n\nUser-agent: tabcrawl\n',
      'User-agent: *\nDisallow: /\n\nUser-agent: tabcrawl\nDisallow:\n',
    ]) {
      const robots = policy(body);
      assert.equal(robots.group, 'tabcrawl', JSON.stringify(body));
      assert.equal(robots.isAllowed('http://example.test/x').allowed, true, JSON.stringify(body));
    }
  });

  it('ignores rules that come before any User-agent line', () => {
    const body = 'Disallow: /early\n\nUser-agent: tabcrawl\nDisallow: /late\n';
    assertPaths(body, [
      ['/early', true],
      ['/late', false],
    ]);
  });

  it('reads record names in any case', () => {
    for (const body of [
      'USER-AGENT: tabcrawl\nALLOW: /x/\nDISALLOW: /\n',
      'uSeR-aGeNt: tabcrawl\naLlOw: /x/\ndIsAlLoW: /\n',
    ]) {
      assertPaths(body, [
        ['/x/y', true],
        ['/a/b', false],
      ]);
    }
  });

  it('rejects a product token that RFC 9309 does not allow', () => {
    for (const token of ['', 'tabcrawl/1.0', 'tab crawl', '*']) {
      assert.throws(() => parseRobots(ROBOTS_URL, '', token), RangeError, token);
    }
  });
});

describe('parseRobots: path matching', () => {
  it('lets the longest matching rule decide', () => {
    assertPaths('User-agent: tabcrawl\nDisallow: /x/page.html\nAllow: /x/\n', [
      ['/x/page.html', false],
      ['/x/other.html', true],
    ]);
    assertPaths('User-agent: tabcrawl\nAllow: /x/page.html\nDisallow: /x/\n', [
      ['/x/page.html', true],
      ['/x/', false],
    ]);
    assertPaths('User-agent: tabcrawl\nDisallow: /x\nAllow: /x/\n', [
      ['/x', false],
      ['/x/', true],
    ]);
  });

  it('an Allow rule wins a tie with a Disallow of the same length', () => {
    for (const body of [
      'User-agent: tabcrawl\nDisallow: /\nAllow: /\n',
      'User-agent: tabcrawl\nDisallow: /folder\nAllow: /folder\n',
      'User-agent: tabcrawl\nAllow: /folder\nDisallow: /folder\n',
    ]) {
      const decision = policy(body).isAllowed('http://example.test/folder/page');
      assert.equal(decision.allowed, true, body);
      assert.match(decision.rule ?? '', /^Allow: /, body);
    }
  });

  it('an empty Disallow allows everything', () => {
    assert.deepEqual(policy('User-agent: tabcrawl\nDisallow:\n').isAllowed('http://example.test/anything'), {
      allowed: true,
      rule: null,
    });
    assert.equal(allows('User-agent: tabcrawl\nDisallow:\nAllow:\n', '/x'), true);
  });

  it('compares paths case-sensitively, from the start of the path, query included', () => {
    assertPaths('User-agent: tabcrawl\nDisallow: /\nAllow: /fish\n', [
      ['/fish', true],
      ['/fish.html', true],
      ['/fish/salmon.html', true],
      ['/fishheads', true],
      ['/fish.html?id=anything', true],
      ['/Fish.asp', false],
      ['/catfish', false],
      ['/?id=fish', false],
      ['/bar', false],
    ]);
    assertPaths('User-agent: tabcrawl\nDisallow: /search?q=\n', [
      ['/search?q=cats', false],
      ['/search', true],
      ['/search?page=2', true],
    ]);
  });

  it('reads * in a rule as any run of characters', () => {
    assertPaths('User-agent: tabcrawl\nDisallow: /\nAllow: /*.php\n', [
      ['/filename.php', true],
      ['/folder/filename.php?parameters', true],
      ['//folder/any.php.file.html', true],
      ['/index?f=filename.php/', true],
      ['/php/', false],
      ['/windows.PHP', false],
    ]);
    assertPaths('User-agent: tabcrawl\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', [
      ['/foo/bar/quz', false],
      ['/foo/quz', true],
      ['/foo//quz', true],
    ]);
    // "/fish*" is the same rule as "/fish".
    assertPaths('User-agent: tabcrawl\nDisallow: /\nAllow: /fish*\n', [
      ['/fish', true],
      ['/fishheads/yummy.html', true],
      ['/catfish', false],
    ]);
  });

  it('reads $ at the end of a rule as the end of the path', () => {
    assertPaths('User-agent: tabcrawl\nDisallow: /\nAllow: /*.php$\n', [
      ['/filename.php', true],
      ['/folder/filename.php', true],
      ['/filename.php?parameters', false],
      ['/filename.php/', false],
      ['/filename.php5', false],
    ]);
    assertPaths('User-agent: tabcrawl\nAllow: /$\nDisallow: /\n', [
      ['/', true],
      ['/page.html', false],
    ]);
    assertPaths('User-agent: tabcrawl\nDisallow: /foo/bar$\n', [
      ['/foo/bar', false],
      ['/foo/bar/', true],
      ['/foo/barbaz', true],
    ]);
  });

  it('a rule made longer by * beats a shorter literal one', () => {
    assertPaths('User-agent: tabcrawl\nAllow: /page\nDisallow: /*.html\n', [
      ['/page.html', false],
      ['/page', true],
    ]);
  });

  it('reports the deciding rule as written, without its comment', () => {
    const robots = policy('user-agent: tabcrawl\nDisallow:   /private/   # keep out\nAllow: /private/public\n');
    assert.deepEqual(robots.isAllowed('http://example.test/private/x'), {
      allowed: false,
      rule: 'Disallow: /private/',
    });
    assert.deepEqual(robots.isAllowed('http://example.test/private/public'), {
      allowed: true,
      rule: 'Allow: /private/public',
    });
    assert.deepEqual(robots.isAllowed('http://example.test/open'), { allowed: true, rule: null });
  });

  it('treats everything after # as a comment', () => {
    assertPaths('User-agent: tabcrawl\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', [
      ['/foo/bar', true],
      ['/foo/quz', false],
    ]);
  });

  it('always allows /robots.txt itself', () => {
    const robots = policy('User-agent: *\nDisallow: /\n');
    assert.deepEqual(robots.isAllowed('http://example.test/robots.txt'), { allowed: true, rule: null });
    assert.equal(robots.isAllowed('http://example.test/robots.txt.bak').allowed, false);
  });

  it('throws a RangeError for a URL of another origin or a relative URL', () => {
    const robots = policy('User-agent: *\nDisallow: /private\n');
    for (const url of [
      'https://example.test/private',
      'http://other.test/private',
      'http://example.test:8080/private',
      'http://sub.example.test/x',
      '/private',
      'not a url',
    ]) {
      assert.throws(() => robots.isAllowed(url), RangeError, url);
    }
  });

  it('treats the default port as the same origin', () => {
    const robots = parseRobots('http://example.test:80/robots.txt', 'User-agent: *\nDisallow: /private\n', TOKEN);
    assert.equal(robots.isAllowed('http://example.test/private').allowed, false);
    assert.equal(
      parseRobots('https://example.test/robots.txt', '', TOKEN).isAllowed('https://example.test:443/x').allowed,
      true,
    );
  });

  it('rejects a robots.txt URL that is not http(s)', () => {
    for (const url of ['file:///robots.txt', 'data:text/plain,x', 'robots.txt']) {
      assert.throws(() => parseRobots(url, '', TOKEN), RangeError, url);
    }
  });
});

describe('parseRobots: percent-encoding', () => {
  it('compares rules and URLs after one normalization of their encoding', () => {
    // [rule, path, rule matches path]
    const cases: [rule: string, path: string, isMatch: boolean][] = [
      ['/%7Efoo', '/~foo', true],
      ['/~foo', '/%7Efoo', true],
      ['/~foo', '/%7efoo', true],
      ['/ä', '/%C3%A4', true],
      ['/ä', '/ä', true],
      ['/%c3%a4', '/ä', true],
      ['/foo/bar/ツ', '/foo/bar/%E3%83%84', true],
      ['/foo/bar/%62%61%7A', '/foo/bar/baz', true],
      ['/a%2fb', '/a%2Fb', true],
      ['/a%2Fb', '/a/b', false],
      ['/a|b', '/a%7Cb', true],
      ['/a%7cb', '/a|b', true],
      ["/it's", '/it%27s', true],
      ["/q?x=it's", "/q?x=it's", true],
      ['/[x]', '/%5Bx%5D', true],
      ['/a b', '/a%20b', true],
      ['/100%', '/100%25', true],
      ['/ä', '/a', false],
    ];
    assertRuleMatches(cases);
  });

  it('keeps a query with a URL in it as it is', () => {
    const body = 'User-agent: tabcrawl\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n';
    assert.equal(allows(body, '/foo/bar?qux=taz&baz=http://foo.bar?tar&par'), true);
  });
});

describe('parseRobots: sitemaps', () => {
  it('a Sitemap line inside a group does not end the group', () => {
    assert.equal(allows('User-agent: tabcrawl\nSitemap: http://example.test/s.xml\nDisallow: /p\n', '/p'), false);
    // robots-parser alone would start a new group at "User-agent: otherbot".
    assert.equal(
      allows('User-agent: tabcrawl\nSitemap: http://example.test/s.xml\nUser-agent: otherbot\nDisallow: /p\n', '/p'),
      false,
    );
  });

  it('other unknown records inside a group do not end it either', () => {
    assert.equal(allows('User-agent: tabcrawl\nHost: example.test\nUser-agent: otherbot\nDisallow: /p\n', '/p'), false);
  });

  it('lists Sitemap URLs from anywhere in the file, resolved, distinct and in order', () => {
    const robots = policy(
      [
        'Sitemap: http://example.test/first.xml',
        'User-agent: otherbot',
        'sitemap: /relative.xml # comment',
        'Disallow: /',
        'SITEMAP: http://example.test/first.xml',
        'Site-map: https://cdn.example.test/third.xml',
        'Sitemap: javascript:alert(1)',
        'Sitemap: http://[bad',
        'Sitemap:',
      ].join('\n'),
    );
    assert.deepEqual(robots.sitemaps, [
      'http://example.test/first.xml',
      'http://example.test/relative.xml',
      'https://cdn.example.test/third.xml',
    ]);
  });
});

describe('parseRobots: Crawl-delay', () => {
  it('reads Crawl-delay as a non-negative decimal number of seconds, in ms', () => {
    const cases: [value: string, delayMs: number | null][] = [
      ['10', 10_000],
      ['0', 0],
      ['1.5', 1500],
      ['0.05', 50],
      ['0.07', 70],
      ['.5', 500],
      ['2.', 2000],
      ['  3  ', 3000],
      ['abc', null],
      ['-1', null],
      ['0x10', null],
      ['1e3', null],
      ['1,5', null],
      ['9'.repeat(400), null],
      ['', null],
    ];
    for (const [value, delayMs] of cases) {
      assert.equal(
        policy(`User-agent: tabcrawl\nCrawl-delay: ${value}\n`).crawlDelayMs,
        delayMs,
        JSON.stringify(value),
      );
    }
  });

  it('takes the Crawl-delay of the group that applies to us', () => {
    assert.equal(
      policy('User-agent: *\nDisallow: /a\nCrawl-delay: 5\n\nUser-agent: tabcrawl\nDisallow: /b\nCrawl-delay: 2\n')
        .crawlDelayMs,
      2000,
    );
    assert.equal(
      policy('User-agent: *\nDisallow: /a\nCrawl-delay: 5\n\nUser-agent: otherbot\nDisallow: /b\nCrawl-delay: 2\n')
        .crawlDelayMs,
      5000,
    );
    assert.equal(
      policy('User-agent: *\nDisallow: /a\nCrawl-delay: 5\n\nUser-agent: tabcrawl\nDisallow: /x\n').crawlDelayMs,
      null,
    );
    assert.equal(policy('User-agent: otherbot\nCrawl-delay: 2\n').crawlDelayMs, null);
  });

  it('keeps the rules after a Crawl-delay line in the same group', () => {
    assert.equal(allows('User-agent: tabcrawl\nCrawl-delay: 1\nDisallow: /p\n', '/p'), false);
  });
});

/** Whether `path` of example.test may be fetched by `agent` under `body`. */
function agentAllows(body: string, agent: string, path: string): boolean {
  return parseRobots(ROBOTS_URL, body, agent).isAllowed(`http://example.test${path}`).allowed;
}

describe('parseRobots: a Crawl-delay line does not split a group (RFC 9309 §2.2.4)', () => {
  it('keeps a run of User-agent lines one group across a Crawl-delay line for its rules, and gives a delay to the agents above it', () => {
    // [body, agent, /private/x allowed, crawlDelayMs]
    const shape1 = 'User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /private\n';
    const cases: [body: string, agent: string, isAllowed: boolean, delayMs: number | null][] = [
      [shape1, 'FooBot', false, 5000],
      // No Crawl-delay right under BarBot: the largest of its group's.
      [shape1, 'BarBot', false, 5000],
      [shape1, 'BazBot', true, null],
      // Several agents, a delay under each of them: one group for the rules; each agent its own delay.
      [
        'User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 3\nUser-agent: c\nCrawl-delay: 2\nDisallow: /private\n',
        'a',
        false,
        1000,
      ],
      [
        'User-agent: a\nCrawl-delay: 1\nUser-agent: b\nCrawl-delay: 3\nUser-agent: c\nCrawl-delay: 2\nDisallow: /private\n',
        'c',
        false,
        2000,
      ],
      // Blank lines and comments inside the run change nothing.
      [
        'User-agent: FooBot\n\nCrawl-delay: 5 # be gentle\n\nUser-agent: BarBot\n\nDisallow: /private\n',
        'FooBot',
        false,
        5000,
      ],
      // The * group takes our rules when the run names both, and we obey it.
      ['User-agent: *\nCrawl-delay: 5\nUser-agent: otherbot\nDisallow: /private\n', 'tabcrawl', false, 5000],
      ['User-agent: tabcrawl\nCrawl-delay: 0.5\nUser-agent: *\nDisallow: /private\n', 'tabcrawl', false, 500],
      // Record names in any case, and a Crawl-delay whose colon was forgotten.
      ['User-agent: FooBot\nCRAWL-DELAY: 5\nUser-agent: BarBot\nDisallow: /private\n', 'FooBot', false, 5000],
      ['User-agent: FooBot\ncrawl-delay 5\nUser-agent: BarBot\nDisallow: /private\n', 'FooBot', false, 5000],
    ];
    for (const [body, agent, isAllowed, delayMs] of cases) {
      const robots = parseRobots(ROBOTS_URL, body, agent);
      assert.equal(robots.isAllowed('http://example.test/private/x').allowed, isAllowed, `${agent} under:\n${body}`);
      assert.equal(robots.crawlDelayMs, delayMs, `${agent} under:\n${body}`);
    }
  });

  it('keeps the run one group whatever the Crawl-delay says, and ignores an invalid value', () => {
    for (const value of ['abc', '-1', '', '0x10', '1e3', '1,5', 'NaN', 'Infinity', '9'.repeat(400)]) {
      const body = `User-agent: FooBot\nCrawl-delay: ${value}\nUser-agent: BarBot\nDisallow: /private\n`;
      const robots = parseRobots(ROBOTS_URL, body, 'FooBot');
      assert.equal(robots.isAllowed('http://example.test/private/x').allowed, false, JSON.stringify(value));
      assert.equal(robots.crawlDelayMs, null, JSON.stringify(value));
    }
    const mixed = 'User-agent: FooBot\nCrawl-delay: abc\nUser-agent: BarBot\nCrawl-delay: 2\nDisallow: /private\n';
    assert.equal(parseRobots(ROBOTS_URL, mixed, 'FooBot').crawlDelayMs, 2000);
  });

  it('gives a Crawl-delay after the rules to the group of those rules, and the next User-agent line starts another', () => {
    const body = 'User-agent: FooBot\nDisallow: /a\nCrawl-delay: 3\nUser-agent: BarBot\nDisallow: /b\n';
    const foo = parseRobots(ROBOTS_URL, body, 'FooBot');
    const bar = parseRobots(ROBOTS_URL, body, 'BarBot');
    assert.equal(foo.crawlDelayMs, 3000);
    assert.equal(bar.crawlDelayMs, null);
    assert.deepEqual([agentAllows(body, 'FooBot', '/a'), agentAllows(body, 'FooBot', '/b')], [false, true]);
    assert.deepEqual([agentAllows(body, 'BarBot', '/a'), agentAllows(body, 'BarBot', '/b')], [true, false]);
  });

  it('attributes each Crawl-delay to the User-agent lines directly above it, not to the whole run', () => {
    // [body, agent, /private/x allowed, crawlDelayMs]
    const cases: [body: string, agent: string, isAllowed: boolean, delayMs: number | null][] = [
      // Another bot's delay before ours, in one run: ours is 1 s, not 5 s.
      [
        'User-agent: OtherBot\nCrawl-delay: 5\nUser-agent: *\nCrawl-delay: 1\nDisallow: /private\n',
        'tabcrawl',
        false,
        1000,
      ],
      [
        'User-agent: OtherBot\nCrawl-delay: 5\nUser-agent: *\nCrawl-delay: 1\nDisallow: /private\n',
        'OtherBot',
        false,
        5000,
      ],
      // The delay for every bot, then ours: ours is 2 s, not 10 s.
      [
        'User-agent: *\nCrawl-delay: 10\nUser-agent: tabcrawl\nCrawl-delay: 2\nDisallow: /private\n',
        'tabcrawl',
        false,
        2000,
      ],
      [
        'User-agent: *\nCrawl-delay: 10\nUser-agent: tabcrawl\nCrawl-delay: 2\nDisallow: /private\n',
        'OtherBot',
        false,
        10_000,
      ],
      // Consecutive User-agent lines share the delay under them; blank lines and comments do not end them.
      [
        'User-agent: a\nUser-agent: tabcrawl\n\n# slow\nCrawl-delay: 3\nUser-agent: c\nCrawl-delay: 1\nDisallow: /private\n',
        'tabcrawl',
        false,
        3000,
      ],
      [
        'User-agent: a\nUser-agent: tabcrawl\n\n# slow\nCrawl-delay: 3\nUser-agent: c\nCrawl-delay: 1\nDisallow: /private\n',
        'a',
        false,
        3000,
      ],
      // A delay after the rules is the record's, as before them.
      [
        'User-agent: tabcrawl\nDisallow: /private\nCrawl-delay: 4\nUser-agent: *\nCrawl-delay: 9\nDisallow: /\n',
        'tabcrawl',
        false,
        4000,
      ],
      // None under our agent: the largest of our group's, as when Crawl-delay lines were not attributed.
      ['User-agent: OtherBot\nCrawl-delay: 5\nUser-agent: tabcrawl\nDisallow: /private\n', 'tabcrawl', false, 5000],
      ['User-agent: *\nCrawl-delay: 10\nUser-agent: tabcrawl\nDisallow: /private\n', 'tabcrawl', false, 10_000],
    ];
    for (const [body, agent, isAllowed, delayMs] of cases) {
      const robots = parseRobots(ROBOTS_URL, body, agent);
      assert.equal(robots.isAllowed('http://example.test/private/x').allowed, isAllowed, `${agent} under:\n${body}`);
      assert.equal(robots.crawlDelayMs, delayMs, `${agent} under:\n${body}`);
    }
  });

  it('applies a Crawl-delay before the rules and one after them alike, the largest when a group says two', () => {
    assert.equal(policy('User-agent: tabcrawl\nCrawl-delay: 2\nDisallow: /p\n').crawlDelayMs, 2000);
    assert.equal(policy('User-agent: tabcrawl\nDisallow: /p\nCrawl-delay: 2\n').crawlDelayMs, 2000);
    assert.equal(policy('User-agent: tabcrawl\nCrawl-delay: 4\nDisallow: /p\nCrawl-delay: 1\n').crawlDelayMs, 4000);
    assert.equal(policy('User-agent: tabcrawl\nCrawl-delay: 1\nDisallow: /p\nCrawl-delay: 4\n').crawlDelayMs, 4000);
  });

  it('takes the largest Crawl-delay of every group that names us', () => {
    const body =
      'User-agent: tabcrawl\nDisallow: /a\nCrawl-delay: 1\n\nUser-agent: otherbot\nDisallow: /b\nCrawl-delay: 9\n\nUser-agent: Tabcrawl/2\nDisallow: /c\nCrawl-delay: 3\n';
    assert.equal(policy(body).crawlDelayMs, 3000);
  });

  it('ignores a Crawl-delay before any User-agent line', () => {
    assert.equal(policy('Crawl-delay: 7\nUser-agent: tabcrawl\nDisallow: /p\n').crawlDelayMs, null);
    assert.equal(policy('Crawl-delay: 7\nUser-agent: *\nDisallow: /p\n').crawlDelayMs, null);
  });

  it('applies a group of User-agent and Crawl-delay lines only, even at the end of the file', () => {
    const robots = policy('User-agent: *\nDisallow: /\n\nUser-agent: tabcrawl\nCrawl-delay: 2\n');
    assert.equal(robots.group, 'tabcrawl');
    assert.equal(robots.crawlDelayMs, 2000);
    assert.equal(robots.isAllowed('http://example.test/x').allowed, true);
  });
});

describe('parseRobots: %2A and %24 in a rule match a literal * and $ (RFC 9309 §2.2.3)', () => {
  it('matches a literal or encoded * and $ in a URL against the encoded rule, and never reads them as special', () => {
    const cases: [rule: string, path: string, isMatch: boolean][] = [
      // RFC 9309 §2.2.3, Figure 6.
      ['/path/file-with-a-%2A.html', '/path/file-with-a-*.html', true],
      ['/path/file-with-a-%2A.html', '/path/file-with-a-%2A.html', true],
      ['/path/file-with-a-%2A.html', '/path/file-with-a-%2a.html', true],
      ['/path/file-with-a-%2a.html', '/path/file-with-a-*.html', true],
      ['/path/file-with-a-%2A.html', '/path/file-with-a-x.html', false],
      ['/path/file-with-a-%2A.html', '/path/file-with-a-.html', false],
      ['/path/foo-%24', '/path/foo-$', true],
      ['/path/foo-%24', '/path/foo-%24', true],
      ['/path/foo-%24', '/path/foo-$/more', true],
      ['/path/foo-%24', '/path/foo-', false],
      ['/path/foo-%24', '/path/foo-bar', false],
      // In a query too.
      ['/search?price=%24', '/search?price=$5', true],
      ['/search?q=%2A', '/search?q=*', true],
      // A * in a rule is still the wildcard, and matches a literal * or its encoding.
      ['/path/file-with-a-*.html', '/path/file-with-a-*.html', true],
      ['/path/file-with-a-*.html', '/path/file-with-a-%2A.html', true],
      ['/path/file-with-a-*.html', '/path/file-with-a-x.html', true],
      // A $ that ends a rule ends the path; a $ anywhere else is a character, as in Google's parser.
      ['/foo$', '/foo', true],
      ['/foo$', '/foo$', false],
      ['/foo$$', '/foo$', true],
      ['/foo$$', '/foo', false],
      ['/a$b', '/a$b', true],
      ['/a$b', '/a%24b', true],
      ['/a$b', '/ab', false],
    ];
    assertRuleMatches(cases);
  });

  it('reports the encoded rule as written', () => {
    const robots = policy('User-agent: tabcrawl\nDisallow: /path/file-with-a-%2A.html\n');
    assert.deepEqual(robots.isAllowed('http://example.test/path/file-with-a-*.html'), {
      allowed: false,
      rule: 'Disallow: /path/file-with-a-%2A.html',
    });
  });

  it('lets an Allow that writes the * encoded beat a shorter Disallow for the literal URL', () => {
    assertPaths('User-agent: tabcrawl\nDisallow: /path/\nAllow: /path/file-with-a-%2A.html\n', [
      ['/path/file-with-a-*.html', true],
      ['/path/file-with-a-x.html', false],
    ]);
  });
});

describe('parseRobots: a line whose colon was forgotten (as Google reads it)', () => {
  it('reads `key value` as `key: value` for each record, in any case, with spaces or tabs', () => {
    // [body, path, allowed] for our product token.
    const cases: [body: string, path: string, isAllowed: boolean][] = [
      // Google's ID_LineSyntax_Line: "user-agent FooBot / disallow /" disallows everything for FooBot.
      ['user-agent tabcrawl\ndisallow /\n', '/x/y', false],
      ['user-agent tabcrawl\ndisallow /private\n', '/private/x', false],
      ['user-agent tabcrawl\ndisallow /private\n', '/open', true],
      ['User-Agent Tabcrawl\nDISALLOW /private\n', '/private/x', false],
      ['USER-AGENT TABCRAWL/2.0\nDisallow\t/private\n', '/private/x', false],
      ['useragent tabcrawl\ndisallow /private\n', '/private/x', false],
      ['User-agent: tabcrawl\ndissallow /private\n', '/private/x', false],
      ['   disallow /private\n', '/private/x', true],
      ['User-agent: tabcrawl\n   disallow   /private   \n', '/private/x', false],
      ['User-agent: tabcrawl\ndisallow /private # no colon\n', '/private/x', false],
      ['User-agent: tabcrawl\ndisallow /\nallow /open\n', '/open/page', true],
      ['User-agent: tabcrawl\ndisallow /\nallow /open\n', '/closed', false],
      // A colon-less User-agent line starts or joins a group like any other.
      ['User-agent: *\nDisallow: /\n\nuser-agent tabcrawl\ndisallow /private\n', '/other', true],
      ['user-agent otherbot\nuser-agent tabcrawl\ndisallow /private\n', '/private/x', false],
      // More or fewer than two words is not a record: Google's parser skips it too.
      ['User-agent: tabcrawl\ndisallow /private stuff\n', '/private/x', true],
      ['User-agent: tabcrawl\ndisallow\n', '/private/x', true],
      ['user agent tabcrawl\ndisallow: /private\n', '/private/x', true],
      ['User-agent: tabcrawl\nnoindex /private\n', '/private/x', true],
    ];
    for (const [body, path, isAllowed] of cases) {
      assert.equal(allows(body, path), isAllowed, `${path} under:\n${body}`);
    }
  });

  it('reads Crawl-delay and Sitemap without their colon too', () => {
    const robots = policy('user-agent tabcrawl\ncrawl-delay 2\nsitemap /s.xml\n');
    assert.equal(robots.crawlDelayMs, 2000);
    assert.deepEqual(robots.sitemaps, ['http://example.test/s.xml']);
  });

  it('reports a colon-less rule as written', () => {
    const robots = policy('user-agent tabcrawl\nDisallow\t /private # keep out\n');
    assert.deepEqual(robots.isAllowed('http://example.test/private/x'), { allowed: false, rule: 'Disallow /private' });
  });
});

describe('parseRobots: odd bodies', () => {
  it('reads a body with a BOM and any line ends', () => {
    const lines = ['User-agent: tabcrawl', 'Disallow: /private', 'Allow: /private/ok'];
    for (const body of [
      '\uFEFF' + lines.join('\n'),
      lines.join('\r\n') + '\r\n',
      lines.join('\r'),
      `${lines[0]}\r\n${lines[1]}\n${lines[2]}\r`,
    ]) {
      const robots = policy(body);
      assert.equal(robots.group, 'tabcrawl', JSON.stringify(body));
      assert.deepEqual(
        robots.isAllowed('http://example.test/private/x'),
        { allowed: false, rule: 'Disallow: /private' },
        JSON.stringify(body),
      );
      assert.equal(robots.isAllowed('http://example.test/private/ok').allowed, true, JSON.stringify(body));
    }
  });

  it('skips garbage, binary and colon-less lines of more than two words without throwing', () => {
    const body = [
      'User-agent: tabcrawl',
      'this line has no colon',
      '\u0000\u0001\u00ff\uFFFD\uD800 binary',
      ':::',
      'Disallow /no colon here',
      'Disallow: /p',
    ].join('\n');
    const robots = policy(body);
    assert.equal(robots.isAllowed('http://example.test/p').allowed, false);
    assert.equal(robots.isAllowed('http://example.test/no').allowed, true);
    assert.equal(robots.isAllowed('http://example.test/no%20colon%20here').allowed, true);
  });

  it('allows everything for an HTML page served as robots.txt', () => {
    const robots = policy(
      '<!DOCTYPE html>\n<html><head><title>Not found: go to http://example.test/</title></head>\n<body><p>Disallow</p></body></html>\n',
    );
    assert.equal(robots.group, null);
    assert.deepEqual(robots.isAllowed('http://example.test/x'), { allowed: true, rule: null });
    assert.deepEqual(robots.sitemaps, []);
  });

  it(`reads only the first ${ROBOTS_MAX_BYTES} bytes: a Disallow before the limit counts, one beyond it is ignored`, () => {
    const head = 'User-agent: tabcrawl\n';
    const tail = 'Disallow: /before\n';
    const filler = `#${'x'.repeat(ROBOTS_MAX_BYTES - head.length - tail.length - 2)}\n`;
    const body = `${head}${filler}${tail}Disallow: /after\n`;
    assert.equal(new TextEncoder().encode(`${head}${filler}${tail}`).length, ROBOTS_MAX_BYTES);
    assertPaths(body, [
      ['/before', false],
      ['/after', true],
    ]);
  });

  it('counts the limit in UTF-8 bytes, not in characters', () => {
    // 300 000 characters of 2 bytes each: fewer characters than the limit, more bytes.
    const body = `User-agent: tabcrawl\nDisallow: /before\n#${'é'.repeat(300_000)}\nDisallow: /after\n`;
    assert.ok(body.length < ROBOTS_MAX_BYTES);
    assertPaths(body, [
      ['/before', false],
      ['/after', true],
    ]);
  });

  it('drops a line cut by the limit', () => {
    const head = 'User-agent: tabcrawl\n';
    const filler = `#${'x'.repeat(ROBOTS_MAX_BYTES - head.length - 'Disallow: /'.length - 2)}\n`;
    // The limit falls right after "Disallow: /", which would block everything.
    assert.equal(allows(`${head}${filler}Disallow: /only-this\n`, '/x'), true);
  });
});

describe('decodeRobotsBody: a robots.txt as read', () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('decodes a whole body as it is', () => {
    assert.equal(decodeRobotsBody(encode('User-agent: *\nDisallow: /x'), false), 'User-agent: *\nDisallow: /x');
  });

  it('drops the last line of a body cut at the size limit, whatever the line end', () => {
    assert.equal(
      decodeRobotsBody(encode('User-agent: *\nDisallow: /\nAllow: /'), true),
      'User-agent: *\nDisallow: /\n',
    );
    assert.equal(decodeRobotsBody(encode('User-agent: *\r\nAllow: /pri'), true), 'User-agent: *\r\n');
    assert.equal(decodeRobotsBody(encode('User-agent: *\rAllow: /pri'), true), 'User-agent: *\r');
    assert.equal(decodeRobotsBody(encode('no line end at all'), true), '');
  });

  it('keeps a cut Allow from widening what the file allows', () => {
    // Cut at the limit, "Allow: /private/open" would read "Allow: /", which ties "Disallow: /" and wins.
    const text = decodeRobotsBody(encode('User-agent: *\nDisallow: /\nAllow: /'), true);
    assert.equal(policy(text).isAllowed('http://example.test/page').allowed, false);
  });

  it('turns a binary body into text that matches no record', () => {
    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    const text = decodeRobotsBody(binary, true);
    const robots = policy(text);
    assert.equal(robots.group, null);
    assert.equal(robots.isAllowed('http://example.test/anything').allowed, true);
  });

  it('parses a huge file of rules without throwing and applies the first rules', () => {
    let body = 'User-agent: *\nDisallow: /early/\n';
    for (let i = 0; body.length < ROBOTS_MAX_BYTES * 2; i += 1) body += `Disallow: /dir${i}/*.php$\n`;
    const robots = policy(body);
    assert.equal(robots.isAllowed('http://example.test/early/x').allowed, false);
    assert.equal(robots.isAllowed('http://example.test/dir3/a.php').allowed, false);
    assert.equal(robots.isAllowed('http://example.test/dir3/a.php?x').allowed, true);
    assert.equal(
      robots.isAllowed('http://example.test/dir999999/a.php').allowed,
      true,
      'rules beyond the limit are not read',
    );
  });
});

describe('classifyRobotsStatus', () => {
  it('maps each status class to what RFC 9309 makes of it', () => {
    const cases: [status: number, meaning: ReturnType<typeof classifyRobotsStatus>][] = [
      [200, 'parse'],
      [204, 'parse'],
      [299, 'parse'],
      [301, 'redirect'],
      [302, 'redirect'],
      [308, 'redirect'],
      [400, 'allow-all'],
      [401, 'allow-all'],
      [403, 'allow-all'],
      [404, 'allow-all'],
      [410, 'allow-all'],
      [429, 'unavailable'],
      [500, 'unavailable'],
      [503, 'unavailable'],
      [599, 'unavailable'],
      [0, 'unavailable'],
      [100, 'unavailable'],
      [999, 'unavailable'],
      [-1, 'unavailable'],
      [200.5, 'unavailable'],
      [Number.NaN, 'unavailable'],
    ];
    for (const [status, meaning] of cases) {
      assert.equal(classifyRobotsStatus(status), meaning, String(status));
    }
  });
});

describe('allowAllPolicy and disallowAllPolicy', () => {
  it('allowAllPolicy allows every URL with no rule, delay, sitemap or group', () => {
    const robots = allowAllPolicy();
    assert.deepEqual(robots.isAllowed('http://example.test/private'), { allowed: true, rule: null });
    assert.equal(robots.crawlDelayMs, null);
    assert.deepEqual(robots.sitemaps, []);
    assert.equal(robots.group, null);
  });

  it('disallowAllPolicy blocks every URL but /robots.txt and reports the reason as the rule', () => {
    const robots = disallowAllPolicy('robots.txt unavailable (503)');
    assert.deepEqual(robots.isAllowed('http://example.test/'), {
      allowed: false,
      rule: 'robots.txt unavailable (503)',
    });
    assert.deepEqual(robots.isAllowed('http://example.test/robots.txt'), { allowed: true, rule: null });
    assert.equal(robots.crawlDelayMs, null);
    assert.equal(robots.group, null);
  });

  it('both throw a RangeError for a URL that is not absolute', () => {
    assert.throws(() => allowAllPolicy().isAllowed('/x'), RangeError);
    assert.throws(() => disallowAllPolicy('down').isAllowed('/x'), RangeError);
  });
});

describe('robotsUrlFor and limits', () => {
  it('puts /robots.txt at the root of an origin', () => {
    const cases: [origin: string, robotsUrl: string][] = [
      ['http://h:8080', 'http://h:8080/robots.txt'],
      ['https://example.test', 'https://example.test/robots.txt'],
      ['https://example.test:443', 'https://example.test/robots.txt'],
      ['http://example.test/some/page?q=1', 'http://example.test/robots.txt'],
    ];
    for (const [origin, robotsUrl] of cases) {
      assert.equal(robotsUrlFor(origin), robotsUrl, origin);
    }
  });

  it('parses at least the 500 KiB RFC 9309 asks for and follows at least 5 redirects', () => {
    assert.ok(ROBOTS_MAX_BYTES >= 500 * 1024);
    assert.ok(ROBOTS_MAX_REDIRECTS >= 5);
  });
});
