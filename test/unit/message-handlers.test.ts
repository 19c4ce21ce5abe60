import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import { createHandlers, dispatch } from '../../src/shells/background/message-handlers.ts';
import { observeCrawlChanges } from '../../src/shells/background/crawl-events.ts';
import type { MessageOf, RequestType } from '../../src/messaging/protocol.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { emptyCounts } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';
import type { RerunStore } from '../../src/core/custom-rules/rerun-rules.ts';

const A = 'http://a.test';

function background() {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  const store = new MemoryCrawlStore();
  let ids = 0;
  const active: boolean[] = [];
  const manager = new CrawlManager({
    store,
    fetcher: site,
    clock,
    runId: 'run',
    newId: () => `crawl-${++ids}`,
    onActiveChange: (a) => active.push(a),
  });
  /** What `crawl/apply-rules` wrote: reads go to the store, writes are kept here. */
  const rerunWrites: { findings: { url: string; custom: unknown }[]; rules: unknown[] } = { findings: [], rules: [] };
  const rerunStore: RerunStore = {
    pagesAfter: (crawlId, afterSeq, limit) => store.pagesAfter(crawlId, afterSeq, limit),
    getBodies: (crawlId, sha256s) => store.getBodies(crawlId, sha256s),
    putFindings: (_, findings) => {
      rerunWrites.findings.push(...findings);
      return Promise.resolve();
    },
    putRules: (_, searches, extractions) => {
      rerunWrites.rules.push({ searches, extractions });
      return Promise.resolve();
    },
  };
  const handlers = createHandlers(store, manager, clock, rerunStore);
  const send = <K extends RequestType>(message: MessageOf<K>) => dispatch(handlers, message);
  /** Lets virtual time pass until the crawl is no longer running. */
  const settle = async (crawlId: string) =>
    clock.run(
      (async () => {
        while ((await store.getCrawl(crawlId))?.state === 'running') await clock.sleep(100);
      })(),
    );
  return { clock, site, store, manager, send, settle, active, rerunWrites };
}

