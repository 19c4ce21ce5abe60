/**
 * The built extension against hostile and broken sites (issue 5): the cases
 * that depend on Chromium's fetch (streamed bodies cut at a cap, timeouts,
 * gzip, redirects as webRequest reports them, bodies without a type), each
 * checked in the server's log (robots.txt first, no disallowed request, what
 * the server had to send) and in the stored rows. The pure rules behind them
 * have exhaustive unit tests (test/unit/crawl-runner-hostile.test.ts and the
 * module tests).
 *
 * Timing: the crawls use the shortest timeout settings allow (1 s) and a
 * 20 ms delay; the only long waits are the ones under test (the 5 s robots.txt
 * retry, Retry-After of 1 to 2 s). The robots.txt sites are crawled at once.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { robotsRetryDelayMs } from '../../src/core/crawl/robots-step.ts';
import { MAX_REDIRECT_HOPS, queryVariantsCap } from '../../src/core/url/traps.ts';
import {
  type HostileSite,
  hugeBodyPrefix,
  LONG_PATH,
  LONGISH_PATH,
  ONE_GIB,
  type RobotsCase,
  SHIFT_JIS_PAGE,
  startHostilePagesSite,
  startManyLinksSite,
  STAR_PAGE,
  startRobotsSite,
  startTrapSite,
} from '../support/hostile-site.ts';
import { crawlToEnd, exportRows, launch } from './helpers.ts';

const DELAY_MS = 20;
const TIMEOUT_MS = 1000;
/** A streamed body the crawl stops reading must not have cost the server more than this (the socket buffers included). */
const STREAM_SENT_BOUND = 64 * 1024 * 1024;

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** Path and query of a URL, as the server's log has them. */
const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

interface Crawled {
  crawl: CrawlSummary;
  rows: JsonlRow[];
  /** Rows by path and query. */
  byPath: Map<string, JsonlRow>;
}

let session: ExtensionSession;
const sites: HostileSite[] = [];

before(async () => {
  session = await launch();
});

after(async () => {
  await session?.close();
  await Promise.all(sites.map((site) => site.close()));
});

async function crawlSite(site: HostileSite, settings: Record<string, unknown> = {}): Promise<Crawled> {
  // The hostile pages' links to other sites (an IDN host) are not checked: here they would only ask the machine's
  // DNS, and the checks have their own test (outbound-links.test.ts).
  const crawl = await crawlToEnd(
    session,
    { startUrl: `${site.origin}/`, delayMs: DELAY_MS, timeoutMs: TIMEOUT_MS, checkExternal: false, ...settings },
    undefined,
    90_000,
  );
  const rows = await exportRows(session, crawl.id);
  return { crawl, rows, byPath: new Map(rows.map((r) => [pathOf(r.url), r])) };
}

function row(crawled: Crawled, path: string): JsonlRow {
  const found = crawled.byPath.get(path);
  assert.ok(found, `no row for ${path}; rows: ${[...crawled.byPath.keys()].map((p) => p.slice(0, 60)).join(', ')}`);
  return found;
}

/**
 * The server's log shows robots.txt answered before any other request of
 * the crawl, and no request under /private/.
 * @param from index in the log where this crawl's requests start.
 */
