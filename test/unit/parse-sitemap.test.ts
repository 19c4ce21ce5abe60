import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { MAX_SITEMAP_ENTRIES, parseSitemap, sitemapText } from '../../src/core/links/parse-sitemap.ts';

const SITEMAP_URL = 'https://example.com/sitemap.xml';

describe('parseSitemap', () => {
  test('reads the page URLs of a urlset', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod><priority>1.0</priority></url>
        <url><loc>https://example.com/about</loc></url>
      </urlset>`;
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL), {
      urls: ['https://example.com/', 'https://example.com/about'],
      sitemaps: [],
    });
  });

  test('reads the child sitemaps of a sitemap index', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>https://example.com/sitemap-1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
        <sitemap><loc>https://example.com/sitemap-2.xml</loc></sitemap>
      </sitemapindex>`;
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL), {
      urls: [],
      sitemaps: ['https://example.com/sitemap-1.xml.gz', 'https://example.com/sitemap-2.xml'],
    });
  });

  test('trims and entity-decodes a loc', () => {
    const xml = '<urlset><url><loc>\n   https://example.com/q?a=1&amp;b=2&#38;c=&apos;3&apos;  \n</loc></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/q?a=1&b=2&c=%273%27']);
  });

  test('reads a loc in CDATA', () => {
    const xml = '<urlset><url><loc><![CDATA[https://example.com/q?a=1&b=2]]></loc></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/q?a=1&b=2']);
  });

  test('normalizes locs', () => {
    const xml =
      '<urlset><url><loc>HTTPS://Example.COM:443/a/../b#frag</loc></url><url><loc>/relative</loc></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/b', 'https://example.com/relative']);
  });

  test('drops invalid and non-http(s) locs', () => {
    const xml = `<urlset>
      <url><loc>mailto:me@example.com</loc></url>
      <url><loc>ftp://example.com/file</loc></url>
      <url><loc>https://exa mple.com/</loc></url>
      <url><loc></loc></url>
      <url><loc>https://example.com/ok</loc></url>
    </urlset>`;
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/ok']);
  });

  test('matches element names without their namespace prefix or case', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:url><sm:loc>https://example.com/prefixed</sm:loc></sm:url>
      <URL><LOC>https://example.com/upper</LOC></URL>
    </sm:urlset>`;
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, [
      'https://example.com/prefixed',
      'https://example.com/upper',
    ]);
  });

  test('ignores locs of extensions such as images and videos', () => {
    const xml = `<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
      <url>
        <loc>https://example.com/page</loc>
        <image:image><image:loc>https://example.com/photo.jpg</image:loc></image:image>
        <video:video><video:content_loc>https://example.com/v.mp4</video:content_loc></video:video>
      </url>
    </urlset>`;
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL), { urls: ['https://example.com/page'], sitemaps: [] });
  });

  test('ignores a loc outside url and sitemap', () => {
    assert.deepEqual(parseSitemap('<urlset><loc>https://example.com/stray</loc></urlset>', SITEMAP_URL), {
      urls: [],
      sitemaps: [],
    });
  });

  test('keeps duplicates in document order', () => {
    const xml =
      '<urlset><url><loc>https://example.com/b</loc></url><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, [
      'https://example.com/b',
      'https://example.com/a',
      'https://example.com/b',
    ]);
  });

  test(`keeps at most ${MAX_SITEMAP_ENTRIES} URLs`, () => {
    const entries = Array.from(
      { length: MAX_SITEMAP_ENTRIES + 10 },
      (_, i) => `<url><loc>https://example.com/${i}</loc></url>`,
    );
    const { urls } = parseSitemap(`<urlset>${entries.join('')}</urlset>`, SITEMAP_URL);
    assert.equal(urls.length, MAX_SITEMAP_ENTRIES);
    assert.equal(urls[MAX_SITEMAP_ENTRIES - 1], `https://example.com/${MAX_SITEMAP_ENTRIES - 1}`);
  });

  test(`keeps at most ${MAX_SITEMAP_ENTRIES} sitemaps`, () => {
    const entries = Array.from(
      { length: MAX_SITEMAP_ENTRIES + 1 },
      (_, i) => `<sitemap><loc>https://example.com/s${i}.xml</loc></sitemap>`,
    );
    assert.equal(
      parseSitemap(`<sitemapindex>${entries.join('')}</sitemapindex>`, SITEMAP_URL).sitemaps.length,
      MAX_SITEMAP_ENTRIES,
    );
  });

  test('reads what it can of a truncated sitemap', () => {
    const xml = '<urlset><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/a', 'https://example.com/b']);
  });

  test('reads through a stray closing tag', () => {
    const xml =
      '<urlset><url><loc>https://example.com/a</loc></bogus></url><url><loc>https://example.com/b</loc></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, ['https://example.com/a', 'https://example.com/b']);
  });

  const garbage = [
    '',
    'not xml at all',
    '<',
    '<urlset><url><loc>',
    '<<<>>>&&&;;',
    '<html><body><a href="/x">x</a></body></html>',
    '\u0000\uFFFD',
  ];
  for (const text of garbage) {
    test(`gives nothing for ${JSON.stringify(text)} without throwing`, () => {
      assert.deepEqual(parseSitemap(text, SITEMAP_URL), { urls: [], sitemaps: [] });
    });
  }
});

describe('sitemapText', () => {
  const XML = '<urlset><url><loc>https://example.com/café</loc></url></urlset>';

  test('decodes a plain sitemap as UTF-8', async () => {
    assert.equal(await sitemapText(new TextEncoder().encode(XML)), XML);
  });

  test('drops a UTF-8 byte order mark', async () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(XML)]);
    assert.equal(await sitemapText(bytes), XML);
  });

  test('gunzips a gzipped sitemap', async () => {
    const gzipped = new Uint8Array(gzipSync(Buffer.from(XML, 'utf8')));
    assert.equal(gzipped[0], 0x1f);
    assert.equal(await sitemapText(gzipped), XML);
  });

  test('gunzips a large gzipped sitemap that parses', async () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`);
    const text = await sitemapText(new Uint8Array(gzipSync(`<urlset>${entries.join('')}</urlset>`)));
    assert.equal(parseSitemap(text, SITEMAP_URL).urls.length, 20_000);
  });

  test('decodes an empty body', async () => {
    assert.equal(await sitemapText(new Uint8Array(0)), '');
  });

  test('rejects corrupt gzip data', async () => {
    // A TypeError in browsers, a zlib Error in Node.
    const corrupt = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x01, 0x02]);
    await assert.rejects(sitemapText(corrupt), Error);
  });
});