describe('message handlers', () => {
  it('refuses invalid settings with one message per field, and starts nothing', async () => {
    const bg = background();
    const reply = await bg.send({
      type: 'crawl/start',
      payload: { settings: { startUrl: 'chrome://extensions', delayMs: -5 } },
    });
    assert.equal(reply.ok, false);
    if (reply.ok) return;
    assert.equal(reply.error.code, 'invalid-settings');
    assert.deepEqual(reply.error.fields?.map((f) => f.field).sort(), ['delayMs', 'startUrl']);
    assert.equal((await bg.store.listCrawls()).length, 0);
  });

  it('refuses an exclude pattern that matches the start URL itself', async () => {
    const bg = background();
    const reply = await bg.send({
      type: 'crawl/start',
      payload: { settings: { startUrl: `${A}/`, excludePatterns: ['*a.test*'] } },
    });
    assert.equal(reply.ok ? null : reply.error.fields?.[0]?.field, 'excludePatterns');
  });

  it('refuses a second crawl of a site that is being crawled', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const first = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    assert.equal(first.ok, true);
    const second = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/other` } } });
    assert.equal(second.ok ? null : second.error.code, 'already-running');
    if (first.ok) await bg.settle(first.value.crawl.id);
  });

  it('answers not-found and bad-request as data', async () => {
    const bg = background();
    const missing = await bg.send({ type: 'crawl/get', payload: { crawlId: 'nope' } });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
    const bad = await bg.send({ type: 'pages/latest', payload: { crawlId: '', limit: 5 } });
    assert.equal(bad.ok ? null : bad.error.code, 'bad-request');
  });

  it('answers crawl/imported with the stored crawl and tells open pages it changed; not-found for a crawl not stored', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    assert.ok(started.ok);
    if (!started.ok) return;
    await bg.settle(started.value.crawl.id);
    // The import page writes through a connection of its own; the worker's observed store reports the rewrite.
    const changed: [string, boolean][] = [];
    const observed = observeCrawlChanges(bg.store, (crawlId, isDeleted) => changed.push([crawlId, isDeleted]));
    const handlers = createHandlers(observed, bg.manager, bg.clock);
    const reply = await dispatch(handlers, { type: 'crawl/imported', payload: { crawlId: started.value.crawl.id } });
    assert.ok(reply.ok);
    assert.equal(reply.ok ? reply.value.crawl.state : null, 'finished');
    assert.deepEqual(changed, [[started.value.crawl.id, false]]);
    const missing = await dispatch(handlers, { type: 'crawl/imported', payload: { crawlId: 'nope' } });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
    const bad = await dispatch(handlers, { type: 'crawl/imported', payload: { crawlId: '' } });
    assert.equal(bad.ok ? null : bad.error.code, 'bad-request');
    assert.deepEqual(changed.length, 1, 'nothing reported for a crawl not stored');
  });

  it('runs a crawl to the end, lists it, pages through its export and deletes it', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/1', '/2', '/3', '/4', '/5']));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 500 } } });
    assert.ok(started.ok);
    if (!started.ok) return;
    const crawlId = started.value.crawl.id;
    await bg.settle(crawlId);
    assert.deepEqual(bg.active, [true, false], 'the worker is kept alive exactly while the crawl runs');

    const listed = await bg.send({ type: 'crawl/list', payload: {} });
    assert.ok(listed.ok && listed.value.crawls[0]?.state === 'finished' && listed.value.crawls[0].queued === 0);

    const lines: string[] = [];
    let afterSeq = 0;
    for (let chunks = 0; chunks < 10; chunks += 1) {
      const chunk = await bg.send({ type: 'export/chunk', payload: { crawlId, format: 'jsonl', afterSeq, limit: 4 } });
      assert.ok(chunk.ok);
      if (!chunk.ok) return;
      lines.push(...chunk.value.text.split('\n').filter(Boolean));
      afterSeq = chunk.value.lastSeq;
      if (chunk.value.done) break;
    }
    assert.equal(lines.length, 6);
    assert.equal(new Set(lines.map((l) => (JSON.parse(l) as { url: string }).url)).size, 6);

    const latest = await bg.send({ type: 'pages/latest', payload: { crawlId, limit: 2 } });
    assert.ok(
      latest.ok &&
        latest.value.pages.length === 2 &&
        (latest.value.pages[0]?.seq ?? 0) > (latest.value.pages[1]?.seq ?? 0),
    );

    assert.equal((await bg.send({ type: 'crawl/delete', payload: { crawlId } })).ok, true);
    const gone = await bg.send({ type: 'crawl/get', payload: { crawlId } });
    assert.equal(gone.ok ? null : gone.error.code, 'not-found');
    assert.equal((await bg.store.pagesAfter(crawlId, 0, 10)).length, 0);
  });

  it('applies searches and extractions to a stored crawl from its bodies, refusing bad specs and a running crawl', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/1', '/2']));
    bg.site.route(`${A}/1`, page([]));
    bg.site.route(`${A}/2`, page([]));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 500 } } });
    assert.ok(started.ok);
    if (!started.ok) return;
    const crawlId = started.value.crawl.id;
    const running = await bg.send({
      type: 'crawl/apply-rules',
      payload: { crawlId, searches: ['links=href'], extractions: [] },
    });
    assert.equal(running.ok ? null : running.error.code, 'bad-request');
    await bg.settle(crawlId);
    const requests = bg.site.requests.length;
    const bad = await bg.send({
      type: 'crawl/apply-rules',
      payload: { crawlId, searches: ['no equals sign'], extractions: ['p=css:[['] },
    });
    assert.equal(bad.ok ? null : bad.error.code, 'invalid-settings');
    assert.deepEqual(bad.ok ? [] : bad.error.fields?.map((f) => f.field), ['searches', 'extractions']);
    assert.equal(bg.rerunWrites.findings.length + bg.rerunWrites.rules.length, 0, 'nothing written for bad specs');
    const applied = await bg.send({
      type: 'crawl/apply-rules',
      payload: { crawlId, searches: ['links=href'], extractions: ['first=regex:href="([^"]+)"'] },
    });
    assert.ok(applied.ok);
    if (!applied.ok) return;
    assert.equal(applied.value.pages, 3);
    assert.equal(applied.value.withoutBody, 0);
    const home = bg.rerunWrites.findings.find((f) => f.url === `${A}/`);
    assert.deepEqual(home?.custom, { searches: { links: 2 }, extracted: { first: ['/1', '/2'] } });
    assert.deepEqual(bg.rerunWrites.rules, [{ searches: ['links=href'], extractions: ['first=regex:href="([^"]+)"'] }]);
    assert.equal(bg.site.requests.length, requests, 'nothing fetched');
    const missing = await bg.send({
      type: 'crawl/apply-rules',
      payload: { crawlId: 'nope', searches: [], extractions: [] },
    });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
  });

  it('pages through an export whose rows count their resources and broken resources, recorded in later chunks', async () => {
    const bg = background();
    bg.site.route(
      `${A}/`,
      page(['/b'], '<link rel="stylesheet" href="/s.css"><img src="/logo.png"><img src="/missing.png">'),
    );
    bg.site.route(`${A}/b`, page([], '<img src="/missing.png">'));
    bg.site.route(`${A}/s.css`, {
      headers: { 'content-type': 'text/css' },
      body: 'body { background: url(/gone.png) }',
    });
    bg.site.route(`${A}/logo.png`, { headers: { 'content-type': 'image/png' }, body: 'png' });
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 100 } } });
    if (!started.ok) throw new Error('not started');
    await bg.settle(started.value.crawl.id);
    const lines: { url: string; kind: string; resourceCount: number; brokenResourceCount: number }[] = [];
    for (let afterSeq = 0; ;) {
      // One row a chunk: every page's resources are in chunks of their own.
      const chunk = await bg.send({
        type: 'export/chunk',
        payload: { crawlId: started.value.crawl.id, format: 'jsonl', afterSeq, limit: 1 },
      });
      if (!chunk.ok) throw new Error(chunk.error.message);
      lines.push(
        ...chunk.value.text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as (typeof lines)[number]),
      );
      afterSeq = chunk.value.lastSeq;
      if (chunk.value.done) break;
    }
    const counts = Object.fromEntries(
      lines.map((line) => [line.url.slice(A.length), [line.kind, line.resourceCount, line.brokenResourceCount]]),
    );
    assert.deepEqual(counts['/'], ['page', 3, 1]);
    assert.deepEqual(counts['/b'], ['page', 1, 1]);
    assert.deepEqual(counts['/s.css'], ['resource', 1, 1]);
    assert.deepEqual(counts['/missing.png'], ['resource', 0, 0]);
  });

  it('stops a running crawl: no request starts after the stop', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(Array.from({ length: 20 }, (_, i) => `/p${i}`)));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 1000 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    let stoppedAt = 0;
    await bg.clock.run(
      (async () => {
        while (bg.site.requests.length < 3) await bg.clock.sleep(100);
        stoppedAt = bg.clock.now();
        const stopped = await bg.send({ type: 'crawl/stop', payload: { crawlId } });
        assert.ok(stopped.ok && stopped.value.crawl.state === 'stopped');
        await bg.clock.sleep(10_000);
      })(),
    );
    assert.ok(bg.site.requests.length >= 3);
    assert.equal(bg.site.requests.filter((r) => r.startedAt > stoppedAt).length, 0);
    const again = await bg.send({ type: 'crawl/stop', payload: { crawlId } });
    assert.ok(again.ok && again.value.crawl.state === 'stopped', 'stopping twice is harmless');
  });

  it('pauses a running crawl: no request starts while it is paused, and a worker start does not resume it', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(Array.from({ length: 10 }, (_, i) => `/p${i}`)));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 1000 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    let pausedAt = 0;
    await bg.clock.run(
      (async () => {
        while (bg.site.requests.length < 3) await bg.clock.sleep(100);
        pausedAt = bg.clock.now();
        const paused = await bg.send({ type: 'crawl/pause', payload: { crawlId } });
        assert.ok(paused.ok && paused.value.crawl.state === 'paused');
        await bg.manager.resumeAll();
        await bg.clock.sleep(30_000);
      })(),
    );
    assert.equal(bg.site.requests.filter((r) => r.startedAt > pausedAt).length, 0);
    assert.equal(bg.active.at(-1), false, 'the worker is no longer kept alive for a paused crawl');
    const stored = await bg.store.getCrawl(crawlId);
    assert.equal(stored?.state, 'paused');
    assert.equal(stored?.endedAt, null);
  });

  it('resumes a paused crawl with no URL lost or repeated and no gap shorter than the delay across the pause', async () => {
    const bg = background();
    const links = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    bg.site.route(`${A}/`, page(links));
    for (const link of links) bg.site.route(`${A}${link}`, page([]));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 1000 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    await bg.clock.run(
      (async () => {
        while (bg.site.requests.length < 4) await bg.clock.sleep(100);
        await bg.send({ type: 'crawl/pause', payload: { crawlId } });
        // Resume at once: the runner's loop may still be ending.
        await bg.clock.sleep(10);
        const resumed = await bg.send({ type: 'crawl/resume', payload: { crawlId } });
        assert.ok(resumed.ok && resumed.value.crawl.state === 'running');
      })(),
    );
    await bg.settle(crawlId);
    const final = await bg.store.getCrawl(crawlId);
    assert.equal(final?.state, 'finished');
    const pageUrls = bg.site.requests.map((r) => r.url).filter((url) => !url.endsWith('/robots.txt'));
    assert.deepEqual([...pageUrls].sort(), [`${A}/`, ...links.map((l) => `${A}${l}`)].sort());
    assert.equal(final?.counts.done, 9);
    const requests = bg.site.requests;
    const shortest = Math.min(...requests.slice(1).map((r, i) => r.startedAt - (requests[i]?.endedAt ?? 0)));
    assert.ok(shortest >= 1000, `a gap of ${shortest} ms`);
  });

  it('keeps the spacing of a host across a long pause and counts only running time as active', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/a', '/b', '/c']));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 2000 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    const startedAt = bg.clock.now();
    let resumedAt = 0;
    await bg.clock.run(
      (async () => {
        while (bg.site.requests.length < 2) await bg.clock.sleep(50);
        await bg.send({ type: 'crawl/pause', payload: { crawlId } });
        await bg.clock.sleep(60_000);
        const requestsWhilePaused = bg.site.requests.length;
        resumedAt = bg.clock.now();
        await bg.send({ type: 'crawl/resume', payload: { crawlId } });
        while ((await bg.store.getCrawl(crawlId))?.state === 'running') await bg.clock.sleep(100);
        assert.ok(bg.site.requests.length > requestsWhilePaused);
      })(),
    );
    const got = await bg.send({ type: 'crawl/get', payload: { crawlId } });
    assert.ok(got.ok);
    if (!got.ok) return;
    const { crawl } = got.value;
    assert.equal(crawl.state, 'finished');
    assert.ok(crawl.endedAt !== null && crawl.activeMs !== undefined);
    if (crawl.endedAt === null || crawl.activeMs === undefined) return;
    assert.ok(crawl.activeMs <= crawl.endedAt - startedAt - 59_000, 'the pause is not counted as active time');
    assert.ok(bg.site.requests.every((r) => r.startedAt < resumedAt - 59_000 || r.startedAt >= resumedAt));
  });

  it('resumes a stopped crawl, and refuses to resume a finished one', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/a', '/b']));
    const started = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 500 } } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    const stopped = await bg.send({ type: 'crawl/stop', payload: { crawlId } });
    assert.ok(stopped.ok && stopped.value.crawl.state === 'stopped');
    const resumed = await bg.send({ type: 'crawl/resume', payload: { crawlId } });
    assert.ok(
      resumed.ok &&
        resumed.value.crawl.state === 'running' &&
        resumed.value.crawl.endedAt === null &&
        resumed.value.crawl.message === null,
    );
    await bg.settle(crawlId);
    assert.equal((await bg.store.getCrawl(crawlId))?.counts.done, 3);
    const again = await bg.send({ type: 'crawl/resume', payload: { crawlId } });
    assert.equal(again.ok ? null : again.error.code, 'bad-request');
    const paused = await bg.send({ type: 'crawl/pause', payload: { crawlId } });
    assert.ok(paused.ok && paused.value.crawl.state === 'finished', 'pausing a finished crawl changes nothing');
  });

  it('refuses to start a crawl of a site whose crawl is paused, which would strand it, and the paused one still resumes', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const first = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    if (!first.ok) throw new Error('not started');
    await bg.send({ type: 'crawl/pause', payload: { crawlId: first.value.crawl.id } });
    const second = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    assert.equal(second.ok ? null : second.error.code, 'already-running');
    assert.match(second.ok ? '' : second.error.message, /paused/);
    assert.equal(
      (await bg.send({ type: 'crawl/list', payload: {} })).ok && (await bg.store.listCrawls()).length,
      1,
      'nothing stored',
    );
    const resumed = await bg.send({ type: 'crawl/resume', payload: { crawlId: first.value.crawl.id } });
    assert.ok(resumed.ok && resumed.value.crawl.state === 'running');
    await bg.settle(first.value.crawl.id);
  });

  it('refuses to resume a stopped crawl while another crawl of its site runs', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/a', '/b']));
    const first = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/`, delayMs: 500 } } });
    if (!first.ok) throw new Error('not started');
    await bg.send({ type: 'crawl/stop', payload: { crawlId: first.value.crawl.id } });
    const second = await bg.send({ type: 'crawl/start', payload: { settings: { startUrl: `${A}/` } } });
    if (!second.ok) throw new Error(`second not started: ${second.error.message}`);
    const resumed = await bg.send({ type: 'crawl/resume', payload: { crawlId: first.value.crawl.id } });
    assert.equal(resumed.ok ? null : resumed.error.code, 'already-running');
    await bg.settle(second.value.crawl.id);
  });

  it('re-runs a crawl as a new crawl with the same settings, refusing while the site is being crawled', async () => {
    const bg = background();
    bg.site.route(`${A}/`, page(['/a']));
    const settings = { startUrl: `${A}/`, delayMs: 700, maxPages: 42, excludePatterns: ['*/x/*'], headBeforeGet: true };
    const started = await bg.send({ type: 'crawl/start', payload: { settings } });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    const refused = await bg.send({ type: 'crawl/rerun', payload: { crawlId } });
    assert.equal(refused.ok ? null : refused.error.code, 'already-running');
    await bg.settle(crawlId);

    const rerun = await bg.send({ type: 'crawl/rerun', payload: { crawlId } });
    assert.ok(rerun.ok);
    if (!rerun.ok) return;
    assert.notEqual(rerun.value.crawl.id, crawlId);
    assert.equal(rerun.value.crawl.state, 'running');
    assert.deepEqual(rerun.value.crawl.settings, started.value.crawl.settings);
    assert.equal(rerun.value.crawl.counts.done, 0);
    await bg.settle(rerun.value.crawl.id);
    assert.equal((await bg.send({ type: 'crawl/rerun', payload: { crawlId: 'nope' } })).ok, false);
  });

  it("re-runs a crawl imported from an archive never with the user's cookies, whatever its record says, and lists where it came from", async () => {
    const bg = background();
    bg.site.route(`${A}/`, page([]));
    const settings = { ...DEFAULT_SETTINGS, startUrl: `${A}/`, excludePatterns: [], withCookies: true };
    const importedFrom = 'old.wacz';
    await bg.store.transaction((tx) =>
      tx.putCrawl({
        id: 'imported',
        settings,
        state: 'finished',
        createdAt: 1,
        endedAt: 2,
        counts: emptyCounts(),
        message: null,
        nextSeq: 1,
        importedFrom,
      }),
    );
    const listed = await bg.send({ type: 'crawl/list', payload: {} });
    assert.equal(listed.ok ? listed.value.crawls[0]?.importedFrom : null, importedFrom);
    const rerun = await bg.send({ type: 'crawl/rerun', payload: { crawlId: 'imported' } });
    assert.ok(rerun.ok, rerun.ok ? '' : rerun.error.message);
    assert.equal(rerun.value.crawl.settings.withCookies, false);
    assert.equal(rerun.value.crawl.importedFrom, undefined, 'the re-run is a crawl Tabcrawl made');
    await bg.settle(rerun.value.crawl.id);
  });

  it('lists the hosts with URLs left and what each waits for: Crawl-delay, back-off, robots retry', async () => {
    const bg = background();
    const B = 'http://b.a.test';
    const C = 'http://c.a.test';
    bg.site.route(`${A}/robots.txt`, { body: 'User-agent: *\nCrawl-delay: 5\n' });
    bg.site.route(`${A}/`, page(['/1', '/2', '/3', `${B}/`, `${C}/`]));
    bg.site.route(`${B}/`, { status: 429, headers: { 'retry-after': '120' }, body: '' });
    bg.site.route(`${C}/robots.txt`, { status: 503, body: '' });
    const started = await bg.send({
      type: 'crawl/start',
      payload: { settings: { startUrl: `${A}/`, delayMs: 1000, includeSubdomains: true } },
    });
    if (!started.ok) throw new Error('not started');
    const crawlId = started.value.crawl.id;
    await bg.clock.run(
      (async () => {
        while (bg.site.requestsFor(`${B}/`).length < 1 || bg.site.requestsFor(`${C}/robots.txt`).length < 1)
          await bg.clock.sleep(50);
        await bg.clock.sleep(100);
        await bg.send({ type: 'crawl/pause', payload: { crawlId } });
      })(),
    );
    const reply = await bg.send({ type: 'crawl/hosts', payload: { crawlId } });
    assert.ok(reply.ok);
    if (!reply.ok) return;
    const byOrigin = new Map(reply.value.hosts.map((h) => [h.origin, h]));
    const a = byOrigin.get(A);
    assert.equal(a?.pending, 3);
    assert.equal(a?.gapMs, 5000);
    assert.equal(a?.wait.kind, 'gap');
    assert.deepEqual(a?.wait.kind === 'gap' ? [a.wait.rule, a.wait.gapMs] : null, ['crawl-delay', 5000]);
    const b = byOrigin.get(B);
    assert.equal(b?.wait.kind, 'backoff');
    assert.ok(b?.wait.kind === 'backoff' && b.wait.until >= bg.clock.now() + 100_000);
    assert.equal(byOrigin.get(C)?.wait.kind, 'robots');
    assert.equal(reply.value.hosts[0]?.origin, A, 'most pending first');
    const missing = await bg.send({ type: 'crawl/hosts', payload: { crawlId: 'nope' } });
    assert.equal(missing.ok ? null : missing.error.code, 'not-found');
  });
});
