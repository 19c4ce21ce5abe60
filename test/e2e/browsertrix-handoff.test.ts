/**
 * The hand-off to Browsertrix Crawler end to end (issue 18): `npm run crawl` crawls two local
 * sites (the second named with --also, a third only linked to, so checked) with a path prefix and
 * an exclude pattern, and writes `--browsertrix-config`. The config passes Browsertrix 1.14.1's
 * option list, sends the User-Agent the sites saw, and its regexes judge every URL the crawl
 * recorded and every link its pages hold as Tabcrawl's scope did: pages in, links to other
 * sites and excluded URLs out, on the URLs as written and as Browsertrix normalizes them. And the
 * *Browsertrix config* buttons of the built extension save that config through Chromium's downloads.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parse } from 'yaml';
import { validateSettings } from '../../src/core/settings.ts';
import { createScope } from '../../src/core/url/scope.ts';
import { browsertrixConfigYaml } from '../../src/handoff/browsertrix-config.ts';
import { resultsPagePath } from '../../src/messaging/routes.ts';
import { findChromium } from '../../src/shells/cli/chromium.ts';
import { launchExtension, type ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { startLocalSite, type LocalSite } from '../../src/shells/cli/local-site.ts';
import { admits, browsertrixNormalized, configProblems, scopeOf } from '../support/browsertrix-options.ts';
import { crawlToEnd, DIST_DIR, ROOT, sleep } from './helpers.ts';

const page = (...links: string[]): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>page</title></head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join('\n')}</body></html>`,
});

/** Runs `npm run crawl -- ...args` as a user would; resolves with the exit code and stderr. */
function crawlCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['src/shells/cli/main.ts', ...args], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

interface Row {
  url: string;
  kind: string;
  links: string[];
  blockedBy: string | null;
}

describe('a crawl handed to Browsertrix Crawler', () => {
  let other: LocalSite;
  let extra: LocalSite;
  let site: LocalSite;
  let out: string;
  let config: Record<string, unknown>;
  let rows: Row[];
  let args: string[];

  before(async () => {
    other = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/page': page(),
    });
    extra = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/': page('/b1', `${other.origin}/page`),
      '/b1': page('/'),
    });
    site = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /docs/private\n' },
      '/docs/': page(
        '/docs/a',
        '/docs/a?x=1#top',
        '/docs/skip-me',
        '/docs/private',
        '/blog/',
        `${extra.origin}/`,
        `${other.origin}/page`,
        '/docs/caf%C3%A9',
      ),
      '/docs/a': page('/docs/b', '../blog/post'),
      '/docs/b': page('/docs/'),
      '/docs/caf%C3%A9': page('/docs/'),
      '/docs/skip-me': page(),
      '/blog/': page(),
    });
    out = mkdtempSync(join(tmpdir(), 'tabcrawl-handoff-'));
    args = [
      `${site.origin}/docs/`,
      '--prefix',
      '/docs/',
      '--exclude',
      '*/docs/skip*',
      '--also',
      extra.origin,
      '--delay',
      '0.3',
      '--max-pages',
      '40',
      '--max-depth',
      '5',
      '--agent',
      'HandoffBot',
    ];
    const run = await crawlCli([
      ...args,
      '--out',
      join(out, 'crawl.jsonl'),
      '--browsertrix-config',
      join(out, 'crawl-config.yaml'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /wrote the Browsertrix Crawler config to .*crawl-config\.yaml/);
    config = parse(readFileSync(join(out, 'crawl-config.yaml'), 'utf8')) as Record<string, unknown>;
    rows = readFileSync(join(out, 'crawl.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
  });

  after(async () => {
    await Promise.all([site?.close(), extra?.close(), other?.close()]);
    if (out !== undefined) rmSync(out, { recursive: true, force: true });
  });

  it("is a config Browsertrix 1.14.1 takes, with the crawl's seeds, limits, agent and politeness", () => {
    assert.deepEqual(configProblems(config), []);
    assert.deepEqual(config['seeds'], [{ url: `${site.origin}/docs/` }, { url: `${extra.origin}/` }]);
    assert.equal(config['scopeType'], 'custom');
    assert.equal(config['depth'], 5);
    assert.equal(config['pageLimit'], 40);
    assert.equal(config['robotsAgent'], 'HandoffBot');
    assert.equal(config['useRobots'], true);
    assert.equal(config['workers'], 1);
    assert.equal(config['pageExtraDelay'], 1, '0.3 s rounds up to 1 s');
  });

  it('sends the User-Agent the sites saw from the extension', () => {
    const agents = new Set(site.requests.map((request) => request.userAgent));
    assert.deepEqual([...agents], [config['userAgent']]);
  });

  it("admits every page the crawl recorded and rejects the links to other sites, as Tabcrawl's scope did", () => {
    const scope = scopeOf(config);
    const checked = validateSettings({
      startUrl: `${site.origin}/docs/`,
      pathPrefix: '/docs/',
      excludePatterns: ['*/docs/skip*'],
      extraOrigins: [extra.origin],
    });
    assert.ok(checked.ok);
    const tabcrawl = createScope(checked.settings);
    const pages = rows.filter((row) => row.kind === 'page');
    const external = rows.filter((row) => row.kind === 'external');
    assert.ok(pages.length >= 7, `pages: ${pages.map((row) => row.url).join(' ')}`);
    assert.ok(
      pages.some((row) => row.url.startsWith(extra.origin)),
      'the extra site was crawled',
    );
    assert.ok(
      pages.some((row) => row.blockedBy === 'robots'),
      'a page blocked by robots.txt is in scope too',
    );
    assert.deepEqual(
      external.map((row) => row.url),
      [`${other.origin}/page`],
    );
    for (const row of pages) {
      assert.equal(admits(scope, row.url), true, `${row.url} is a page of the crawl`);
      assert.equal(admits(scope, browsertrixNormalized(row.url)), true, `${row.url} as Browsertrix normalizes it`);
    }
    for (const row of external) assert.equal(admits(scope, row.url), false, `${row.url} is on another site`);
    // Every link the pages hold, in scope or not, judged alike; and the variants of the sites.
    const links = new Set(rows.flatMap((row) => row.links));
    for (const url of [`${site.origin}/blog/`, `${site.origin}/docs/skip-me`])
      assert.ok(links.has(url), `the pages link to ${url}`);
    const variants = [
      `${site.origin.replace('127.0.0.1', 'localhost')}/docs/a`,
      `${site.origin.replace('http:', 'https:')}/docs/a`,
      `${extra.origin.replace('http:', 'https:')}/b1`,
    ];
    for (const url of [...links, ...variants]) {
      const expected = tabcrawl.check(url).inScope;
      assert.equal(admits(scope, url), expected, `${url}: Tabcrawl says ${expected ? 'in' : 'out of'} scope`);
      assert.equal(admits(scope, browsertrixNormalized(url)), expected, `${url} as Browsertrix normalizes it`);
    }
    assert.equal(admits(scope, `${site.origin}/docs/skip-me`), false, 'excluded');
    assert.equal(admits(scope, `${site.origin}/blog/`), false, 'outside the path prefix');
    assert.equal(
      site.requests.some((request) => request.url === '/docs/skip-me' || request.url === '/blog/'),
      false,
      'nor did Tabcrawl fetch them',
    );
  });
});

