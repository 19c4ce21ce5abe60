/**
 * What the page limit (`maxPages`, `--max-pages`, *Max pages*) counts, and that every place naming it says so
 * in the same sentence (MAX_PAGES_COUNTS): the pages of the crawled sites, linked files, redirects, sitemaps and
 * blocked URLs among them, and not the page resources, links to other sites or robots.txt fetched beside them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_PAGES_COUNTS } from '../../src/core/setting-table.ts';
import { FIELDS } from '../../src/settings/settings-values.ts';
import { USAGE } from '../../src/shells/cli/args.ts';
import { crawl, world } from '../support/crawl-world.ts';
import { page } from '../support/fake-site.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const A = 'https://a.example';
const X = 'https://x.example';
const png = { headers: { 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };

/** `text` with every run of white space as one space. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('the page limit', () => {
  it('counts the pages of the site, a linked file, a redirect and a blocked URL among them, and not resources, links to other sites or robots.txt', async () => {
    const w = world();
    w.site.route(`${A}/robots.txt`, {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    });
    // Every page uses a stylesheet and an image and links to another site.
    const uses = `<link rel="stylesheet" href="/site.css"><img src="/logo.png"><a href="${X}/partner">partner</a>`;
    w.site.route(`${A}/`, page(['/doc.pdf', '/private/x', '/old', '/p1', '/p2', '/p3', '/p4', '/p5'], uses));
    w.site.route(`${A}/doc.pdf`, { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' });
    w.site.route(`${A}/old`, { status: 301, headers: { location: '/p9' } });
    for (const path of ['/p1', '/p2', '/p3', '/p4', '/p5', '/p9'])
      w.site.route(`${A}${path}`, page([], `${uses}<p>${path}</p>`));
    w.site.route(`${A}/site.css`, {
      headers: { 'content-type': 'text/css' },
      body: 'body { background: url(/bg.png) }',
    });
    for (const path of ['/logo.png', '/bg.png']) w.site.route(`${A}${path}`, png);
    w.site.route(`${X}/partner`, page([]));

    const { final, rows } = await crawl(w, { startUrl: `${A}/`, delayMs: 100, maxPages: 6 });
    const kinds = (...wanted: string[]): string[] =>
      rows.filter((row) => wanted.includes(row.kind)).map((row) => row.url.replace(A, ''));
    assert.deepEqual(
      kinds('page', 'file', 'sitemap').sort(),
      ['/', '/doc.pdf', '/old', '/p1', '/p2', '/private/x'],
      'six: the limit',
    );
    assert.deepEqual(kinds('file'), ['/doc.pdf']);
    assert.equal(rows.find((row) => row.url === `${A}/private/x`)?.blockedBy, 'robots');
    assert.deepEqual(kinds('resource').sort(), ['/bg.png', '/logo.png', '/site.css'], 'beside the limit');
    assert.deepEqual(kinds('external'), [`${X}/partner`], 'beside the limit');
    assert.equal(rows.length, 10, 'more URLs recorded than the limit');
    assert.equal(final?.counts.admitted, 6);
    assert.ok(!rows.some((row) => row.url.endsWith('/robots.txt')));
  });

  it('is described in the same sentence by --help, the settings form (options page and More settings) and docs/cli.md', () => {
    assert.ok(flat(USAGE).includes(`--max-pages N most pages: ${MAX_PAGES_COUNTS} (default: 500)`), 'the --help text');
    const field = FIELDS.find((spec) => spec.setting === 'maxPages');
    assert.equal(field?.help, `Most pages: ${MAX_PAGES_COUNTS}.`);
    const cliDoc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    assert.ok(
      cliDoc.includes(`| \`--max-pages N\` | most pages: ${MAX_PAGES_COUNTS} | 500 |`),
      'the row of docs/cli.md',
    );
  });
});
