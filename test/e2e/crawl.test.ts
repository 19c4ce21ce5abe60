import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import type { JsonlRow } from '../../src/export/jsonl.ts';
import { EXACT_BODIES, startTestSite, type TestSite } from '../support/test-site.ts';
import { crawlToEnd, exportRows, launch, sleep } from './helpers.ts';
import { serverGaps } from '../support/server-log.ts';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('the built extension crawls a local site', () => {
  let session: ExtensionSession;
  let site: TestSite;
  let rows: JsonlRow[];
  const byPath = new Map<string, JsonlRow>();
  const DELAY_MS = 150;

  before(async () => {
    session = await launch();
    site = await startTestSite();
    const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: DELAY_MS, timeoutMs: 1000 });
    assert.equal(crawl.state, 'finished', crawl.message ?? '');
    rows = await exportRows(session, crawl.id);
    for (const row of rows) byPath.set(new URL(row.url).pathname, row);
  });

  after(async () => {
    await session?.close();
    await site?.close();
  });

  it('requests robots.txt first, and once', () => {
    assert.equal(site.requests[0]?.url, '/robots.txt');
    assert.equal(site.requests.filter((r) => r.url === '/robots.txt').length, 1);
  });

  it('never requests a URL that robots.txt disallows, and records it as blocked', () => {
    assert.equal(
      site.requests.some((r) => r.url.startsWith('/private/secret')),
      false,
    );
    assert.equal(byPath.get('/private/secret')?.blockedBy, 'robots');
    assert.equal(byPath.get('/private/open')?.status, 200, 'the longer Allow wins');
  });

  it('leaves at least the delay between the end of one response and the next request', () => {
    const gaps = serverGaps(site.requests);
    assert.ok(gaps.length > 10);
    for (const gap of gaps) assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms is shorter than ${DELAY_MS} ms`);
  });

  it('sends the Tabcrawl User-Agent', () => {
    for (const request of site.requests)
      assert.match(
        request.userAgent ?? '',
        /^Mozilla\/5\.0 \(compatible; tabcrawl\/\d+\.\d+\.\d+; \+https?:\/\/\S+\)$/,
      );
  });

  it('records every URL once, redirects with their absolute location, and errors', () => {
    assert.deepEqual([...byPath.keys()].sort(), [...site.expectedPaths].sort());
    assert.equal(rows.length, byPath.size, 'no URL recorded twice');
    assert.equal(byPath.get('/old')?.status, 301);
    assert.equal(byPath.get('/old')?.location, `${site.origin}/new`);
    assert.equal(byPath.get('/new')?.status, 302);
    assert.equal(byPath.get('/new')?.location, `${site.origin}/`);
    assert.equal(byPath.get('/missing')?.status, 404);
    assert.equal(byPath.get('/broken')?.status, 500);
    assert.equal(
      site.requests.filter((r) => r.url === '/').length,
      1,
      'the redirect back to the start is not fetched again',
    );
  });

  it('stores HTML bodies byte for byte, legacy encodings and gzip-encoded responses included', () => {
    for (const [path, bytes] of Object.entries(EXACT_BODIES)) {
      assert.equal(byPath.get(path)?.sha256, sha256(bytes), `${path} stored as served`);
    }
    assert.equal(byPath.get('/latin1')?.title, 'Café');
    assert.ok(byPath.get('/about')?.anchors.includes('à propos'), 'anchor text decoded from windows-1252');
  });

  it('records a timeout on the row and carries on', () => {
    const slow = byPath.get('/slow');
    assert.equal(slow?.status, null);
    assert.equal(slow?.errorCode, 'timeout');
    assert.ok((slow?.responseTimeMs ?? 0) >= 1000 && (slow?.responseTimeMs ?? 0) < 2500);
  });

  it('downloads a linked file that is not HTML: a file row with its body stored byte for byte', () => {
    const file = byPath.get('/file.bin');
    assert.equal(file?.kind, 'file');
    assert.equal(file?.contentType, 'application/octet-stream');
    assert.equal(file?.contentLength, 4096);
    assert.equal(file?.sha256, sha256(new Uint8Array(4096)));
  });

  it('records depth, referrer, fetch time and response time', () => {
    const page = byPath.get('/p/0');
    assert.equal(page?.depth, 1);
    assert.equal(page?.referrer, `${site.origin}/`);
    assert.ok(page?.fetchedAt !== null && !Number.isNaN(Date.parse(page?.fetchedAt ?? '')));
    assert.equal(typeof page?.responseTimeMs, 'number');
  });
});

describe('a crawl survives its service worker being stopped', () => {
  it('finishes with every URL once and keeps the spacing across restarts', async () => {
    const session = await launch();
    const site = await startTestSite({ pages: 20 });
    const DELAY_MS = 250;
    try {
      let stops = 0;
      let lastStop = Date.now();
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: DELAY_MS }, async () => {
        if (stops < 4 && Date.now() - lastStop > 1200) {
          await session.stopServiceWorker();
          stops += 1;
          lastStop = Date.now();
          await sleep(300);
        }
      });
      assert.equal(stops, 4, 'the worker was stopped four times mid-crawl');
      assert.equal(crawl.state, 'finished', crawl.message ?? '');
      const rows = await exportRows(session, crawl.id);
      const paths = rows.map((r) => new URL(r.url).pathname);
      assert.deepEqual([...paths].sort(), [...site.expectedPaths].sort(), 'no URL lost, none recorded twice');
      const counts = new Map<string, number>();
      for (const r of site.requests) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
      const repeats = [...counts.values()].reduce((sum, n) => sum + (n - 1), 0);
      assert.ok(repeats <= stops, `${repeats} repeated requests for ${stops} stops`);
      assert.equal(counts.get('/robots.txt'), 1);
      for (const gap of serverGaps(site.requests))
        assert.ok(gap >= DELAY_MS, `a gap of ${gap.toFixed(1)} ms across a restart`);
    } finally {
      await session.close();
      await site.close();
    }
  });
});
