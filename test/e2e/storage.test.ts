/**
 * Storage limits, end to end: IndexedDB's quota runs out mid-crawl (a small
 * quota set through CDP `Storage.overrideQuotaForOrigin`); the crawl pauses
 * with a clear message, what it stored is intact, and after the user deletes
 * an old crawl it resumes and finishes with every URL.
 *
 * The extension asks for `unlimitedStorage` (crawls are big, and must not be
 * evicted), and Chromium does not enforce a quota override on such an origin
 * (measured: 15 MB written under a 3 MB override). So this test loads a copy
 * of the built extension whose manifest lacks that one permission; the code
 * path is the one a full disk takes (IndexedDB's `QuotaExceededError`).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import { DIST_DIR, exportRows, sleep } from './helpers.ts';

/** A site of `pages` pages of about 100 KB each that do not compress (random text), all linked from `/`. */
function bulkySite(pages: number): Promise<LocalSite> {
  const routes = new Map<string, Route>([
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' }],
    [
      '/',
      {
        headers: { 'content-type': 'text/html' },
        body: `<title>home</title>${Array.from({ length: pages }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('')}`,
      },
    ],
  ]);
  for (let i = 0; i < pages; i += 1) {
    routes.set(`/p${i}`, {
      headers: { 'content-type': 'text/html' },
      body: `<title>p${i}</title><p>${randomBytes(75_000).toString('base64')}</p>`,
    });
  }
  return startLocalSite(routes);
}

describe('a crawl that runs out of storage', () => {
  it('pauses with a message, keeps what it stored, and finishes after an old crawl is deleted', async () => {
    const work = mkdtempSync(join(tmpdir(), 'tabcrawl-quota-'));
    const dist = join(work, 'dist');
    cpSync(DIST_DIR, dist, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { permissions: string[] };
    manifest.permissions = manifest.permissions.filter((permission) => permission !== 'unlimitedStorage');
    writeFileSync(join(dist, 'manifest.json'), JSON.stringify(manifest));

    const session = await launchExtension({ distDir: dist, chromePath: findChromium(process.env), copyDist: true });
    const old = await bulkySite(60);
    const site = await bulkySite(40);
    try {
      const page = await session.openPage('src/shells/options/index.html');
      const cdp = await session.context.newCDPSession(page);
      const origin = `chrome-extension://${session.extensionId}`;
      const usage = async (): Promise<number> =>
        ((await cdp.send('Storage.getUsageAndQuota', { origin })) as { usage: number }).usage;

      // An old crawl of about 6 MB, then a quota with room for about a third of the next one (4 MB),
      // over the usage once it has settled (the database's log is compacted after a while).
      const { crawl: first } = await session.request('crawl/start', {
        settings: { startUrl: `${old.origin}/`, delayMs: 0 },
      });
      while ((await session.request('crawl/get', { crawlId: first.id })).crawl.state === 'running') await sleep(200);
      let settled = await usage();
      for (let previous = -1; settled !== previous; await sleep(1000)) [previous, settled] = [settled, await usage()];
      const quota = settled + 1_500_000;
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: quota });
      // An open database keeps the quota it had (measured): stop the worker, so it reopens under the new one.
      await session.stopServiceWorker();
      await sleep(3000);

      const { crawl } = await session.request('crawl/start', { settings: { startUrl: `${site.origin}/`, delayMs: 0 } });
      let paused = crawl;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250)) {
        paused = (await session.request('crawl/get', { crawlId: crawl.id })).crawl;
        if (paused.state !== 'running') break;
      }
      assert.equal(paused.state, 'paused', `the crawl is ${paused.state}: ${paused.message ?? ''}`);
      assert.match(paused.message ?? '', /refused to store more.*Delete crawls you no longer need/s);
      assert.ok(
        paused.counts.done > 3 && paused.counts.done < 41,
        `${paused.counts.done} rows before the quota ran out`,
      );
      const requestsWhenPaused = site.requests.length;
      await sleep(1500);
      assert.equal(site.requests.length, requestsWhenPaused, 'no request while paused for storage');

      // What was stored is intact: every row readable, every body's hash as recorded.
      const rowsBefore = await exportRows(session, crawl.id);
      assert.equal(rowsBefore.length, paused.counts.done);

      // Free space by deleting the old crawl, then resume.
      await session.request('crawl/delete', { crawlId: first.id });
      for (const deadline = Date.now() + 20_000; Date.now() < deadline && (await usage()) > quota - 3_000_000;)
        await sleep(250);
      await session.request('crawl/resume', { crawlId: crawl.id });
      let ended = paused;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250)) {
        ended = (await session.request('crawl/get', { crawlId: crawl.id })).crawl;
        if (ended.state !== 'running') break;
      }
      assert.equal(ended.state, 'finished', ended.message ?? '');
      const rows = await exportRows(session, crawl.id);
      assert.equal(rows.length, 41, 'every URL once');
      assert.equal(new Set(rows.map((row) => row.url)).size, 41);
      assert.deepEqual(rows.slice(0, rowsBefore.length), rowsBefore, 'the rows stored before the pause are unchanged');
      const counts = new Map<string, number>();
      for (const request of site.requests) counts.set(request.url, (counts.get(request.url) ?? 0) + 1);
      const repeats = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
      assert.ok(repeats <= 1, `${repeats} repeated requests for one pause`);
      assert.equal(counts.get('/robots.txt'), 1);
    } finally {
      await session.close();
      await old.close();
      await site.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
