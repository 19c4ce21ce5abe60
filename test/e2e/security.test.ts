/**
 * Security and privacy of the built extension in headless Chromium: what
 * Chrome warns at install, who can talk to it, what its pages may run,
 * whether crawl requests carry the user's cookies, host access the user
 * withheld, and crawled markup shown as text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalSite, type LocalSite, type Route } from '../../src/shells/cli/local-site.ts';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';
import { TabcrawlError } from '../../src/messaging/protocol.ts';
import { RESULTS_PAGE_PATH } from '../../src/messaging/routes.ts';
import { exportThroughPage } from '../../src/shells/cli/export-through-page.ts';
import { archiveTexts } from '../support/archive-text.ts';
import { crawlToEnd, DIST_DIR, exportRows, launch, ROOT, sleep } from './helpers.ts';

interface BuiltManifest {
  permissions?: string[];
  host_permissions?: string[];
  content_security_policy?: { extension_pages?: string };
  [key: string]: unknown;
}

const builtManifestText = (): string => readFileSync(join(DIST_DIR, 'manifest.json'), 'utf8');

/** Every file of the built extension whose name ends with one of `extensions`. */
function builtFiles(extensions: readonly string[], dir = DIST_DIR): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...builtFiles(extensions, path));
    else if (extensions.some((extension) => entry.name.endsWith(extension))) found.push(path);
  }
  return found;
}

/** The install warnings docs/security.md lists between its `install-warnings` markers. */
function readmeInstallWarnings(): string[] {
  const readme = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
  const block = /<!-- install-warnings -->([\s\S]*?)<!-- \/install-warnings -->/.exec(readme);
  assert.ok(block, 'docs/security.md has an install-warnings block');
  return [...(block[1] ?? '').matchAll(/^- "(.+)"$/gm)].map((match) => match[1] ?? '');
}

/** A page of the test sites. */
const html = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** One request as a site saw it, with the headers that carry credentials. */
interface SeenRequest {
  path: string;
  cookie: string | null;
  authorization: string | null;
}

/**
 * A site that logs the cookies of every request, sets a cookie of its own,
 * and links to a logout and a delete URL.
 */
async function startCookieSite(): Promise<LocalSite & { seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const pages: Record<string, string> = {
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': html(
      'home',
      '<a href="/account">account</a> <a href="/logout">Log out</a> <a href="/items/1/delete">delete</a> <a href="/about">about</a>',
    ),
    '/account': html('account', '<a href="/">home</a>'),
    '/about': html('about', '<a href="/">home</a>'),
    '/logout': html('logged out', 'bye'),
    '/items/1/delete': html('deleted', 'gone'),
  };
  const handler: Route = (req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, cookie: req.headers.cookie ?? null, authorization: req.headers.authorization ?? null });
    const body = pages[path];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': path.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8',
      // Set on every answer: a crawl that stores cookies would send it back.
      'set-cookie': 'site-session=from-response; Path=/; HttpOnly',
    });
    res.end(body);
  };
  const site = await startLocalSite([[() => true, handler]]);
  return Object.assign(site, { seen });
}

