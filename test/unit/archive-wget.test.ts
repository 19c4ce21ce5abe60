/**
 * A WARC written by GNU wget (`wget --warc-file --recursive --level=2`, Debian's
 * wget) from the local test site, read by the archive reader: the same records
 * as warcio.js reads, one row per URL wget fetched with the status the site
 * sent; then the same WARC packed into a WACZ by npm @harvard-lil/js-wacz and
 * read back. No browser: the site is a Node http server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { WACZ } from '@harvard-lil/js-wacz';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { ArchiveRowBuilder, type ImportedRow } from '../../src/import/archive-rows.ts';
import { LinkGraph } from '../../src/import/link-graph.ts';
import { openArchive } from '../../src/import/open-archive.ts';
import { readWarc, type WarcRecord } from '../../src/import/warc-reader.ts';
import { EXACT_BODIES, startTestSite, type TestSite } from '../support/test-site.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { importArchive } from '../../src/import/import-crawl.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { readWithWarcio } from '../support/warc-fixtures.ts';

const run = promisify(execFile);
const TIMEOUT = { timeout: 120_000 };
const work = mkdtempSync(join(tmpdir(), 'tabcrawl-wget-'));
let site: TestSite;
let warcBytes: Uint8Array;
let warcPath: string;

before(async () => {
  site = await startTestSite({ resources: true });
  warcPath = join(work, 'site.warc.gz');
  const args = [
    '--warc-file',
    join(work, 'site'),
    '--recursive',
    '--level=2',
    '--no-verbose',
    '--tries=1',
    '--timeout=20',
    '--directory-prefix',
    join(work, 'files'),
    `${site.origin}/`,
  ];
  // wget exits 8 when the server answered an error (the site's 404 and 500): expected.
  await run('wget', args).catch((error: { code?: number; stderr?: string }) => {
    if (error.code !== 8) throw new Error(`wget failed (${error.code}): ${error.stderr ?? ''}`);
  });
  warcBytes = new Uint8Array(readFileSync(warcPath));
});

after(async () => {
  await site.close();
  rmSync(work, { recursive: true, force: true });
});

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}

const shape = (r: WarcRecord): unknown[] => [r.type, r.targetUri, r.offset, r.payload, r.body];

describe('a WARC written by wget --warc-file', () => {
  it('reads every record as warcio.js does', TIMEOUT, async () => {
    const records = await collect(readWarc(warcBytes, { fileName: 'site.warc.gz' }));
    const reference = await readWithWarcio(warcBytes);
    assert.deepEqual(
      records.map((r) => [r.type, r.targetUri, r.offset, r.payload]),
      reference.map((r) => [r.type, r.targetUri, r.offset, r.payload]),
    );
    assert.ok(
      records.every((r) => r.warnings.length === 0 || r.type !== 'response'),
      'wget writes clean records',
    );
    assert.deepEqual([...new Set(records.map((r) => r.type))].sort(), [
      'metadata',
      'request',
      'resource',
      'response',
      'warcinfo',
    ]);
  });

  it(
    'gives one row per URL wget fetched, with the status the site sent, and the bodies as served',
    TIMEOUT,
    async () => {
      const builder = new ArchiveRowBuilder({
        crawlId: 'wget',
        settings: { ...DEFAULT_SETTINGS, startUrl: `${site.origin}/` },
      });
      const rows: ImportedRow[] = [];
      for await (const record of readWarc(warcBytes, { fileName: 'site.warc.gz' }))
        rows.push(...(await builder.add(record)));
      rows.push(...(await builder.finish()));
      const fetched = [...new Set(site.requests.map((request) => `${site.origin}${request.url}`))].sort();
      assert.deepEqual(rows.map((r) => r.row.url).sort(), fetched, 'a row for every URL wget asked for, no other');
      assert.equal(builder.summary.unpairedRequests, 0);
      const row = (path: string): ImportedRow =>
        rows.find((r) => r.row.url === `${site.origin}${path}`) ?? assert.fail(path);
      assert.equal(row('/').row.status, 200);
      assert.ok(row('/').row.links.includes(`${site.origin}/p/0`));
      assert.equal(row('/missing').row.status, 404);
      assert.equal(row('/broken').row.status, 500);
      assert.equal(row('/old').row.status, 301);
      assert.equal(row('/old').row.location, `${site.origin}/new`);
      assert.equal(row('/robots.txt').row.status, 200, "wget's robots.txt request is a row too");
      assert.ok(!rows.some((r) => r.row.url.endsWith('/private/secret')), 'wget obeyed robots.txt');
      assert.deepEqual(row('/latin1').body, EXACT_BODIES['/latin1']);
      assert.equal(row('/latin1').row.title, 'Café');
      assert.ok(
        row('/').row.requestHeaders?.some(([name, value]) => name === 'user-agent' && value.startsWith('Wget/')),
      );

      // The walk from the start: depth and referrer as wget's recursion found them.
      const graph = new LinkGraph();
      for (const { row: r } of rows) graph.add(r);
      const fields = graph.fields([`${site.origin}/`]);
      assert.equal(fields.get(`${site.origin}/`)?.depth, 0);
      assert.equal(fields.get(`${site.origin}/p/0`)?.depth, 1);
      assert.equal(fields.get(`${site.origin}/p/0`)?.referrer, `${site.origin}/`);
      assert.equal(fields.get(`${site.origin}/new`)?.depth, 1, 'a redirect target at its source depth');
    },
  );

  it('reads the WACZ js-wacz packs from it as the WARC itself', TIMEOUT, async () => {
    const output = join(work, 'site.wacz');
    const quiet = { info() {}, trace() {}, warn() {}, debug() {}, error() {} };
    await new WACZ({ input: [warcPath], output, log: quiet, url: `${site.origin}/` }).process(false);
    const archive = await openArchive(new Blob([readFileSync(output)]), 'site.wacz');
    assert.deepEqual(archive.wacz?.warcPaths, ['archive/site.warc.gz']);
    const fromWacz = await collect(archive.records());
    const direct = await collect(readWarc(warcBytes, { fileName: 'site.warc.gz' }));
    assert.deepEqual(fromWacz.map(shape), direct.map(shape));
    const pages = await collect(archive.wacz?.pages() ?? []);
    assert.ok(pages.some((page) => page.url === `${site.origin}/`));
  });
});

describe('a WARC written by wget spanning hosts (--span-hosts)', () => {
  const html = (body: string) => ({
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><title>A page</title>${body}`,
  });
  let start: LocalSite;
  let other: LocalSite;
  let spanning: Uint8Array<ArrayBuffer>;

  before(async () => {
    other = await startLocalSite({
      '/': html('<a href="/x">x</a>'),
      '/x': html('<a href="/y">y</a>'),
      '/y': html('the end'),
    });
    start = await startLocalSite({
      '/': html(`<a href="/a">a</a> <a href="${other.origin}/">other</a> <a href="${other.origin}/x">x</a>`),
      '/a': html('<a href="/">home</a>'),
    });
    const args = [
      '--warc-file',
      join(work, 'spanning'),
      '--recursive',
      '--span-hosts',
      '--level=2',
      '--no-verbose',
      '--tries=1',
      '--timeout=20',
      '--directory-prefix',
      join(work, 'spanning-files'),
      `${start.origin}/`,
    ];
    await run('wget', args).catch((error: { code?: number; stderr?: string }) => {
      if (error.code !== 8) throw new Error(`wget failed (${error.code}): ${error.stderr ?? ''}`);
    });
    spanning = new Uint8Array(readFileSync(join(work, 'spanning.warc.gz')));
  });

  after(async () => {
    await start?.close();
    await other?.close();
  });

  it(
    "counts the other host's pages as links to other sites, as the start URL's scope says, not as pages of the crawl",
    TIMEOUT,
    async () => {
      const store = new MemoryCrawlStore();
      const { crawl } = await importArchive(store, new Blob([spanning]), 'spanning.warc.gz');
      const rows = await store.pagesAfter(crawl.id, 0, 1000);
      const kind = (url: string): string | undefined => rows.find((row) => row.url === url)?.kind;
      assert.ok(
        other.requests.some((request) => request.url === '/y'),
        'wget went on into the other host',
      );
      assert.equal(kind(`${start.origin}/`), 'page');
      assert.equal(kind(`${start.origin}/a`), 'page');
      for (const path of ['/', '/x', '/y'])
        assert.equal(kind(`${other.origin}${path}`), 'external', `${other.origin}${path}`);
      const onOtherHost = rows.filter((row) => row.origin === other.origin).length;
      assert.equal(crawl.counts.external, onOtherHost);
      assert.equal(crawl.counts.done, rows.length);
      // The other host's own links are not the crawl's: /y, linked only from there, is no page of the crawl and has no inlinks.
      assert.equal(rows.find((row) => row.url === `${other.origin}/y`)?.inlinks, 0);
    },
  );
});