describe('the Browsertrix config buttons of the built extension', () => {
  let session: ExtensionSession;
  let site: LocalSite;
  let downloads: string;

  before(async () => {
    downloads = mkdtempSync(join(tmpdir(), 'tabcrawl-handoff-downloads-'));
    session = await launchExtension({
      distDir: DIST_DIR,
      chromePath: findChromium(process.env),
      copyDist: true,
      downloadDir: downloads,
    });
    site = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
      '/': page('/a'),
      '/a': page('/'),
    });
  });
  after(async () => {
    await session?.close();
    await site?.close();
    if (downloads !== undefined) rmSync(downloads, { recursive: true, force: true });
  });

  /**
   * The files in the downloads folder once Chromium reports `count` downloads complete. The file can be
   * on disk, empty, before the download has finished writing it, so its name alone is not enough.
   */
  async function downloaded(page: Page, count: number): Promise<string[]> {
    for (let waited = 0; waited < 10_000; waited += 100) {
      const complete = await page.evaluate(async () => {
        const api = (
          globalThis as unknown as { chrome: { downloads: { search(query: { state: string }): Promise<unknown[]> } } }
        ).chrome;
        return (await api.downloads.search({ state: 'complete' })).length;
      });
      const files = readdirSync(downloads).filter((name) => !name.endsWith('.crdownload'));
      if (complete >= count && files.length >= count) return files.sort();
      await sleep(100);
    }
    throw new Error(`fewer than ${count} complete downloads: ${readdirSync(downloads).join(', ')}`);
  }

  it("the results tab and the popup's Crawls view each save the crawl's config, as the command line writes it", async () => {
    const crawl = await crawlToEnd(session, {
      startUrl: `${site.origin}/`,
      delayMs: 100,
      excludePatterns: ['*/never*'],
    });
    assert.equal(crawl.state, 'finished');
    const manifest = JSON.parse(readFileSync(join(DIST_DIR, 'manifest.json'), 'utf8')) as { version: string };
    const expected = browsertrixConfigYaml({
      settings: crawl.settings,
      version: manifest.version,
      createdAt: crawl.createdAt,
    });

    // Playwright keeps downloads under names of its own: the contents are checked here, the names in
    // test/browser/browsertrix-config.test.tsx.
    const results = await session.openPage(resultsPagePath(crawl.id));
    await results.getByTestId('results-browsertrix-config').click();
    const [first] = await downloaded(results, 1);
    assert.equal(readFileSync(join(downloads, first ?? ''), 'utf8'), expected);

    const popup = await session.openPage('src/shells/popup/index.html');
    await popup.setViewportSize({ width: 400, height: 700 });
    await popup.getByTestId('view-crawls').click();
    await popup.getByTestId('browsertrix-config').click();
    const second = (await downloaded(popup, 2)).find((file) => file !== first) ?? '';
    assert.equal(readFileSync(join(downloads, second), 'utf8'), expected);
    assert.deepEqual(configProblems(parse(expected) as Record<string, unknown>), []);
  });
});