function assertPolite(site: HostileSite, from = 0): void {
  const log = site.requests.slice(from);
  assert.equal(log[0]?.url, '/robots.txt', 'robots.txt is the first request');
  const firstPage = log.findIndex((r) => r.url !== '/robots.txt' && !r.url.startsWith('/r/'));
  const robots = log.slice(0, firstPage === -1 ? log.length : firstPage);
  const lastRobotsEnd = Math.max(...robots.map((r) => r.endedAt ?? Number.POSITIVE_INFINITY));
  const pageStart = log[firstPage]?.startedAt ?? Number.POSITIVE_INFINITY;
  assert.ok(pageStart >= lastRobotsEnd, 'no page requested before robots.txt was answered');
  assert.deepEqual(site.requestsTo(/^\/private\//u).length, 0, 'no request under the disallowed /private/');
}

describe('robots.txt that is huge, binary, HTML, redirected, unavailable, slow, gzip-encoded or loosely written', () => {
  const CASES: RobotsCase[] = [
    'huge',
    'binary',
    'html',
    'redirected-5',
    'redirected-6',
    'unavailable-then-ok',
    'slow',
    'gzip',
    'crawl-delay-in-run',
    'colon-less',
  ];
  const results = new Map<RobotsCase, { site: HostileSite; crawled: Crawled }>();

  before(async () => {
    await Promise.all(
      CASES.map(async (kind) => {
        const site = await startRobotsSite(kind);
        sites.push(site);
        results.set(kind, { site, crawled: await crawlSite(site) });
      }),
    );
  });

  function result(kind: RobotsCase): { site: HostileSite; crawled: Crawled } {
    const found = results.get(kind);
    assert.ok(found, kind);
    assert.equal(found.crawled.crawl.state, 'finished', `${kind}: ${found.crawled.crawl.message ?? ''}`);
    return found;
  }

  it('reads the first 512 KiB of a robots.txt without end, obeys it, and hangs up', (t) => {
    const { site, crawled } = result('huge');
    assertPolite(site);
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
    assert.equal(row(crawled, '/a').status, 200);
    const [stream] = site.streams;
    assert.ok(stream?.closedByClient, 'the crawler hung up');
    assert.ok(stream.bytesSent < STREAM_SENT_BOUND, `the server sent ${stream.bytesSent} bytes`);
    t.diagnostic(`robots.txt: the server sent ${stream.bytesSent} bytes`);
  });

  for (const kind of ['binary', 'html'] as const) {
    it(`reads a ${kind} robots.txt as no rules and crawls the site`, () => {
      const { site, crawled } = result(kind);
      assert.equal(site.requests[0]?.url, '/robots.txt');
      assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
      assert.deepEqual([...crawled.byPath.keys()].sort(), ['/', '/a', '/private/x']);
      assert.ok(crawled.rows.every((r) => r.status === 200 && r.blockedBy === null));
    });
  }

  it('obeys a robots.txt reached in five redirects', () => {
    const { site, crawled } = result('redirected-5');
    assert.deepEqual(
      site.requests.slice(0, 6).map((r) => r.url),
      ['/robots.txt', '/r/1', '/r/2', '/r/3', '/r/4', '/r/5'],
    );
    assertPolite(site);
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
  });

  it('follows five redirects of robots.txt and no sixth, then crawls as with no robots.txt (RFC 9309 §2.3.1.2)', () => {
    const { site, crawled } = result('redirected-6');
    assert.deepEqual(
      site.requests.slice(0, 6).map((r) => r.url),
      ['/robots.txt', '/r/1', '/r/2', '/r/3', '/r/4', '/r/5'],
    );
    assert.equal(site.requestsTo(/^\/r\/6/u).length, 0, 'the sixth redirect is not followed');
    assert.equal(row(crawled, '/a').status, 200);
    assert.equal(row(crawled, '/private/x').status, 200, 'unavailable robots.txt: allowed');
  });

  it('obeys a group whose User-agent lines a Crawl-delay line sits between: its rules and its Crawl-delay (RFC 9309 §2.2.4)', (t) => {
    const { site, crawled } = result('crawl-delay-in-run');
    assertPolite(site);
    assert.deepEqual(site.requestsTo(/^\/file-with-a-/u), [], 'no request for the page whose * the rule writes %2A');
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
    assert.equal(row(crawled, STAR_PAGE).blockedBy, 'robots');
    assert.equal(row(crawled, STAR_PAGE).blockedRule, 'Disallow: /file-with-a-%2A.html');
    assert.equal(row(crawled, '/a').status, 200);
    // Crawl-delay 0.1 s applies to us: each request starts at least 100 ms after the previous one ended.
    const gaps = site.requests
      .slice(1)
      .map((r, i) => r.startedAt - (site.requests[i]?.endedAt ?? Number.POSITIVE_INFINITY));
    t.diagnostic(`server gaps: ${gaps.map((gap) => gap.toFixed(1)).join(', ')} ms`);
    assert.ok(gaps.length >= 2, 'robots.txt, / and /a were requested');
    for (const gap of gaps)
      assert.ok(gap >= 100, `a gap of ${gap.toFixed(1)} ms is shorter than the 0.1 s Crawl-delay`);
  });

  it('obeys a robots.txt written without colons, as Google reads it', () => {
    const { site, crawled } = result('colon-less');
    assertPolite(site);
    assert.deepEqual(site.requestsTo(/^\/file-with-a-/u), []);
    assert.equal(row(crawled, '/private/x').blockedRule, 'disallow /private/');
    assert.equal(row(crawled, STAR_PAGE).blockedBy, 'robots');
    assert.equal(row(crawled, '/a').status, 200);
  });

  it('requests nothing while robots.txt answers 503, and retries it later', () => {
    const { site, crawled } = result('unavailable-then-ok');
    const robots = site.requests.filter((r) => r.url === '/robots.txt');
    assert.equal(robots.length, 2);
    const [first, second] = robots;
    assert.ok(first && second);
    assert.ok(
      second.startedAt - (first.endedAt ?? 0) >= robotsRetryDelayMs(1) - 5,
      'retried after the robots retry delay',
    );
    assertPolite(site);
    assert.deepEqual(
      site.requests.slice(0, 2).map((r) => r.url),
      ['/robots.txt', '/robots.txt'],
    );
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
  });

  it('times out a robots.txt that never answers, retries it, and crawls once it answers', (t) => {
    const { site, crawled } = result('slow');
    const [first, second] = site.requests;
    assert.equal(first?.url, '/robots.txt');
    assert.equal(second?.url, '/robots.txt');
    // Cut by the crawler's timeout, which runs from its fetch() call: the server saw the request later, by
    // the browser's dispatch time (over 100 ms when eight browsers start at once on two cores), so only
    // bound it from both sides loosely; an error instead of a timeout would end it at once.
    assert.ok(first && first.endedAt !== null, 'the first request was ended by the client');
    const lasted = first.endedAt - first.startedAt;
    t.diagnostic(`the first robots.txt request lasted ${lasted.toFixed(1)} ms at the server`);
    assert.ok(
      lasted >= TIMEOUT_MS / 2 && lasted <= TIMEOUT_MS * 3,
      `the first request lasted ${lasted.toFixed(0)} ms, not about the ${TIMEOUT_MS} ms timeout`,
    );
    assertPolite(site);
    assert.equal(row(crawled, '/').status, 200);
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
  });

  it('reads a gzip-encoded robots.txt and obeys it', () => {
    const { site, crawled } = result('gzip');
    assertPolite(site);
    assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
    assert.equal(row(crawled, '/private/x').blockedBy, 'robots');
    assert.equal(row(crawled, '/a').status, 200);
  });
});

describe('pages that are huge, endless, broken, legacy-encoded, untyped, looping or odd', () => {
  const MAX_BODY = 1024 * 1024;
  const MAX_FILE = 2 * 1024 * 1024;
  let site: Awaited<ReturnType<typeof startHostilePagesSite>>;
  let crawled: Crawled;

  before(async () => {
    site = await startHostilePagesSite();
    sites.push(site);
    crawled = await crawlSite(site, { maxBodyBytes: MAX_BODY, maxFileBytes: MAX_FILE });
  });

  it('finishes, asks robots.txt first and never requests a disallowed URL', () => {
    assert.equal(crawled.crawl.state, 'finished', crawled.crawl.message ?? '');
    assertPolite(site);
    for (const path of ['/private/secret', '/private/%zz', '/private/in-broken'])
      assert.equal(row(crawled, path).blockedBy, 'robots', path);
    assert.equal(crawled.rows.length, crawled.byPath.size, 'no URL recorded twice');
  });

  it('stops reading a 1 GB page at the body cap, records it truncated and follows its links', (t) => {
    const huge = row(crawled, '/huge-body');
    assert.equal(huge.status, 200);
    assert.equal(huge.truncated, true);
    assert.equal(huge.contentLength, ONE_GIB);
    assert.equal(huge.sha256, sha256(hugeBodyPrefix(MAX_BODY)), 'the first maxBodyBytes bytes are stored');
    assert.equal(row(crawled, '/from-huge').status, 200);
    const stream = site.streams.find((s) => s.path === '/huge-body');
    assert.ok(stream?.closedByClient, 'the crawler hung up');
    assert.ok(stream.bytesSent < STREAM_SENT_BOUND, `the server sent ${stream.bytesSent} bytes`);
    t.diagnostic(`/huge-body: the server sent ${stream.bytesSent} bytes`);
  });

  it('cuts a 1 GB linked file at the largest file size, stores that much and hangs up', (t) => {
    const file = row(crawled, '/huge-file.bin');
    assert.equal(file.status, 200);
    assert.equal(file.contentLength, ONE_GIB);
    assert.equal(file.truncated, true);
    assert.equal(file.sha256, sha256(new Uint8Array(MAX_FILE)), 'the first maxFileBytes bytes are stored');
    const stream = site.streams.find((s) => s.path === '/huge-file.bin');
    assert.ok(stream?.closedByClient);
    assert.ok(stream.bytesSent < STREAM_SENT_BOUND, `the server sent ${stream.bytesSent} bytes`);
    t.diagnostic(`/huge-file.bin: the server sent ${stream.bytesSent} bytes`);
  });

  it('records a response that never ends as a timeout and hangs up', () => {
    const endless = row(crawled, '/never-ends');
    assert.equal(endless.status, null);
    assert.equal(endless.errorCode, 'timeout');
    assert.ok((endless.responseTimeMs ?? 0) >= TIMEOUT_MS);
    assert.ok(site.streams.find((s) => s.path === '/never-ends')?.closedByClient);
    const request = site.requests.find((r) => r.url === '/never-ends');
    assert.ok(
      request?.endedAt !== null &&
        request !== undefined &&
        (request.endedAt ?? 0) - request.startedAt < TIMEOUT_MS + 2000,
      'the connection closed soon after the timeout',
    );
  });

  it('reads links from broken markup', () => {
    const broken = row(crawled, '/unterminated');
    assert.equal(broken.title, 'Broken');
    assert.ok(broken.links.some((l) => pathOf(l) === '/after-broken'));
    assert.equal(row(crawled, '/after-broken').status, 200);
    assert.equal(site.requestsTo(/in-comment/u).length, 0);
  });

  it('decodes legacy encodings named only in the header or only in a meta', () => {
    const sjis = row(crawled, '/legacy-sjis');
    assert.equal(sjis.title, '日本');
    assert.equal(sjis.sha256, sha256(SHIFT_JIS_PAGE), 'stored as served');
    assert.deepEqual(row(crawled, '/from-sjis').anchors, ['日本']);
    assert.equal(row(crawled, '/legacy-meta').title, 'café');
    // A path is always UTF-8 percent-encoded, whatever the page's encoding.
    assert.deepEqual(row(crawled, '/caf%C3%A9').anchors, ['café']);
    assert.equal(site.requestsTo(/^\/caf%C3%A9$/u).length, 1);
  });

  it('reads a page served without a Content-Type as HTML, unless it is binary', () => {
    const untyped = row(crawled, '/no-type');
    assert.equal(untyped.contentType, null);
    assert.equal(untyped.title, 'untyped');
    assert.equal(row(crawled, '/from-no-type').status, 200);
    assert.deepEqual(row(crawled, '/no-type-binary').links, []);
    assert.equal(site.requestsTo(/from-binary/u).length, 0);
  });

  it('records a redirect loop once per URL', () => {
    assert.equal(row(crawled, '/loop/a').location, `${site.origin}/loop/b`);
    assert.equal(row(crawled, '/loop/b').location, `${site.origin}/loop/a`);
    assert.equal(site.requestsTo(/^\/loop\//u).length, 2);
  });

  it(`follows a redirect chain for ${MAX_REDIRECT_HOPS} hops and no further`, () => {
    const chain = site.requestsTo(/^\/chain\//u);
    assert.deepEqual(
      chain,
      Array.from({ length: MAX_REDIRECT_HOPS + 1 }, (_, i) => `/chain/${i}`),
    );
    assert.equal(row(crawled, `/chain/${MAX_REDIRECT_HOPS}`).location, `${site.origin}/chain/${MAX_REDIRECT_HOPS + 1}`);
    assert.equal(crawled.byPath.has(`/chain/${MAX_REDIRECT_HOPS + 1}`), false);
  });

  it('waits a Retry-After in seconds before retrying', () => {
    const [first, second] = site.requests.filter((r) => r.url === '/busy-seconds');
    assert.ok(first && second, 'retried once');
    assert.ok(
      second.startedAt - (first.endedAt ?? 0) >= 1000 - 5,
      `retried after ${second.startedAt - (first.endedAt ?? 0)} ms`,
    );
    assert.equal(row(crawled, '/busy-seconds').status, 200);
  });

  it('waits a Retry-After given as an HTTP-date before retrying', () => {
    const [first, second] = site.requests.filter((r) => r.url === '/busy-date');
    const retryAt = site.retryDateMs();
    assert.ok(first && second && retryAt !== null, 'retried once');
    assert.ok(second.startedAt >= retryAt - 50, `retried ${retryAt - second.startedAt} ms before the date`);
    assert.equal(row(crawled, '/busy-date').status, 200);
  });

  it('records a redirect to an invalid or non-http Location with its status, and follows nothing', () => {
    const invalid = row(crawled, '/bad-location');
    assert.equal(invalid.status, 302);
    assert.equal(invalid.location, null, 'not a URL');
    const script = row(crawled, '/to-javascript');
    assert.equal(script.status, 302);
    assert.equal(script.location, 'javascript:alert(1)');
    assert.equal(site.requestsTo(/alert|::1|%5B/iu).length, 0);
  });

  it('does not follow a URL of 8,000 characters, and fetches one of 4,000', () => {
    assert.equal(site.requestsTo(/^\/long\//u).length, 0);
    assert.equal(row(crawled, LONGISH_PATH).status, 200);
    assert.equal(site.requestsTo(/^\/longish\//u).length, 1);
    assert.ok(!row(crawled, '/').links.some((l) => l.includes('/long/')));
    assert.equal(LONG_PATH.length, 8000);
  });

  it('requests a URL with invalid percent-encoding as written', () => {
    assert.equal(row(crawled, '/bad%zz%').status, 200);
    assert.deepEqual(site.requestsTo(/^\/bad%/u), ['/bad%zz%']);
  });

  it('keeps IDN hosts as punycode and drops javascript: and data: links', () => {
    const home = row(crawled, '/');
    assert.ok(home.links.includes('http://xn--bcher-kva.example/'));
    assert.ok(!home.links.some((l) => /^(javascript|data):/iu.test(l)));
    assert.equal(site.requestsTo(/from-js|from-data/u).length, 0);
  });

  it('strips session ids from URLs before requesting them', () => {
    assert.equal(row(crawled, '/session?keep=1').status, 200);
    assert.equal(site.requestsTo(/jsessionid|phpsessid/iu).length, 0);
  });
});

describe('crawler traps', () => {
  let site: HostileSite;
  let wide: Crawled;
  let narrow: Crawled;
  let narrowFrom = 0;
  const MAX_PAGES = 300;
  const MAX_DEPTH = 12;

  before(async () => {
    site = await startTrapSite();
    sites.push(site);
    wide = await crawlSite(site, { maxPages: MAX_PAGES, maxDepth: MAX_DEPTH });
    narrowFrom = site.requests.length;
    narrow = await crawlSite(site, { maxPages: 40, maxDepth: 1000 });
  });

  it('gives an endless calendar its share of the page limit and crawls the real pages behind it', () => {
    assert.equal(wide.crawl.state, 'finished', wide.crawl.message ?? '');
    assertPolite(site);
    assert.equal(wide.rows.filter((r) => new URL(r.url).pathname === '/cal').length, queryVariantsCap(MAX_PAGES));
    assert.equal(row(wide, '/real/10').status, 200);
    assert.ok(wide.rows.length < MAX_PAGES, `${wide.rows.length} rows: the traps did not spend the page limit`);
  });

  it('ends a calendar laid out in paths at the depth limit', () => {
    const months = wide.rows.filter((r) => r.url.includes('/pcal/'));
    assert.ok(months.length > 0 && months.every((r) => r.depth <= MAX_DEPTH));
    assert.equal(months.length, MAX_DEPTH, 'depths 1 to 12');
  });

  it('never requests a session id, so each page has one URL', () => {
    assert.equal(site.requestsTo(/jsessionid|phpsessid/iu).length, 0);
    assert.equal(row(wide, '/s/a').status, 200);
    assert.equal(row(wide, '/s/b?tab=1').status, 200);
    assert.equal(wide.rows.filter((r) => r.url.includes('/s/')).length, 2);
  });

  it('stops a path that repeats a segment three times in a row', () => {
    assert.equal(row(wide, '/loop/again/again/').status, 200);
    assert.equal(site.requestsTo(/again\/again\/again/u).length, 0);
  });

  it('ends an endless site at the page limit', () => {
    assert.equal(narrow.crawl.state, 'finished', narrow.crawl.message ?? '');
    assert.equal(narrow.rows.length, 40);
    assertPolite(site, narrowFrom);
  });
});

describe('a page with 100,000 links', () => {
  let site: HostileSite;
  let crawled: Crawled;

  before(async () => {
    site = await startManyLinksSite();
    sites.push(site);
    crawled = await crawlSite(site, { maxPages: 60, maxBodyBytes: 4 * 1024 * 1024 });
  });

  it('keeps its first 10,000 links, stays within the page limit and never requests a disallowed one', () => {
    assert.equal(crawled.crawl.state, 'finished', crawled.crawl.message ?? '');
    assertPolite(site);
    const page = row(crawled, '/huge-links');
    assert.equal(page.truncated, false);
    assert.equal(page.links.length, 10_000);
    assert.equal(crawled.rows.length, 60);
    assert.equal(row(crawled, '/private/0').blockedBy, 'robots');
    assert.equal(crawled.rows.filter((r) => r.url.includes('/late/')).length, 0);
  });
});
