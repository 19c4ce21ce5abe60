/**
 * What the background does when its worker starts (`CrawlManager.workerStarted`): a crawl that was running
 * when the browser closed is noted as resumed after a restart and goes on; a crawl started (or resumed) while
 * the worker still asks whether the browser has just started is not, however long that question takes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCrawl, RESUMED_AFTER_BROWSER_START_MESSAGE } from '../../src/core/crawl/crawl-lifecycle.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { CrawlManager } from '../../src/shells/background/crawl-manager.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { FakeSite, page } from '../support/fake-site.ts';
import { VirtualClock } from '../support/virtual-clock.ts';

const A = 'http://a.test';
const B = 'http://b.test';

function background() {
  const clock = new VirtualClock();
  const site = new FakeSite(clock);
  for (const origin of [A, B]) {
    site.route(`${origin}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\n' });
    site.route(`${origin}/`, page(['/p1', '/p2']));
    site.route(`${origin}/p1`, page([]));
    site.route(`${origin}/p2`, page([]));
  }
  const store = new MemoryCrawlStore();
  let ids = 0;
  const manager = new CrawlManager({
    store,
    fetcher: site,
    clock,
    runId: 'run',
    newId: () => `crawl-${++ids}`,
    onActiveChange: () => undefined,
  });
  /** Runs the virtual clock until no crawl is running. */
  const settle = (): Promise<void> =>
    clock.run(
      (async () => {
        while ((await store.listCrawls()).some((crawl) => crawl.state === 'running')) await clock.sleep(100);
      })(),
    );
  /** A crawl of `origin` stored as running, as a browser closed mid-crawl leaves it. */
  const leftRunning = async (origin: string, id: string): Promise<void> => {
    const checked = validateSettings({ startUrl: `${origin}/`, delayMs: 100 });
    if (!checked.ok) throw new Error('bad settings');
    await createCrawl(store, checked.settings, { id, now: clock.now() });
  };
  return { clock, site, store, manager, settle, leftRunning };
}

describe('a worker start', () => {
  it('at a browser start, notes on a crawl left running that it resumed after a restart, and finishes it', async () => {
    const bg = background();
    await bg.leftRunning(A, 'before');
    await bg.clock.run(bg.manager.workerStarted(() => Promise.resolve(true)));
    await bg.settle();
    const crawl = await bg.store.getCrawl('before');
    assert.equal(crawl?.state, 'finished');
    assert.equal(crawl?.message, RESUMED_AFTER_BROWSER_START_MESSAGE);
  });

  it('that is not a browser start (the worker was only stopped) resumes a running crawl without the note', async () => {
    const bg = background();
    await bg.leftRunning(A, 'before');
    await bg.clock.run(bg.manager.workerStarted(() => Promise.resolve(false)));
    await bg.settle();
    const crawl = await bg.store.getCrawl('before');
    assert.equal(crawl?.state, 'finished');
    assert.equal(crawl?.message, null);
  });

  it('whose question fails resumes a running crawl without the note', async () => {
    const bg = background();
    await bg.leftRunning(A, 'before');
    await bg.clock.run(bg.manager.workerStarted(() => Promise.reject(new Error('no storage.session'))));
    await bg.settle();
    assert.equal((await bg.store.getCrawl('before'))?.message, null);
  });

  it('at a browser start, does not note a crawl started while it still asks whether the browser has just started', async () => {
    const bg = background();
    await bg.leftRunning(A, 'before');
    // The question takes a while (the first start also opens and sweeps the database); the command line starts
    // its crawl as soon as the extension is up, before the answer. Four requests 1 s apart: still running then.
    const started = bg.manager.workerStarted(() => bg.clock.sleep(500).then(() => true));
    const crawl = bg.manager.start({ startUrl: `${B}/`, delayMs: 1000 });
    await bg.clock.run(Promise.all([started, crawl]));
    await bg.settle();
    const during = await bg.store.getCrawl((await crawl).id);
    assert.equal(during?.state, 'finished');
    assert.equal(during?.message, null, 'a crawl of this session was not interrupted by a restart');
    assert.equal((await bg.store.getCrawl('before'))?.message, RESUMED_AFTER_BROWSER_START_MESSAGE);
  });
});
