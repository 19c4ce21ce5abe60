/**
 * Credentials kept out of what is stored and exported (issue 27, "Hostile archives and private data"):
 * `Cookie` and `Authorization` request values never stored, `Set-Cookie` values removed from exports
 * unless asked for. The pure functions, the crawl's rows, and every export format.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED_VALUE, redactRequestHeaders, redactRow, redactSetCookies } from '../../src/core/redact-headers.ts';
import { exportCrawl } from '../../src/export/export-crawl.ts';
import { FORMATS } from '../../src/export/format-info.ts';
import { crawl, row, world } from '../support/crawl-world.ts';
import { archiveTexts } from '../support/archive-text.ts';
import { page } from '../support/fake-site.ts';

const A = 'http://a.test';
const SECRETS = ['session=s3cr3t-cookie', 'Bearer s3cr3t-token', 'Basic s3cr3t-proxy', 'login=s3cr3t-set'];

describe('redacting credentials in headers', () => {
  it('replaces the values of Cookie, Authorization and Proxy-Authorization in any case, keeping the names and the other headers', () => {
    const out = redactRequestHeaders([
      ['Cookie', 'a=1'],
      ['authorization', 'Bearer x'],
      ['Proxy-Authorization', 'Basic y'],
      ['user-agent', 'tabcrawl'],
    ]);
    assert.deepEqual(out, [
      ['Cookie', REDACTED_VALUE],
      ['authorization', REDACTED_VALUE],
      ['Proxy-Authorization', REDACTED_VALUE],
      ['user-agent', 'tabcrawl'],
    ]);
    assert.equal(redactRequestHeaders(null), null);
  });

  it('replaces the values of Set-Cookie and leaves the other response headers alone', () => {
    assert.deepEqual(
      redactSetCookies([
        ['set-cookie', 'a=1; HttpOnly'],
        ['Set-Cookie', 'b=2'],
        ['content-type', 'text/html'],
      ]),
      [
        ['set-cookie', REDACTED_VALUE],
        ['Set-Cookie', REDACTED_VALUE],
        ['content-type', 'text/html'],
      ],
    );
  });

  it('redacts a row for export, keeping Set-Cookie values only when asked, and passes a row without credentials on as it is', () => {
    const stored = {
      headers: [['set-cookie', 'a=1']] as [string, string][],
      requestHeaders: [['cookie', 'b=2']] as [string, string][],
    };
    assert.deepEqual(redactRow(stored, { keepSetCookies: false }), {
      headers: [['set-cookie', REDACTED_VALUE]],
      requestHeaders: [['cookie', REDACTED_VALUE]],
    });
    assert.deepEqual(redactRow(stored, { keepSetCookies: true }), {
      headers: [['set-cookie', 'a=1']],
      requestHeaders: [['cookie', REDACTED_VALUE]],
    });
    assert.deepEqual(stored.requestHeaders, [['cookie', 'b=2']], 'the row given is not changed');
    const clean = { headers: [['content-type', 'text/html']] as [string, string][], requestHeaders: null };
    assert.equal(redactRow(clean, { keepSetCookies: false }), clean);
  });
});

/** A crawl of one page whose request carried credentials and whose answer set a cookie. */
async function crawlWithCredentials() {
  const w = world();
  w.site.route(`${A}/robots.txt`, { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
  w.site.route(`${A}/`, {
    ...page([]),
    headers: { 'content-type': 'text/html', 'set-cookie': 'login=s3cr3t-set; HttpOnly' },
    requestHeaders: {
      'user-agent': 'fake',
      cookie: 'session=s3cr3t-cookie',
      authorization: 'Bearer s3cr3t-token',
      'proxy-authorization': 'Basic s3cr3t-proxy',
    },
  });
  const result = await crawl(w, { startUrl: `${A}/`, delayMs: 0 });
  return { w, ...result };
}

/** Every format of the crawl `c1`, as text. */
async function exportAll(w: ReturnType<typeof world>, keepSetCookies: boolean): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const { format } of FORMATS) {
    let blob: Blob | null = null;
    await exportCrawl(
      {
        request: { crawlId: 'c1', format, keepSetCookies },
        store: w.store,
        software: 'Tabcrawl test',
        now: () => new Date(0),
        save: async (saved) => {
          blob = saved;
          return 1;
        },
      },
      () => undefined,
    );
    assert.ok(blob !== null, format);
    const texts = await archiveTexts(new Uint8Array(await (blob as Blob).arrayBuffer()));
    for (const [path, text] of texts) files.set(`${format} ${path}`, text);
  }
  return files;
}

describe('a crawl whose requests carried credentials', () => {
  it('stores the Cookie, Authorization and Proxy-Authorization request headers with their values removed, and Set-Cookie as served', async () => {
    const { byUrl } = await crawlWithCredentials();
    const start = row(byUrl, `${A}/`);
    assert.deepEqual(start.requestHeaders, [
      ['user-agent', 'fake'],
      ['cookie', REDACTED_VALUE],
      ['authorization', REDACTED_VALUE],
      ['proxy-authorization', REDACTED_VALUE],
    ]);
    assert.deepEqual(
      start.headers.find(([name]) => name === 'set-cookie'),
      ['set-cookie', 'login=s3cr3t-set; HttpOnly'],
    );
  });

  it('exports no credential in any format, nor a Set-Cookie value unless asked to keep them', async () => {
    const { w } = await crawlWithCredentials();
    // A row stored before values were removed at capture (or imported) holds them: exports remove them too.
    const [stored] = await w.store.pagesAfter('c1', 0, 1000).then((rows) => rows.filter((r) => r.url === `${A}/`));
    assert.ok(stored);
    await w.store.transaction((tx) =>
      tx.putPages([
        {
          ...stored,
          requestHeaders: [
            ['cookie', 'session=s3cr3t-cookie'],
            ['authorization', 'Bearer s3cr3t-token'],
          ],
        },
      ]),
    );
    for (const [format, text] of await exportAll(w, false)) {
      for (const secret of SECRETS) assert.equal(text.includes(secret), false, `${format} holds ${secret}`);
    }
    const kept = await exportAll(w, true);
    assert.equal(kept.get('warc ')?.includes('login=s3cr3t-set'), true, 'asked for, the WARC keeps Set-Cookie values');
    for (const [format, text] of kept)
      for (const secret of SECRETS.slice(0, 3)) assert.equal(text.includes(secret), false, `${format} holds ${secret}`);
  });
});
