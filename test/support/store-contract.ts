/**
 * The behaviour every {@link CrawlStore} must have, as one test suite that any
 * test framework can run: the caller passes its own `describe`, `it` and deep
 * equality. The in-memory store runs it under node:test
 * (`test/unit/memory-store.test.ts`), the Dexie store in Chromium under
 * @web/test-runner (`test/browser/storage-dexie.test.ts`).
 *
 * Portable on purpose: no Node and no DOM APIs, only the language and the store.
 */
import type { CrawlStore, LinkTally, StoredBody, StoreTx } from '../../src/core/crawl/ports.ts';
import {
  emptyCounts,
  type CrawlRecord,
  type FrontierEntry,
  type HostState,
  type NotCrawledUrl,
  type RenderEntry,
  type PageRecord,
} from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

/** What the suite needs from a test framework. */
export interface ContractHarness {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
  /**
   * Throws unless `actual` and `expected` are deeply and strictly equal: same
   * keys (an extra key, even one holding `undefined`, is a difference), same
   * prototypes, typed arrays compared byte by byte.
   */
  assertEqual(actual: unknown, expected: unknown): void;
}

const START = 1_767_225_600_000; // 2026-01-01T00:00:00Z

export function crawlFixture(id: string, createdAt = START): CrawlRecord {
  return {
    id,
    settings: { ...DEFAULT_SETTINGS, excludePatterns: ['*/private/*'], startUrl: `https://${id}.example/` },
    state: 'running',
    createdAt,
    endedAt: null,
    counts: emptyCounts(),
    message: null,
    nextSeq: 1,
  };
}

export function hostFixture(crawlId: string, origin: string): HostState {
  return {
    crawlId,
    origin,
    robots: {
      phase: 'ready',
      nextUrl: `${origin}/robots.txt`,
      redirects: 0,
      failures: 0,
      retryAt: 0,
      status: 200,
      body: 'User-agent: *\nDisallow: /private',
      fetchedAt: START + 5,
    },
    nextAllowedAt: START + 1000,
    lastResponseMs: 12,
    backoffUntil: 0,
    inFlight: { url: `${origin}/a`, startedAt: START + 10, runId: 'run-1' },
    pending: 3,
  };
}

export function entryFixture(
  crawlId: string,
  origin: string,
  path: string,
  seq: number,
  leaseRunId: string | null = null,
): FrontierEntry {
  return {
    crawlId,
    url: `${origin}${path}`,
    origin,
    kind: 'page',
    depth: 1,
    referrer: `${origin}/`,
    seq,
    anchors: ['Next page'],
    inlinks: 1,
    attempts: 0,
    leaseRunId,
  };
}

export function pageFixture(crawlId: string, url: string, seq: number): PageRecord {
  return {
    crawlId,
    url,
    origin: 'https://a.example',
    kind: 'page',
    depth: 2,
    referrer: 'https://a.example/',
    seq,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    contentLength: 5120,
    location: null,
    methods: ['HEAD', 'GET'],
    fetchedAt: START + seq * 1000,
    responseTimeMs: 37,
    headers: [
      ['content-type', 'text/html; charset=utf-8'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ],
    statusLine: 'HTTP/1.1 200 OK',
    requestHeaders: [['user-agent', 'Mozilla/5.0 (compatible; tabcrawl/0.1.0)']],
    ipAddress: '127.0.0.1',
    sha256: 'ab'.repeat(32),
    duplicateOf: null,
    truncated: false,
    title: 'Ünïcödé title ✓',
    anchors: ['Home', 'Docs'],
    inlinks: 2,
    links: ['https://a.example/x', 'https://a.example/y'],
    linkTexts: ['X marks', ''],
    resources: [],
    blockedBy: null,
    blockedRule: null,
    error: null,
  };
}

/** Every byte value twice, in an order that catches a reversed or offset copy. */
function everyByte(): Uint8Array {
  const bytes = new Uint8Array(512);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7 + 3) % 256;
  return bytes;
}

