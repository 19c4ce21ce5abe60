import { expect } from 'chai';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { click, typeInto, waitFor } from './support/popup-harness.tsx';
import {
  CRAWL_ID,
  FakePageQueries,
  FakeRowReader,
  SITE,
  crawlRecord,
  listRowOf,
  pageRecord,
} from './support/results-fakes.ts';
import { loadResultsStyles, mountResults, type MountedResults } from './support/results-harness.tsx';

describe('results URL detail', () => {
  let view: MountedResults | undefined;

  before(async () => {
    await loadResultsStyles();
  });

  afterEach(async () => {
    await view?.unmount();
    view = undefined;
  });

  /** Mounts the view with `url`'s detail open, over these full rows. */
  async function openDetail(
    rows: PageRecord[],
    url: string,
    reader = new FakeRowReader(rows),
  ): Promise<MountedResults> {
    view = await mountResults({
      queries: new FakePageQueries(rows.map(listRowOf)),
      reader,
      crawlId: CRAWL_ID,
      initialUrl: url,
    });
    const mounted = view;
    await waitFor(() => mounted.byTestId('detail-fields'));
    return mounted;
  }

  function textsOf(mounted: MountedResults, testId: string): string[] {
    return mounted.allByTestId(testId).map((element) => element.textContent ?? '');
  }

  it('shows every recorded field and the response and request headers', async () => {
    const row = pageRecord(7, {
      url: `${SITE}/doc`,
      statusLine: 'HTTP/1.1 200 OK',
      contentLength: 5120,
      responseTimeMs: 37,
      fetchedAt: Date.UTC(2024, 0, 2, 3, 4, 5),
      depth: 2,
      referrer: `${SITE}/`,
      methods: ['HEAD', 'GET'],
      title: 'The doc',
      sha256: 'ab'.repeat(32),
      truncated: true,
      headers: [
        ['content-type', 'text/html'],
        ['set-cookie', 'a=1'],
      ],
      requestHeaders: [['user-agent', 'tabcrawl/0.1.0']],
    });
    const mounted = await openDetail([row], row.url);
    const fields = `${mounted.byTestId('detail-fields').textContent ?? ''}${mounted.byTestId('detail-fetch-fields').textContent ?? ''}`;
    for (const expected of [
      'HTTP/1.1 200 OK',
      'text/html; charset=utf-8',
      '5.0 KiB (5120 bytes)',
      '37 ms',
      'HEAD, GET',
      'The doc',
      'ab'.repeat(32),
      'yes',
    ]) {
      expect(fields).to.include(expected);
    }
    // The fetch time in the user's own time zone, the exact UTC time on hover.
    const fetchedAt = mounted.byTestId('detail-fetched-at');
    const local = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    const two = (n: number): string => String(n).padStart(2, '0');
    expect(fetchedAt.textContent).to.equal(
      `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())} ${two(local.getHours())}:${two(local.getMinutes())}:${two(local.getSeconds())}`,
    );
    expect(fetchedAt.getAttribute('title')).to.equal('2024-01-02T03:04:05.000Z');
    const responseRows = [...mounted.byTestId('detail-response-headers').querySelectorAll('tbody tr')].map(
      (tr) => tr.textContent,
    );
    expect(responseRows).to.deep.equal(['content-typetext/html', 'set-cookie[removed by Tabcrawl]']);
    expect(mounted.byTestId('detail-request-headers').querySelector('tbody tr')?.textContent).to.equal(
      'user-agenttabcrawl/0.1.0',
    );
    expect(mounted.byTestId('detail-robots').textContent).to.include('Allowed');
  });

  it('shows the names of Cookie, Authorization and Set-Cookie headers but never their values, even when a stored row holds them', async () => {
    const row = pageRecord(8, {
      url: `${SITE}/account`,
      headers: [['set-cookie', 'login=s3cr3t-set']],
      requestHeaders: [
        ['cookie', 'session=s3cr3t-cookie'],
        ['Authorization', 'Bearer s3cr3t-token'],
      ],
    });
    const mounted = await openDetail([row], row.url);
    const shown = `${mounted.byTestId('detail-response-headers').textContent ?? ''}${mounted.byTestId('detail-request-headers').textContent ?? ''}`;
    expect(shown)
      .to.include('set-cookie')
      .and.include('cookie')
      .and.include('Authorization')
      .and.include('[removed by Tabcrawl]');
    expect(shown).not.to.match(/s3cr3t/);
  });

  it('says a row came from an imported archive: captured, not fetched, and no response time unless the archive had one', async () => {
    const row = pageRecord(4, {
      url: `${SITE}/old-page`,
      source: 'archive',
      responseTimeMs: null,
      fetchedAt: Date.UTC(2019, 5, 1),
    });
    const mounted = await openDetail([row], row.url);
    const fields = mounted.byTestId('detail-fetch-fields').textContent ?? '';
    expect(mounted.byTestId('detail-source').textContent).to.include('from an archive');
    expect(fields).to.include('Captured at');
    expect(fields).not.to.include('Fetched at');
    expect(fields).to.include('— (not recorded in the archive)');
  });

  it('shows the stored body as text on request, never as markup, and finds a phrase in it', async () => {
    const sha = 'cd'.repeat(32);
    const html =
      '<!doctype html><title>Shop</title><img src=x onerror="window.__sourceRan = true">' +
      '<script>window.__sourceRan = true</script><p>Discontinued. Still discontinued.</p>';
    const row = pageRecord(3, {
      url: `${SITE}/shop`,
      contentType: 'text/html; charset=utf-8',
      contentLength: html.length,
      sha256: sha,
    });
    const reader = new FakeRowReader([row]);
    reader.bodies.set(sha, new TextEncoder().encode(html));
    const mounted = await openDetail([row], row.url, reader);
    // Read only when asked: the body of a large page is not loaded with its detail.
    expect(mounted.queryTestId('detail-source-text')).to.equal(null);
    await click(mounted.byTestId('detail-source-show'));
    await waitFor(() => mounted.byTestId('detail-source-text'));
    const pre = mounted.byTestId('detail-source-text');
    expect(pre.textContent).to.equal(html);
    // Shown as text: no element of the body was made, nothing of it ran.
    expect(pre.querySelector('img, script, p, title')).to.equal(null);
    expect((window as unknown as { __sourceRan?: boolean }).__sourceRan).to.equal(undefined);
    expect(mounted.byTestId('detail-source-about').textContent).to.contain('decoded as utf-8');
    await typeInto(mounted.byTestId<HTMLInputElement>('detail-source-search'), 'discontinued');
    expect(mounted.byTestId('detail-source-count').textContent).to.equal('2 matches');
    expect([...pre.querySelectorAll('mark')].map((m) => m.textContent)).to.deep.equal(['Discontinued', 'discontinued']);
    expect(pre.textContent).to.equal(html);
  });

  it('says when a body is binary, not stored, or gone from the store', async () => {
    const image = pageRecord(4, {
      url: `${SITE}/a.png`,
      kind: 'resource',
      contentType: 'image/png',
      sha256: 'ef'.repeat(32),
    });
    const none = pageRecord(5, { url: `${SITE}/none`, sha256: null });
    const gone = pageRecord(6, { url: `${SITE}/gone`, contentType: 'text/html', sha256: '01'.repeat(32) });
    const reader = new FakeRowReader([image, none, gone]);
    reader.bodies.set(image.sha256 ?? '', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    let mounted = await openDetail([image, none, gone], image.url, reader);
    await click(mounted.byTestId('detail-source-show'));
    await waitFor(() => mounted.byTestId('detail-source-binary'));
    expect(mounted.byTestId('detail-source-binary').textContent).to.contain('image/png');
    await view?.unmount();
    mounted = await openDetail([image, none, gone], none.url, reader);
    expect(mounted.byTestId('detail-source').textContent).to.contain('No body stored.');
    await view?.unmount();
    mounted = await openDetail([image, none, gone], gone.url, reader);
    await click(mounted.byTestId('detail-source-show'));
    await waitFor(() => expect(mounted.byTestId('detail-source').textContent).to.contain('no longer in the store'));
  });

  it('shows the robots rule of a blocked URL', async () => {
    const row = pageRecord(3, {
      url: `${SITE}/private/x`,
      status: null,
      blockedBy: 'robots',
      blockedRule: 'Disallow: /private',
      methods: [],
    });
    const mounted = await openDetail([row], row.url);
    expect(mounted.byTestId('detail-robots').textContent).to.include('Blocked by robots.txt: Disallow: /private');
  });

  it('shows the redirect chain through a URL, forward and backward, and marks a loop', async () => {
    const a = pageRecord(1, { url: `${SITE}/a`, status: 301, location: `${SITE}/b`, referrer: `${SITE}/` });
    const b = pageRecord(2, { url: `${SITE}/b`, status: 302, location: `${SITE}/c`, referrer: `${SITE}/a` });
    const c = pageRecord(3, { url: `${SITE}/c`, status: 307, location: `${SITE}/a`, referrer: `${SITE}/b` });
    const mounted = await openDetail([a, b, c], b.url);
    await waitFor(() => expect(mounted.allByTestId('chain-hop')).to.have.lengthOf(4));
    expect(textsOf(mounted, 'chain-hop')).to.deep.equal(['301 /a', '302 /b (this URL)', '307 /c', '301 /a ↺ loop']);
    expect(mounted.byTestId('chain-loop').textContent).to.include('loop');
  });

  it('ends a redirect chain at a target that was never recorded', async () => {
    const a = pageRecord(1, { url: `${SITE}/a`, status: 301, location: `${SITE}/gone` });
    const mounted = await openDetail([a], a.url);
    await waitFor(() => expect(mounted.allByTestId('chain-hop')).to.have.lengthOf(2));
    expect(textsOf(mounted, 'chain-hop')).to.deep.equal(['301 /a (this URL)', 'not crawled /gone']);
    expect(mounted.queryTestId('chain-loop')).to.equal(null);
  });

  it('lists the pages linking to the URL with their anchor text', async () => {
    const target = pageRecord(1, { url: `${SITE}/target` });
    const from = pageRecord(2, {
      url: `${SITE}/from`,
      links: [`${SITE}/x`, `${SITE}/target`],
      linkTexts: ['x', 'Read the target'],
    });
    const other = pageRecord(3, { url: `${SITE}/other`, links: [`${SITE}/x`], linkTexts: ['x'] });
    const bare = pageRecord(4, { url: `${SITE}/bare`, links: [`${SITE}/target`], linkTexts: [''] });
    const mounted = await openDetail([target, from, other, bare], target.url);
    await waitFor(() => expect(mounted.allByTestId('inlink')).to.have.lengthOf(2));
    expect(mounted.allByTestId('inlink').map((row) => row.dataset['url'])).to.deep.equal([
      `${SITE}/from`,
      `${SITE}/bare`,
    ]);
    expect(textsOf(mounted, 'inlink-anchor')).to.deep.equal(['Read the target', '']);
    expect(mounted.queryTestId('inlinks-capped')).to.equal(null);
  });

  it('scans for inlinks 500 rows at a time and stops at the first 200', async function (this: MochaContext) {
    this.timeout(10_000);
    const target = pageRecord(1, { url: `${SITE}/hub` });
    const linking = Array.from({ length: 1200 }, (_, index) =>
      pageRecord(index + 2, {
        url: `${SITE}/l${index}`,
        links: index % 2 === 0 ? [`${SITE}/hub`] : [],
        linkTexts: index % 2 === 0 ? [`hub ${index}`] : [],
      }),
    );
    const reader = new FakeRowReader([target, ...linking]);
    const mounted = await openDetail([target, ...linking], target.url, reader);
    await waitFor(() => mounted.byTestId('inlinks-capped'));
    expect(mounted.byTestId('inlinks-capped').textContent).to.include('first 200');
    expect(mounted.allByTestId('inlink')).to.have.lengthOf(200);
    expect(reader.rowsAfterCalls.map((call) => call.limit)).to.deep.equal([500]);
  });

  it("lists a page's resources with their type and status, marks the broken ones and says which were not fetched", async () => {
    const css = `${SITE}/s/site.css`;
    const logo = `${SITE}/logo.png`;
    const missing = `${SITE}/missing.png`;
    const failed = 'https://cdn.example/font.woff2';
    const blocked = `${SITE}/private/tracker.js`;
    const unfetched = `${SITE}/later.png`;
    const page = pageRecord(1, {
      url: `${SITE}/`,
      depth: 0,
      resources: [css, logo, missing, failed, blocked, unfetched],
    });
    const rows = [
      page,
      pageRecord(2, { url: css, kind: 'resource', contentType: 'text/css', title: null }),
      pageRecord(3, { url: logo, kind: 'resource', contentType: 'image/png', title: null }),
      pageRecord(4, { url: missing, kind: 'resource', status: 404, contentType: 'text/html', title: null }),
      pageRecord(5, {
        url: failed,
        kind: 'resource',
        status: null,
        contentType: null,
        error: { code: 'timeout', message: 'no answer' },
        title: null,
      }),
      pageRecord(6, {
        url: blocked,
        kind: 'resource',
        status: null,
        contentType: null,
        blockedBy: 'robots',
        blockedRule: 'Disallow: /private',
        title: null,
      }),
    ];
    const mounted = await openDetail(
      rows,
      page.url,
      new FakeRowReader(rows, crawlRecord({ settings: { ...crawlRecord().settings, archiveResources: true } })),
    );
    await waitFor(() => expect(mounted.allByTestId('resource')).to.have.lengthOf(6));
    expect(mounted.byTestId('detail-resources').querySelector('h3')?.textContent).to.equal('Page resources (6)');
    expect(mounted.allByTestId('resource').map((row) => row.dataset['url'])).to.deep.equal([
      css,
      logo,
      missing,
      failed,
      blocked,
      unfetched,
    ]);
    expect(textsOf(mounted, 'resource-status')).to.deep.equal([
      '200',
      '200',
      '404 · broken',
      'timeout · broken',
      'blocked · broken',
      'not fetched (resource budget spent, or the crawl ended first)',
    ]);
    expect(mounted.allByTestId('resource').map((row) => row.dataset['broken'])).to.deep.equal([
      'false',
      'false',
      'true',
      'true',
      'true',
      'false',
    ]);
    expect(mounted.byTestId('resources-broken').textContent).to.equal('3 broken resources');
    expect(mounted.allByTestId('resource')[1]?.textContent).to.include('image/png');
    // A page is used by nothing: no such section.
    await waitFor(() => expect(mounted.allByTestId('inlink')).to.have.lengthOf(0));
    expect(mounted.queryTestId('detail-used-by')).to.equal(null);

    // A fetched resource opens its own detail.
    const link = mounted.allByTestId('resource')[2]?.querySelector('a');
    if (!link) throw new Error('no link to the missing image');
    await click(link);
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(missing));
  });

  it('lists the pages and stylesheets that use a resource, and its own resources when it is a stylesheet', async () => {
    const font = `${SITE}/s/font.woff2`;
    const sheet = pageRecord(3, {
      url: `${SITE}/s/site.css`,
      kind: 'resource',
      contentType: 'text/css',
      title: null,
      resources: [font],
    });
    const rows = [
      pageRecord(1, { url: `${SITE}/a`, title: 'Page A', resources: [sheet.url, font] }),
      pageRecord(2, { url: `${SITE}/b`, title: 'Page B', resources: [sheet.url] }),
      sheet,
      pageRecord(4, { url: font, kind: 'resource', status: 404, contentType: 'text/html', title: null }),
      pageRecord(5, { url: `${SITE}/c`, title: 'Page C', links: [font], linkTexts: ['the font'] }),
    ];
    const mounted = await openDetail(rows, font);
    await waitFor(() => expect(mounted.allByTestId('resource-user')).to.have.lengthOf(2));
    const users = mounted.allByTestId('resource-user');
    expect(users.map((row) => row.dataset['url'])).to.deep.equal([`${SITE}/a`, sheet.url]);
    expect(users[0]?.textContent).to.include('Page A');
    expect(users[1]?.textContent).to.include('(stylesheet)');
    // Found in the same scan: the page that links to it.
    expect(mounted.allByTestId('inlink').map((row) => row.dataset['url'])).to.deep.equal([`${SITE}/c`]);
    // A resource that is not a stylesheet has no resources of its own: no such section.
    expect(mounted.queryTestId('detail-resources')).to.equal(null);

    await click(users[1]?.querySelector('a') ?? mounted.container);
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(sheet.url));
    await waitFor(() => expect(textsOf(mounted, 'resource-status')).to.deep.equal(['404 · broken']));
    await waitFor(() =>
      expect(mounted.allByTestId('resource-user').map((row) => row.dataset['url'])).to.deep.equal([
        `${SITE}/a`,
        `${SITE}/b`,
      ]),
    );
  });

  it('says a page has no resources, or that its crawl did not archive any', async () => {
    const page = pageRecord(1, { url: `${SITE}/plain` });
    const archiving = await openDetail([page], page.url);
    await waitFor(() =>
      expect(archiving.byTestId('detail-resources').textContent).to.equal('Page resources (0)No page resources.'),
    );
    await view?.unmount();
    const older = crawlRecord({ settings: { ...crawlRecord().settings, archiveResources: false } });
    const mounted = await openDetail([page], page.url, new FakeRowReader([page], older));
    await waitFor(() =>
      expect(mounted.byTestId('detail-resources').textContent).to.include('this crawl did not archive page resources'),
    );
  });

  it('says when no crawled page uses a resource', async () => {
    const image = pageRecord(1, { url: `${SITE}/orphan.png`, kind: 'resource', contentType: 'image/png', title: null });
    const mounted = await openDetail([image], image.url);
    await waitFor(() =>
      expect(mounted.byTestId('detail-used-by').textContent).to.include('No crawled page uses this resource.'),
    );
  });

  it("scans for a resource's users 500 rows at a time and stops at the first 200", async function (this: MochaContext) {
    this.timeout(10_000);
    const image = pageRecord(1, { url: `${SITE}/logo.png`, kind: 'resource', contentType: 'image/png', title: null });
    const users = Array.from({ length: 1200 }, (_, index) =>
      pageRecord(index + 2, { url: `${SITE}/u${index}`, resources: index % 2 === 0 ? [image.url] : [] }),
    );
    const reader = new FakeRowReader([image, ...users]);
    const mounted = await openDetail([image, ...users], image.url, reader);
    await waitFor(() => mounted.byTestId('users-capped'));
    expect(mounted.byTestId('users-capped').textContent).to.include('first 200');
    expect(mounted.allByTestId('resource-user')).to.have.lengthOf(200);
    expect(reader.rowsAfterCalls.map((call) => call.limit)).to.deep.equal([500]);
  });

  it('lists the outgoing links with their status, and says why uncrawled ones were not crawled', async () => {
    const page = pageRecord(1, {
      url: `${SITE}/`,
      depth: 0,
      links: [
        `${SITE}/ok`,
        `${SITE}/missing`,
        'https://elsewhere.example/',
        'http://plain.example/',
        `${SITE.replace('https:', 'http:')}/x`,
        'mailto:a@b.example',
        `${SITE}/private/p`,
        `${SITE}/never`,
      ],
      linkTexts: ['OK', 'Missing', 'Elsewhere', 'Plain', 'Insecure', 'Mail', 'Private', 'Never'],
    });
    const ok = pageRecord(2, { url: `${SITE}/ok` });
    const missing = pageRecord(3, { url: `${SITE}/missing`, status: 404 });
    const mounted = await openDetail([page, ok, missing], page.url);
    await waitFor(() => expect(mounted.allByTestId('outlink')).to.have.lengthOf(8));
    expect(textsOf(mounted, 'outlink-status')).to.deep.equal([
      '200',
      '404',
      'another site: not crawled',
      // Another site over http from an https crawl is another site (it was labelled "scheme").
      'another site: not crawled',
      'out of scope (http, the crawl is of https)',
      'not a web link (mailto:)',
      'out of scope (excluded by */private/*)',
      'not queued (page budget spent or crawl ended)',
    ]);
  });

  it('calls the links a real page makes to other sites "another site", over http or https, and lists no mailto: or javascript: link', async () => {
    const html = `<a href="http://other.example/">Other</a> <a href="https://other.example/x">Other secure</a>
      <a href="mailto:someone@site.example">Mail</a> <a href="javascript:void(0)">Script</a> <a href="/ok">OK</a>`;
    const found = extractLinks(html, `${SITE}/`).links;
    const page = pageRecord(1, {
      url: `${SITE}/`,
      depth: 0,
      links: found.map((link) => link.url),
      linkTexts: found.map((link) => link.text),
    });
    const mounted = await openDetail([page, pageRecord(2, { url: `${SITE}/ok` })], page.url);
    await waitFor(() => expect(mounted.allByTestId('outlink')).to.have.lengthOf(3));
    expect(mounted.allByTestId('outlink').map((row) => row.dataset['url'])).to.deep.equal([
      'http://other.example/',
      'https://other.example/x',
      `${SITE}/ok`,
    ]);
    expect(textsOf(mounted, 'outlink-status')).to.deep.equal([
      'another site: not crawled',
      'another site: not crawled',
      '200',
    ]);
  });

  it('says an unrecorded link is not crawled yet while the crawl runs', async () => {
    const page = pageRecord(1, { url: `${SITE}/`, depth: 0, links: [`${SITE}/later`], linkTexts: ['Later'] });
    const mounted = await openDetail([page], page.url, new FakeRowReader([page], crawlRecord({ state: 'running' })));
    await waitFor(() => expect(textsOf(mounted, 'outlink-status')).to.deep.equal(['not crawled yet']));
  });

  it('opens the detail of the row a duplicate repeats from its link', async () => {
    const original = pageRecord(1, { url: `${SITE}/original`, title: 'Original' });
    const copy = pageRecord(2, { url: `${SITE}/copy`, duplicateOf: `${SITE}/original` });
    const mounted = await openDetail([original, copy], copy.url);
    const link = mounted.byTestId<HTMLAnchorElement>('detail-duplicate-of');
    expect(link.textContent).to.equal(`${SITE}/original`);
    expect(link.getAttribute('href')).to.equal(`?crawl=${CRAWL_ID}&url=${encodeURIComponent(`${SITE}/original`)}`);
    await click(link);
    await waitFor(() => expect(mounted.byTestId('detail').dataset['url']).to.equal(`${SITE}/original`));
    await waitFor(() => expect(mounted.byTestId('detail-fields').textContent).to.include('Original'));
  });

  it('says so when the URL has no row', async () => {
    view = await mountResults({
      queries: new FakePageQueries([]),
      reader: new FakeRowReader([]),
      crawlId: CRAWL_ID,
      initialUrl: `${SITE}/nothing`,
    });
    const mounted = view;
    await waitFor(() => mounted.byTestId('detail-missing'));
  });

  it('renders markup from the row as text: titles, headers, anchors and errors create no elements', async () => {
    const hostile = '<img src=x onerror="window.__pwned = true">';
    const target = pageRecord(1, {
      url: `${SITE}/t`,
      title: hostile,
      headers: [['x-evil', hostile]],
      requestHeaders: [['x-evil', hostile]],
      error: { code: 'network', message: hostile },
      links: [`${SITE}/u`],
      linkTexts: [hostile],
      anchors: [hostile],
    });
    const from = pageRecord(2, { url: `${SITE}/from`, title: hostile, links: [`${SITE}/t`], linkTexts: [hostile] });
    const mounted = await openDetail([target, from], target.url);
    await waitFor(() => expect(mounted.allByTestId('inlink')).to.have.lengthOf(1));
    await waitFor(() => expect(mounted.allByTestId('outlink')).to.have.lengthOf(1));
    expect(mounted.byTestId('detail').textContent).to.include(hostile);
    expect(mounted.container.querySelector('img')).to.equal(null);
    expect((window as unknown as { __pwned?: boolean }).__pwned).to.equal(undefined);
  });
});