/** Puts a cookie for 127.0.0.1 into the browser profile, as a logged-in user would have. */
async function logIn(session: ExtensionSession): Promise<void> {
  await session.context.addCookies([
    { name: 'user-session', value: 'secret-token', domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
    { name: 'strict-session', value: 'strict-token', domain: '127.0.0.1', path: '/', sameSite: 'Strict' },
  ]);
}

/** The `developerPrivate` API of chrome://extensions, which the Site access settings use. */
async function siteAccess(session: ExtensionSession, code: string): Promise<void> {
  const page = await session.context.newPage();
  try {
    await page.goto('chrome://extensions/');
    await page.evaluate(
      async ({ id, code: call }) => {
        const api = (
          globalThis as unknown as {
            chrome: { developerPrivate: Record<string, (...args: unknown[]) => Promise<unknown>> };
          }
        ).chrome.developerPrivate;
        const [name, ...args] =
          call === 'on-click'
            ? ['updateExtensionConfiguration', { extensionId: id, hostAccess: 'ON_CLICK' }]
            : ['addHostPermission', id, call];
        const fn = api[name as string];
        if (fn === undefined) throw new Error(`no developerPrivate.${String(name)}`);
        await fn(...args);
      },
      { id: session.extensionId, code },
    );
  } finally {
    await page.close();
  }
}

describe('security and privacy of the built extension', () => {
  let session: ExtensionSession;

  before(async () => {
    session = await launch();
  });
  after(async () => {
    await session.close();
  });

  it('declares nothing externally_connectable, no content scripts, no web-accessible resources, and a strict CSP', () => {
    const manifest = JSON.parse(builtManifestText()) as BuiltManifest;
    for (const key of ['externally_connectable', 'content_scripts', 'web_accessible_resources', 'sandbox']) {
      assert.equal(manifest[key], undefined, key);
    }
    assert.equal(
      manifest.content_security_policy?.extension_pages,
      "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('ships no remote code: no remote scripts, no eval, no new Function, no string timers', () => {
    const offences: string[] = [];
    for (const file of builtFiles(['.js', '.html', '.mjs'])) {
      const text = readFileSync(file, 'utf8');
      const name = relative(DIST_DIR, file);
      const checks: [string, RegExp][] = [
        ['eval', /(^|[^\w$.])eval\s*\(/],
        ['new Function', /\bnew\s+Function\s*\(/],
        ['Function()', /(^|[^\w$.])Function\s*\(\s*['"`]/],
        ['string timer', /\bset(Timeout|Interval)\s*\(\s*['"`]/],
        ['remote import', /\bimport\s*\(\s*['"`]https?:|\bfrom\s*['"`]https?:|importScripts\s*\(\s*['"`]https?:/],
        ['remote script tag', /<script\b[^>]*\bsrc\s*=\s*["']?(https?:)?\/\//i],
      ];
      for (const [what, pattern] of checks) if (pattern.test(text)) offences.push(`${name}: ${what}`);
    }
    assert.deepEqual(offences, []);
    assert.ok(builtFiles(['.js']).length > 3, 'the scan saw the built scripts');
  });

  it('makes Chrome warn at install exactly what docs/security.md says', async () => {
    const page = await session.openPage('src/shells/options/index.html');
    try {
      const warnings = await page.evaluate(
        (text) =>
          (
            globalThis as unknown as {
              chrome: { management: { getPermissionWarningsByManifest(m: string): Promise<string[]> } };
            }
          ).chrome.management.getPermissionWarningsByManifest(text),
        builtManifestText(),
      );
      assert.deepEqual(warnings, readmeInstallWarnings());
    } finally {
      await page.close();
    }
  });

  it('cannot be messaged or framed by a web page', async () => {
    const site = await startLocalSite({
      '/': { headers: { 'content-type': 'text/html' }, body: html('a web page', '<p>hello</p>') },
    });
    const page = await session.context.newPage();
    try {
      await page.goto(`${site.origin}/`);
      const probe = await page.evaluate(async (id) => {
        const runtime = (globalThis as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime;
        let fetched: string;
        try {
          await fetch(`chrome-extension://${id}/src/shells/popup/index.html`);
          fetched = 'yes';
        } catch {
          fetched = 'refused';
        }
        const frame = document.createElement('iframe');
        frame.src = `chrome-extension://${id}/src/shells/popup/index.html`;
        document.body.append(frame);
        await new Promise((resolve) => setTimeout(resolve, 500));
        let framedScripts: number;
        try {
          framedScripts = frame.contentDocument?.querySelectorAll('script').length ?? -1;
        } catch {
          framedScripts = -2;
        }
        return {
          hasRuntime: runtime !== undefined,
          hasSendMessage: typeof runtime?.sendMessage === 'function',
          fetched,
          framedScripts,
        };
      }, session.extensionId);
      // Without externally_connectable, web pages get no chrome.runtime to message with.
      assert.deepEqual(
        { hasRuntime: probe.hasRuntime, hasSendMessage: probe.hasSendMessage },
        { hasRuntime: false, hasSendMessage: false },
      );
      // Without web_accessible_resources, its pages cannot be fetched or shown in a frame.
      assert.equal(probe.fetched, 'refused');
      assert.ok(probe.framedScripts <= 0, `framed page ran ${probe.framedScripts} scripts`);
    } finally {
      await page.close();
      await site.close();
    }
  });

  it('sends no cookies with crawl requests by default, even when the profile is logged in to the site', async () => {
    const site = await startCookieSite();
    try {
      await logIn(session);
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 0 });
      assert.equal(crawl.state, 'finished');
      assert.ok(site.seen.length >= 4, `requests: ${JSON.stringify(site.seen)}`);
      assert.deepEqual(
        site.seen.filter((request) => request.cookie !== null || request.authorization !== null),
        [],
        'no request carried a Cookie or Authorization header',
      );
      // Cookie-less crawls exclude nothing on their own: the logout link is an ordinary page then.
      assert.ok(site.seen.some((request) => request.path === '/logout'));
    } finally {
      await site.close();
    }
  });

  it('with "Crawl with my cookies", sends the profile\'s cookies and never fetches the logout or delete link', async () => {
    const site = await startCookieSite();
    try {
      await logIn(session);
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 0, withCookies: true });
      assert.equal(crawl.state, 'finished');
      const paths = site.seen.map((request) => request.path).sort();
      assert.deepEqual(paths, ['/', '/about', '/account', '/robots.txt']);
      for (const request of site.seen) {
        assert.match(request.cookie ?? '', /user-session=secret-token/, request.path);
      }
      const rows = await exportRows(session, crawl.id);
      assert.equal(
        rows.some((row) => row.url.endsWith('/logout') || row.url.endsWith('/delete')),
        false,
      );
    } finally {
      await site.close();
    }
  });

  it('with "Crawl with my cookies", writes no cookie value into the WARC, any file of the WACZ or the URL detail', async () => {
    const site = await startCookieSite();
    const out = mkdtempSync(join(tmpdir(), 'tabcrawl-cookies-'));
    try {
      await logIn(session);
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 0, withCookies: true });
      assert.equal(crawl.state, 'finished');
      assert.ok(
        site.seen.some((request) => /strict-session=strict-token/.test(request.cookie ?? '')),
        'the crawl sent the Strict cookie',
      );
      const secrets = ['secret-token', 'strict-token', 'from-response'];
      for (const format of ['warc', 'warc.gz', 'wacz'] as const) {
        const path = join(out, `site.${format}`);
        await exportThroughPage(session, crawl.id, format, path);
        const texts = await archiveTexts(readFileSync(path));
        if (format === 'wacz')
          assert.ok(
            texts.has('archive/data.warc.gz') && texts.has('tabcrawl/rows.jsonl.gz'),
            [...texts.keys()].join(', '),
          );
        for (const [entry, text] of texts) {
          for (const secret of secrets)
            assert.equal(text.includes(secret), false, `${format} ${entry} holds ${secret}`);
        }
        const warc = texts.get(format === 'wacz' ? 'archive/data.warc.gz' : '') ?? '';
        assert.match(
          warc,
          /\r\ncookie: \[removed by Tabcrawl\]\r\n/,
          `${format}: the request says it carried a Cookie`,
        );
      }

      const page = await session.openPage(
        `${RESULTS_PAGE_PATH}?${new URLSearchParams({ crawl: crawl.id, url: `${site.origin}/account` }).toString()}`,
      );
      try {
        const request = page.getByTestId('detail-request-headers');
        await request.filter({ hasText: '[removed by Tabcrawl]' }).waitFor({ timeout: 10_000 });
        const shown = `${await request.innerText()}${await page.getByTestId('detail-response-headers').innerText()}`;
        for (const secret of secrets) assert.equal(shown.includes(secret), false, `the URL detail shows ${secret}`);
      } finally {
        await page.close();
      }
    } finally {
      await site.close();
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('refuses to crawl a site whose access the user withheld in Chrome, and crawls it once access is granted', async () => {
    const own = await launch();
    const site = await startCookieSite();
    try {
      await siteAccess(own, 'on-click');
      const before = (await own.request('crawl/list', {})).crawls.length;
      await assert.rejects(
        own.request('crawl/start', { settings: { startUrl: `${site.origin}/`, delayMs: 0 } }),
        (error: unknown) =>
          error instanceof TabcrawlError &&
          error.code === 'permission-needed' &&
          /no access to http:\/\/127\.0\.0\.1/.test(error.message),
      );
      assert.equal((await own.request('crawl/list', {})).crawls.length, before, 'no crawl was stored');
      assert.deepEqual(site.seen, [], 'no request left');

      await siteAccess(own, 'http://127.0.0.1/*');
      const crawl = await crawlToEnd(own, { startUrl: `${site.origin}/`, delayMs: 0 });
      assert.equal(crawl.state, 'finished');
      assert.ok(crawl.counts.fetched >= 4, JSON.stringify(crawl.counts));
    } finally {
      await own.close();
      await site.close();
    }
  });

  it('pauses, with a message, when site access is withdrawn mid-crawl, records no error, and finishes once it is back', async () => {
    const own = await launch();
    const paths = Array.from({ length: 12 }, (_, i) => `/p${i}`);
    const html = (links: string[]): string =>
      `<!doctype html><title>t</title>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}`;
    const routes: Record<string, Route> = {
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': { headers: { 'content-type': 'text/html' }, body: html(paths) },
    };
    for (const path of paths) routes[path] = { headers: { 'content-type': 'text/html' }, body: html([]) };
    const site = await startLocalSite(routes);
    try {
      let withdrawn = false;
      const paused = await crawlToEnd(own, { startUrl: `${site.origin}/`, delayMs: 300 }, async (now) => {
        if (withdrawn || now.counts.fetched < 3) return;
        withdrawn = true;
        await siteAccess(own, 'on-click');
      });
      assert.equal(paused.state, 'paused', JSON.stringify(paused.counts));
      assert.match(
        paused.message ?? '',
        /^Paused: Tabcrawl has no access to http:\/\/127\.0\.0\.1\/\* any more\. .*resume\.$/,
      );
      const sentBeforeResume = site.requests.length;
      assert.ok(sentBeforeResume < paths.length + 2, `${sentBeforeResume} requests: the crawl stopped asking`);
      assert.deepEqual(
        (await exportRows(own, paused.id)).filter((row) => row.error !== null),
        [],
        'no URL recorded as an error',
      );

      await siteAccess(own, 'http://127.0.0.1/*');
      await own.request('crawl/resume', { crawlId: paused.id });
      for (let i = 0; i < 300; i += 1) {
        const { crawl } = await own.request('crawl/get', { crawlId: paused.id });
        if (crawl.state !== 'running') break;
        await sleep(200);
      }
      const { crawl: final } = await own.request('crawl/get', { crawlId: paused.id });
      assert.equal(final.state, 'finished', final.message ?? '');
      const rows = await exportRows(own, paused.id);
      assert.equal(rows.filter((row) => row.status === 200).length, paths.length + 1, 'every page stored once');
      // At most one request may leave between the withdrawal and its discovery (see access-guard.ts): not identified, repeated.
      const unidentified = site.requests.filter((r) => !/tabcrawl\//.test(r.userAgent ?? ''));
      assert.ok(unidentified.length <= 1, `unidentified requests: ${unidentified.map((r) => r.url).join(', ')}`);
      assert.ok(site.requests.length <= paths.length + 2 + 1, `${site.requests.length} requests`);
    } finally {
      await own.close();
      await site.close();
    }
  });

  it('refuses bad start URLs typed in the popup with a message next to the field, and stores nothing', async () => {
    const popup = await session.openPage('src/shells/popup/index.html');
    try {
      const before = (await session.request('crawl/list', {})).crawls.length;
      for (const [typed, message] of [
        ['chrome://extensions/', 'only http and https sites can be crawled, not chrome: URLs'],
        [
          'https://chromewebstore.google.com/',
          'Chrome does not let extensions read the Chrome Web Store, so it cannot be crawled',
        ],
        ['file:///etc/passwd', 'only http and https sites can be crawled, not file: URLs'],
      ] as const) {
        await popup.getByTestId('start-url').fill(typed);
        await popup.getByTestId('start').click();
        await popup.getByText(message).waitFor({ timeout: 5000 });
      }
      assert.equal((await session.request('crawl/list', {})).crawls.length, before);
    } finally {
      await popup.close();
    }
  });

  it('shows crawled markup as text in the results page, and runs none of it', async () => {
    const payload = `<img src=x onerror="document.title='PWNED';window.__pwned=1">`;
    const site = await startLocalSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      // A title is raw text in HTML: the payload is its literal text.
      '/': {
        headers: { 'content-type': 'text/html' },
        body: html(payload, '<a href="/script">&lt;script&gt;window.__pwned=2&lt;/script&gt;</a>'),
      },
      '/script': {
        headers: { 'content-type': 'text/html' },
        body: html('&lt;script&gt;window.__pwned=3&lt;/script&gt;', '<script>window.__pwned=4</script>'),
      },
    });
    try {
      const crawl = await crawlToEnd(session, { startUrl: `${site.origin}/`, delayMs: 0 });
      assert.equal(crawl.state, 'finished');
      const page = await session.openPage(`${RESULTS_PAGE_PATH}?crawl=${crawl.id}`);
      try {
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page
          .getByTestId('results-total')
          .filter({ hasText: `${crawl.counts.done} URLs` })
          .waitFor({ timeout: 10_000 });
        const home = page.locator(`[data-testid="results-row"][data-url="${site.origin}/"]`);
        await home.waitFor({ timeout: 5000 });
        assert.ok((await home.innerText()).includes(payload), await home.innerText());
        const other = page.locator(`[data-testid="results-row"][data-url="${site.origin}/script"]`);
        assert.ok((await other.innerText()).includes('<script>window.__pwned=3</script>'));

        // The detail lists the anchor text that points to /script: as text too.
        await other.click();
        await page.keyboard.press('Enter');
        await page.getByTestId('detail').waitFor({ timeout: 5000 });
        await page
          .getByTestId('inlink-anchor')
          .filter({ hasText: '<script>window.__pwned=2</script>' })
          .waitFor({ timeout: 5000 });

        const state = await page.evaluate(() => ({
          pwned: (globalThis as unknown as { __pwned?: number }).__pwned ?? null,
          title: document.title,
          strayImages: document.querySelectorAll('img[src="x"], img[onerror]').length,
          strayScripts: Array.from(document.querySelectorAll('script')).filter((script) => !script.src).length,
        }));
        assert.equal(state.pwned, null, 'no handler or script of the crawled pages ran');
        assert.notEqual(state.title, 'PWNED');
        assert.equal(state.strayImages, 0, 'no element was made from crawled markup');
        assert.equal(state.strayScripts, 0, 'no inline script was made from crawled markup');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    } finally {
      await site.close();
    }
  });
});