const byUrl = <T extends { url: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
const byOrigin = (rows: HostState[]): HostState[] =>
  [...rows].sort((a, b) => (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0));
const seqs = (rows: { seq: number }[]): number[] => rows.map((row) => row.seq);

/** Thrown by works that must fail; recognised by its class. */
class WorkFailed extends Error {
  override readonly name = 'WorkFailed';
}

/** The error `promise` rejects with; throws if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error: unknown) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** Reads the crawl inside `tx`, failing the test when it is missing. */
async function crawlIn(tx: StoreTx, crawlId: string): Promise<CrawlRecord> {
  const crawl = await tx.getCrawl(crawlId);
  if (crawl === undefined) throw new Error(`crawl ${crawlId} is missing`);
  return crawl;
}

const A = 'https://a.example';
const B = 'https://b.example';

function tallyFixture(crawlId: string, batch: number): LinkTally {
  return { crawlId, batch, urls: [`${A}/x`, `${A}/ü`], inlinks: [2, 1], anchors: [['Home', 'Start'], []] };
}

export function storeContract(name: string, makeStore: () => Promise<CrawlStore>, t: ContractHarness): void {
  const { describe, it, assertEqual } = t;

  describe(`${name} (crawl store contract)`, () => {
    describe('crawls', () => {
      it('reads a crawl back exactly as written, inside and outside a transaction', async () => {
        const store = await makeStore();
        const crawl = crawlFixture('c1');
        await store.transaction((tx) => tx.putCrawl(crawl));

        assertEqual(await store.getCrawl('c1'), crawl);
        assertEqual(await store.transaction((tx) => tx.getCrawl('c1')), crawl);
      });

      it('returns undefined for a crawl never written', async () => {
        const store = await makeStore();
        assertEqual(await store.getCrawl('nope'), undefined);
        assertEqual(await store.transaction((tx) => tx.getCrawl('nope')), undefined);
      });

      it('replaces a crawl written again under the same id', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));
        const finished: CrawlRecord = {
          ...crawlFixture('c1'),
          state: 'finished',
          endedAt: START + 9000,
          message: 'done',
        };
        await store.transaction((tx) => tx.putCrawl(finished));

        assertEqual(await store.getCrawl('c1'), finished);
        assertEqual(await store.listCrawls(), [finished]);
      });

      it('lists crawls newest first', async () => {
        const store = await makeStore();
        await store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('old', START));
          await tx.putCrawl(crawlFixture('newest', START + 2000));
          await tx.putCrawl(crawlFixture('middle', START + 1000));
        });

        assertEqual(
          (await store.listCrawls()).map((crawl) => crawl.id),
          ['newest', 'middle', 'old'],
        );
      });

      it('lists no crawls when none were written', async () => {
        const store = await makeStore();
        assertEqual(await store.listCrawls(), []);
      });

      it('hands out copies: changing a record read back leaves the store unchanged', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));
        const read = await store.getCrawl('c1');
        if (read === undefined) throw new Error('crawl c1 is missing');
        read.counts.done = 99;
        read.settings.excludePatterns.push('*');

        assertEqual(await store.getCrawl('c1'), crawlFixture('c1'));
      });
    });

    describe('hosts', () => {
      it('reads a host back exactly as written', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putHosts([hostFixture('c1', A)]));

        assertEqual(await store.transaction((tx) => tx.getHost('c1', A)), hostFixture('c1', A));
        assertEqual(await store.transaction((tx) => tx.getHost('c1', B)), undefined);
        assertEqual(await store.transaction((tx) => tx.getHost('c2', A)), undefined);
      });

      it('lists the hosts of one crawl and none of another', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putHosts([hostFixture('c1', B), hostFixture('c2', A), hostFixture('c1', A)]),
        );

        const hosts = await store.transaction((tx) => tx.listHosts('c1'));
        assertEqual(byOrigin(hosts), [hostFixture('c1', A), hostFixture('c1', B)]);
        assertEqual(await store.transaction((tx) => tx.listHosts('c3')), []);
        // The same outside a transaction, after every transaction begun before.
        const written = store.transaction((tx) => tx.putHosts([hostFixture('c3', A)]));
        assertEqual(await store.listHosts('c3'), [hostFixture('c3', A)]);
        await written;
        assertEqual(byOrigin(await store.listHosts('c1')), [hostFixture('c1', A), hostFixture('c1', B)]);
      });

      it('lists every URL a crawl holds, rows and frontier, and none of another', async () => {
        const store = await makeStore();
        await store.transaction(async (tx) => {
          await tx.putPages([pageFixture('c1', `${A}/row`, 1), pageFixture('c2', `${A}/other`, 1)]);
          await tx.putEntries([entryFixture('c1', A, '/queued', 2)]);
        });
        assertEqual([...(await store.knownUrls('c1'))].sort(), [`${A}/queued`, `${A}/row`]);
        assertEqual(await store.knownUrls('c3'), []);
      });

      it('replaces a host written again', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putHosts([hostFixture('c1', A)]));
        const idle: HostState = { ...hostFixture('c1', A), inFlight: null, pending: 0 };
        await store.transaction((tx) => tx.putHosts([idle]));

        assertEqual(await store.transaction((tx) => tx.listHosts('c1')), [idle]);
      });
    });

    describe('frontier', () => {
      it('returns entries in the order asked, undefined where absent', async () => {
        const store = await makeStore();
        const one = entryFixture('c1', A, '/1', 1);
        const two = entryFixture('c1', A, '/2', 2, 'run-1');
        await store.transaction((tx) => tx.putEntries([one, two, entryFixture('c2', A, '/3', 3)]));

        const got = await store.transaction((tx) =>
          tx.getEntries('c1', [`${A}/2`, `${A}/missing`, `${A}/1`, `${A}/3`]),
        );
        assertEqual(got, [two, undefined, one, undefined]);
        assertEqual(await store.transaction((tx) => tx.getEntries('c1', [])), []);
      });

      it('nextEntry returns the queued entry of that host with the lowest seq', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putEntries([
            entryFixture('c1', A, '/five', 5),
            entryFixture('c1', A, '/three', 3),
            entryFixture('c1', A, '/seven', 7),
            entryFixture('c1', B, '/one', 1),
            entryFixture('c2', A, '/zero', 0),
          ]),
        );

        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', A)), entryFixture('c1', A, '/three', 3));
        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', B)), entryFixture('c1', B, '/one', 1));
        assertEqual(await store.transaction((tx) => tx.nextEntry('c2', A)), entryFixture('c2', A, '/zero', 0));
      });

      it('nextEntry skips leased entries and returns undefined when nothing of the host is queued', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putEntries([
            entryFixture('c1', A, '/one', 1, 'run-1'),
            entryFixture('c1', A, '/two', 2, 'run-old'),
            entryFixture('c1', A, '/four', 4),
            entryFixture('c1', B, '/three', 3, 'run-1'),
          ]),
        );

        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', A)), entryFixture('c1', A, '/four', 4));
        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', B)), undefined);
        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', 'https://none.example')), undefined);
      });

      it('leasedEntries lists every leased entry of the crawl, whatever the run, and nothing else', async () => {
        const store = await makeStore();
        const leased = [entryFixture('c1', A, '/one', 1, 'run-1'), entryFixture('c1', B, '/two', 2, 'run-old')];
        await store.transaction((tx) =>
          tx.putEntries([...leased, entryFixture('c1', A, '/three', 3), entryFixture('c2', A, '/four', 4, 'run-1')]),
        );

        assertEqual(byUrl(await store.transaction((tx) => tx.leasedEntries('c1'))), byUrl(leased));
        assertEqual(await store.transaction((tx) => tx.leasedEntries('c3')), []);
      });

      it('leasing and releasing an entry moves it out of the queue and back', async () => {
        const store = await makeStore();
        const first = entryFixture('c1', A, '/one', 1);
        await store.transaction((tx) => tx.putEntries([first, entryFixture('c1', A, '/two', 2)]));

        await store.transaction((tx) => tx.putEntries([{ ...first, leaseRunId: 'run-1' }]));
        assertEqual(seqs(await store.transaction((tx) => tx.queuedEntries('c1', A, 10))), [2]);
        assertEqual(await store.transaction((tx) => tx.leasedEntries('c1')), [{ ...first, leaseRunId: 'run-1' }]);

        await store.transaction((tx) => tx.putEntries([{ ...first, attempts: 1 }]));
        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', A)), { ...first, attempts: 1 });
        assertEqual(await store.transaction((tx) => tx.leasedEntries('c1')), []);
      });

      it('queuedEntries lists queued entries of one host in seq order, at most limit', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putEntries([
            entryFixture('c1', A, '/d', 40),
            entryFixture('c1', A, '/a', 10),
            entryFixture('c1', A, '/c', 30, 'run-1'),
            entryFixture('c1', A, '/b', 20),
            entryFixture('c1', A, '/e', 50),
            entryFixture('c1', B, '/f', 5),
            entryFixture('c2', A, '/g', 1),
          ]),
        );

        const queued = (limit: number): Promise<FrontierEntry[]> =>
          store.transaction((tx) => tx.queuedEntries('c1', A, limit));
        assertEqual(await queued(2), [entryFixture('c1', A, '/a', 10), entryFixture('c1', A, '/b', 20)]);
        assertEqual(seqs(await queued(100)), [10, 20, 40, 50]);
        assertEqual(await queued(0), []);
      });

      it('deleteEntries removes the named entries of that crawl only', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putEntries([
            entryFixture('c1', A, '/1', 1),
            entryFixture('c1', A, '/2', 2, 'run-1'),
            entryFixture('c2', A, '/1', 1),
          ]),
        );
        await store.transaction((tx) => tx.deleteEntries('c1', [`${A}/1`, `${A}/2`, `${A}/absent`]));

        assertEqual(await store.transaction((tx) => tx.getEntries('c1', [`${A}/1`, `${A}/2`])), [undefined, undefined]);
        assertEqual(await store.transaction((tx) => tx.nextEntry('c1', A)), undefined);
        assertEqual(await store.transaction((tx) => tx.leasedEntries('c1')), []);
        assertEqual(await store.transaction((tx) => tx.nextEntry('c2', A)), entryFixture('c2', A, '/1', 1));
      });
    });

    describe('known URLs and link tallies', () => {
      it('knownOf says which URLs the crawl holds, as a row or an entry (leased or not), in the order asked', async () => {
        const store = await makeStore();
        await store.transaction(async (tx) => {
          await tx.putEntries([
            entryFixture('c1', A, '/queued', 1),
            entryFixture('c1', A, '/leased', 2, 'run-1'),
            entryFixture('c2', A, '/other', 1),
          ]);
          await tx.putPages([pageFixture('c1', `${A}/row`, 1)]);
        });
        const urls = [`${A}/row`, `${A}/absent`, `${A}/queued`, `${A}/other`, `${A}/leased`];
        assertEqual(await store.transaction((tx) => tx.knownOf('c1', urls)), [true, false, true, false, true]);
        assertEqual(await store.transaction((tx) => tx.knownOf('c1', [])), []);
      });

      it('keeps tallies per crawl in batch order, and deletes those of a crawl', async () => {
        const store = await makeStore();
        await store.transaction(async (tx) => {
          for (const batch of [3, 1, 2]) await tx.putLinkTally(tallyFixture('c1', batch));
          await tx.putLinkTally(tallyFixture('c2', 1));
        });
        assertEqual(await store.transaction((tx) => tx.linkTallies('c1')), [
          tallyFixture('c1', 1),
          tallyFixture('c1', 2),
          tallyFixture('c1', 3),
        ]);
        await store.deleteCrawl('c1');
        assertEqual(await store.transaction((tx) => tx.linkTallies('c1')), []);
        assertEqual(await store.transaction((tx) => tx.linkTallies('c2')), [tallyFixture('c2', 1)]);
      });

      it('deletes named tallies of one crawl, by batch, and keeps the flag of those kept for the full fold', async () => {
        const store = await makeStore();
        const kept = { ...tallyFixture('c1', 2), rowsOnly: true as const };
        await store.transaction(async (tx) => {
          for (const batch of [1, 3, 4]) await tx.putLinkTally(tallyFixture('c1', batch));
          await tx.putLinkTally(kept);
          await tx.putLinkTally(tallyFixture('c2', 1));
        });
        await store.transaction((tx) => tx.deleteLinkTallyBatches('c1', [1, 4, 9]));
        assertEqual(await store.transaction((tx) => tx.linkTallies('c1')), [kept, tallyFixture('c1', 3)]);
        assertEqual(await store.transaction((tx) => tx.linkTallies('c2')), [tallyFixture('c2', 1)]);
      });
    });

    describe('pages waiting for their render', () => {
      const waiting = (crawlId: string, path: string, seq: number): RenderEntry => ({
        crawlId,
        url: `${A}${path}`,
        seq,
        why: 'always',
        attempts: 0,
      });

      it('gives the waiting page of lowest seq of that crawl, replaces one queued again, and deletes it', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putRenders([
            waiting('c1', '/b', 2),
            waiting('c1', '/a', 3),
            waiting('c2', '/z', 1),
            waiting('c1', '/c', 5),
          ]),
        );
        assertEqual(await store.transaction((tx) => tx.nextRender('c1')), waiting('c1', '/b', 2));
        await store.transaction((tx) => tx.putRenders([{ ...waiting('c1', '/b', 2), attempts: 1 }]));
        assertEqual(await store.transaction((tx) => tx.nextRender('c1')), { ...waiting('c1', '/b', 2), attempts: 1 });
        await store.transaction((tx) => tx.deleteRender('c1', `${A}/b`));
        assertEqual(await store.transaction((tx) => tx.nextRender('c1')), waiting('c1', '/a', 3));
        await store.deleteCrawl('c1');
        assertEqual(await store.transaction((tx) => tx.nextRender('c1')), undefined);
        assertEqual(await store.transaction((tx) => tx.nextRender('c2')), waiting('c2', '/z', 1));
      });
    });

    describe('URLs not crawled', () => {
      const left = (crawlId: string, path: string, reason: NotCrawledUrl['reason']): NotCrawledUrl => ({
        crawlId,
        url: `${A}${path}`,
        reason,
        depth: 3,
        referrer: `${A}/`,
      });

      it('lists them in URL order, after a URL, at most limit, of one reason or all, of that crawl only; replaces and deletes', async () => {
        const store = await makeStore();
        await store.transaction((tx) =>
          tx.putNotCrawled([
            left('c1', '/c', 'depth'),
            left('c1', '/a', 'page-limit'),
            left('c1', '/b', 'depth'),
            left('c2', '/a', 'trap'),
          ]),
        );
        const urls = (list: NotCrawledUrl[]): string[] => list.map((u) => u.url.slice(A.length));
        assertEqual(urls(await store.notCrawledAfter('c1', null, 10)), ['/a', '/b', '/c']);
        assertEqual(await store.notCrawledAfter('c1', null, 1), [left('c1', '/a', 'page-limit')]);
        assertEqual(urls(await store.notCrawledAfter('c1', `${A}/a`, 10)), ['/b', '/c']);
        assertEqual(urls(await store.notCrawledAfter('c1', null, 10, 'depth')), ['/b', '/c']);
        assertEqual(urls(await store.notCrawledAfter('c1', `${A}/b`, 10, 'depth')), ['/c']);
        assertEqual(urls(await store.transaction((tx) => tx.notCrawledAfter('c1', `${A}/a`, 1))), ['/b']);
        // Written again: replaced, not doubled.
        await store.transaction((tx) => tx.putNotCrawled([left('c1', '/b', 'prefix')]));
        assertEqual(urls(await store.notCrawledAfter('c1', null, 10, 'prefix')), ['/b']);
        assertEqual(urls(await store.notCrawledAfter('c1', null, 10)), ['/a', '/b', '/c']);
        await store.transaction((tx) => tx.deleteNotCrawled('c1', [`${A}/a`, `${A}/absent`]));
        assertEqual(urls(await store.notCrawledAfter('c1', null, 10)), ['/b', '/c']);
        await store.deleteCrawl('c1');
        assertEqual(await store.notCrawledAfter('c1', null, 10), []);
        assertEqual(urls(await store.notCrawledAfter('c2', null, 10)), ['/a']);
      });
    });

    describe('pages and bodies', () => {
      it('reads pages back exactly, headers as ordered pairs, in the order asked', async () => {
        const store = await makeStore();
        const page = pageFixture('c1', `${A}/ok`, 1);
        const failed: PageRecord = {
          ...pageFixture('c1', `${A}/down`, 2),
          status: null,
          contentType: null,
          contentLength: null,
          methods: ['GET'],
          responseTimeMs: null,
          headers: [],
          sha256: null,
          title: null,
          links: [],
          error: { code: 'timeout', message: 'no answer within 30000 ms' },
        };
        await store.transaction((tx) => tx.putPages([page, failed]));

        const got = await store.transaction((tx) => tx.getPages('c1', [`${A}/down`, `${A}/absent`, `${A}/ok`]));
        assertEqual(got, [failed, undefined, page]);
        assertEqual(await store.transaction((tx) => tx.getPages('c2', [`${A}/ok`])), [undefined]);
      });

      it('stores a body byte for byte and names the URL that first served it', async () => {
        const store = await makeStore();
        const body: StoredBody = { crawlId: 'c1', sha256: 'cd'.repeat(32), url: `${A}/first`, bytes: everyByte() };
        await store.transaction((tx) => tx.putBody(body));

        const read = await store.getBody('c1', body.sha256);
        assertEqual(read, { crawlId: 'c1', sha256: 'cd'.repeat(32), url: `${A}/first`, bytes: everyByte() });
        assertEqual(read?.bytes instanceof Uint8Array, true);
        assertEqual(await store.transaction((tx) => tx.bodyOwner('c1', body.sha256)), `${A}/first`);
        assertEqual(await store.transaction((tx) => tx.bodyOwner('c1', 'ef'.repeat(32))), undefined);
        assertEqual(await store.transaction((tx) => tx.bodyOwner('c2', body.sha256)), undefined);
        assertEqual(await store.getBody('c2', body.sha256), undefined);
      });

      it('stores an empty body as an empty byte array', async () => {
        const store = await makeStore();
        const body: StoredBody = {
          crawlId: 'c1',
          sha256: 'e3'.repeat(32),
          url: `${A}/empty`,
          bytes: new Uint8Array(0),
        };
        await store.transaction((tx) => tx.putBody(body));

        assertEqual(await store.getBody('c1', body.sha256), body);
      });

      it('getBodies reads several bodies of one crawl in the order asked, undefined where none is stored', async () => {
        const store = await makeStore();
        const first: StoredBody = { crawlId: 'c1', sha256: 'a1'.repeat(32), url: `${A}/a`, bytes: everyByte() };
        const second: StoredBody = {
          crawlId: 'c1',
          sha256: 'b2'.repeat(32),
          url: `${A}/b`,
          bytes: new Uint8Array([1, 2, 3]),
        };
        const elsewhere: StoredBody = {
          crawlId: 'c2',
          sha256: 'c3'.repeat(32),
          url: `${A}/c`,
          bytes: new Uint8Array([4]),
        };
        await store.transaction(async (tx) => {
          for (const body of [first, second, elsewhere]) await tx.putBody(body);
        });

        assertEqual(await store.getBodies('c1', [second.sha256, 'ff'.repeat(32), first.sha256, elsewhere.sha256]), [
          second,
          undefined,
          first,
          undefined,
        ]);
        assertEqual(await store.getBodies('c1', []), []);
      });

      it('pagesAfter returns the rows after a seq in seq order, at most limit, of that crawl only', async () => {
        const store = await makeStore();
        const rows = [4, 1, 5, 3, 2].map((seq) => pageFixture('c1', `${A}/p${seq}`, seq));
        await store.transaction((tx) => tx.putPages([...rows, pageFixture('c2', `${A}/p9`, 3)]));

        assertEqual(await store.pagesAfter('c1', 2, 2), [
          pageFixture('c1', `${A}/p3`, 3),
          pageFixture('c1', `${A}/p4`, 4),
        ]);
        assertEqual(seqs(await store.pagesAfter('c1', 0, 100)), [1, 2, 3, 4, 5]);
        assertEqual(await store.pagesAfter('c1', 5, 100), []);
        assertEqual(await store.pagesAfter('c1', 0, 0), []);
        assertEqual(seqs(await store.pagesAfter('c2', 0, 100)), [3]);
      });

      it('latestPages returns the newest rows first, at most limit, of that crawl only', async () => {
        const store = await makeStore();
        const rows = [2, 5, 1, 4, 3].map((seq) => pageFixture('c1', `${A}/p${seq}`, seq));
        await store.transaction((tx) => tx.putPages([...rows, pageFixture('c2', `${A}/p9`, 9)]));

        assertEqual(await store.latestPages('c1', 2), [
          pageFixture('c1', `${A}/p5`, 5),
          pageFixture('c1', `${A}/p4`, 4),
        ]);
        assertEqual(seqs(await store.latestPages('c1', 100)), [5, 4, 3, 2, 1]);
        assertEqual(await store.latestPages('c1', 0), []);
        assertEqual(await store.latestPages('c3', 10), []);
      });
    });

    describe('transactions', () => {
      it('resolves with the result of the work', async () => {
        const store = await makeStore();
        assertEqual(await store.transaction(async () => 42), 42);
      });

      it('sees its own writes before it ends', async () => {
        const store = await makeStore();
        const seen = await store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('c1'));
          await tx.putEntries([entryFixture('c1', A, '/1', 1)]);
          await tx.putPages([pageFixture('c1', `${A}/0`, 1)]);
          return {
            crawl: await tx.getCrawl('c1'),
            next: await tx.nextEntry('c1', A),
            pages: await tx.getPages('c1', [`${A}/0`]),
          };
        });

        assertEqual(seen, {
          crawl: crawlFixture('c1'),
          next: entryFixture('c1', A, '/1', 1),
          pages: [pageFixture('c1', `${A}/0`, 1)],
        });
      });

      it('a work that throws writes nothing and rejects with its error', async () => {
        const store = await makeStore();
        await store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('c1'));
          await tx.putEntries([entryFixture('c1', A, '/kept', 1)]);
        });

        const error = await rejectionOf(
          store.transaction(async (tx) => {
            await tx.putCrawl({ ...crawlFixture('c1'), state: 'failed' });
            await tx.putCrawl(crawlFixture('c2'));
            await tx.putHosts([hostFixture('c1', A)]);
            await tx.putEntries([entryFixture('c1', A, '/new', 0)]);
            await tx.deleteEntries('c1', [`${A}/kept`]);
            await tx.putPages([pageFixture('c1', `${A}/page`, 1)]);
            await tx.putBody({ crawlId: 'c1', sha256: 'ab'.repeat(32), url: `${A}/page`, bytes: everyByte() });
            throw new WorkFailed('the work failed after writing');
          }),
        );

        assertEqual(error instanceof WorkFailed, true);
        assertEqual(await store.listCrawls(), [crawlFixture('c1')]);
        assertEqual(
          await store.transaction(async (tx) => ({
            hosts: await tx.listHosts('c1'),
            next: await tx.nextEntry('c1', A),
            pages: await tx.getPages('c1', [`${A}/page`]),
            owner: await tx.bodyOwner('c1', 'ab'.repeat(32)),
          })),
          { hosts: [], next: entryFixture('c1', A, '/kept', 1), pages: [undefined], owner: undefined },
        );
        assertEqual(await store.latestPages('c1', 10), []);
      });

      it('a failed transaction does not stop the next one', async () => {
        const store = await makeStore();
        const failing = store.transaction(async () => {
          throw new WorkFailed('first');
        });
        const next = store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));

        assertEqual((await rejectionOf(failing)) instanceof WorkFailed, true);
        await next;
        assertEqual(await store.getCrawl('c1'), crawlFixture('c1'));
      });

      it('concurrent transactions that read and increment a counter lose no update', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));

        const increment = (): Promise<void> =>
          store.transaction(async (tx) => {
            const crawl = await crawlIn(tx, 'c1');
            await tx.listHosts('c1');
            await tx.nextEntry('c1', A);
            await tx.putCrawl({ ...crawl, counts: { ...crawl.counts, done: crawl.counts.done + 1 } });
          });
        await Promise.all([increment(), increment(), increment(), increment(), increment()]);

        assertEqual((await store.getCrawl('c1'))?.counts.done, 5);
      });

      it('a read started after a transaction sees its writes', async () => {
        const store = await makeStore();
        const write = store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('c1'));
          await tx.putPages([pageFixture('c1', `${A}/1`, 1)]);
        });
        const [crawl, pages] = await Promise.all([store.getCrawl('c1'), store.latestPages('c1', 10), write]);

        assertEqual(crawl, crawlFixture('c1'));
        assertEqual(pages, [pageFixture('c1', `${A}/1`, 1)]);
      });
    });

    describe('deleteCrawl', () => {
      it('removes everything of that crawl and nothing of another', async () => {
        const store = await makeStore();
        const sha = 'ab'.repeat(32);
        const fill = (crawlId: string, createdAt: number) =>
          store.transaction(async (tx) => {
            await tx.putCrawl(crawlFixture(crawlId, createdAt));
            await tx.putHosts([hostFixture(crawlId, A), hostFixture(crawlId, B)]);
            await tx.putEntries([entryFixture(crawlId, A, '/q', 2), entryFixture(crawlId, B, '/l', 3, 'run-1')]);
            await tx.putPages([pageFixture(crawlId, `${A}/p`, 1)]);
            await tx.putBody({ crawlId, sha256: sha, url: `${A}/p`, bytes: everyByte() });
          });
        await fill('gone', START);
        await fill('kept', START + 1);

        await store.deleteCrawl('gone');

        const contents = async (crawlId: string) => ({
          crawl: await store.getCrawl(crawlId),
          pages: await store.pagesAfter(crawlId, 0, 10),
          body: await store.getBody(crawlId, sha),
          ...(await store.transaction(async (tx) => ({
            hosts: byOrigin(await tx.listHosts(crawlId)),
            entries: await tx.getEntries(crawlId, [`${A}/q`, `${B}/l`]),
            leased: await tx.leasedEntries(crawlId),
            owner: await tx.bodyOwner(crawlId, sha),
          }))),
        });
        assertEqual(await contents('gone'), {
          crawl: undefined,
          pages: [],
          body: undefined,
          hosts: [],
          entries: [undefined, undefined],
          leased: [],
          owner: undefined,
        });
        assertEqual(await contents('kept'), {
          crawl: crawlFixture('kept', START + 1),
          pages: [pageFixture('kept', `${A}/p`, 1)],
          body: { crawlId: 'kept', sha256: sha, url: `${A}/p`, bytes: everyByte() },
          hosts: [hostFixture('kept', A), hostFixture('kept', B)],
          entries: [entryFixture('kept', A, '/q', 2), entryFixture('kept', B, '/l', 3, 'run-1')],
          leased: [entryFixture('kept', B, '/l', 3, 'run-1')],
          owner: `${A}/p`,
        });
        assertEqual(
          (await store.listCrawls()).map((crawl) => crawl.id),
          ['kept'],
        );
      });

      it('does nothing for a crawl that does not exist', async () => {
        const store = await makeStore();
        await store.transaction((tx) => tx.putCrawl(crawlFixture('c1')));
        await store.deleteCrawl('absent');

        assertEqual(await store.listCrawls(), [crawlFixture('c1')]);
      });

      it('removes the rows and bodies of a crawl id that has no crawl record (an import cut short)', async () => {
        const store = await makeStore();
        const sha = 'cd'.repeat(32);
        await store.transaction(async (tx) => {
          await tx.putPages([pageFixture('half', `${A}/p`, 1), pageFixture('half', `${A}/q`, 2)]);
          await tx.putBody({ crawlId: 'half', sha256: sha, url: `${A}/p`, bytes: everyByte() });
        });
        await store.deleteCrawl('half');

        assertEqual(await store.pagesAfter('half', 0, 10), []);
        assertEqual(await store.getBody('half', sha), undefined);
        assertEqual(await store.knownUrls('half'), []);
      });
    });

    describe('deleteOrphans', () => {
      it('removes everything stored under crawl ids without a crawl record, and nothing else', async () => {
        const store = await makeStore();
        const sha = 'ef'.repeat(32);
        await store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('kept'));
          for (const crawlId of ['kept', 'orphan-a', 'orphan-b']) {
            await tx.putPages([pageFixture(crawlId, `${A}/p`, 1), pageFixture(crawlId, `${B}/q`, 2)]);
            await tx.putBody({ crawlId, sha256: sha, url: `${A}/p`, bytes: everyByte() });
          }
          await tx.putHosts([hostFixture('orphan-b', A)]);
          await tx.putEntries([entryFixture('orphan-c', A, '/q', 3)]);
          await tx.putBody({ crawlId: 'orphan-d', sha256: sha, url: `${A}/p`, bytes: everyByte() });
          await tx.putNotCrawled([
            { crawlId: 'orphan-e', url: `${A}/deep`, reason: 'depth', depth: 21, referrer: null },
          ]);
        });

        assertEqual(await store.deleteOrphans(), 5);

        for (const crawlId of ['orphan-a', 'orphan-b', 'orphan-c', 'orphan-d', 'orphan-e']) {
          assertEqual(await store.notCrawledAfter(crawlId, null, 10), []);
          assertEqual(await store.pagesAfter(crawlId, 0, 10), []);
          assertEqual(await store.getBody(crawlId, sha), undefined);
          assertEqual(await store.knownUrls(crawlId), []);
          assertEqual(await store.listHosts(crawlId), []);
        }
        assertEqual(await store.getCrawl('kept'), crawlFixture('kept'));
        assertEqual(await store.pagesAfter('kept', 0, 10), [
          pageFixture('kept', `${A}/p`, 1),
          pageFixture('kept', `${B}/q`, 2),
        ]);
        assertEqual(await store.getBody('kept', sha), {
          crawlId: 'kept',
          sha256: sha,
          url: `${A}/p`,
          bytes: everyByte(),
        });
        assertEqual(await store.deleteOrphans(), 0);
      });

      it('finds nothing in an empty store or one whose crawls are whole', async () => {
        const store = await makeStore();
        assertEqual(await store.deleteOrphans(), 0);
        await store.transaction(async (tx) => {
          await tx.putCrawl(crawlFixture('c1'));
          await tx.putPages([pageFixture('c1', `${A}/p`, 1)]);
        });
        assertEqual(await store.deleteOrphans(), 0);
        assertEqual(await store.pagesAfter('c1', 0, 10), [pageFixture('c1', `${A}/p`, 1)]);
      });
    });
  });
}
