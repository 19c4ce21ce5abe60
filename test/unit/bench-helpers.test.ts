import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BENCH_USAGE, parseBenchArgs } from '../bench/bench-args.ts';
import { cssUrls } from '../../src/core/links/css-urls.ts';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import {
  linkedFilePath,
  noiseBytes,
  OUTBOUND_URLS,
  outboundLinksOf,
  outboundPath,
  outboundServed,
  pageHtml,
  requestKind,
  resourceSiteCounts,
  robotsTxt,
  SHARED_RESOURCES,
  startBenchSite,
  startOutboundSite,
} from '../bench/bench-sites.ts';
import {
  busyMs,
  cpuBound,
  gapParts,
  median,
  pagesRequested,
  robotsFirstAndOnce,
  selfTimes,
  servedCounts,
  serverGaps,
  slope,
  totalTimes,
  type CpuProfile,
} from '../bench/bench-stats.ts';
import { processKind } from '../bench/process-stats.ts';
import { throughputSettings, throughputVariants, wgetPeerOf } from '../bench/part-throughput.ts';
import { WGET_PAGE_REQUISITES, WGET_PAGES_ONLY, wgetArgs } from '../bench/wget-crawl.ts';
import {
  CEILING_FETCH_OPTIONS,
  CEILING_LOOPS,
  CEILING_VARIANTS,
  STORE_LOOP_STORES,
  ceilingExtensionFiles,
  fetchLoopExpression,
  loopExpression,
  readyExpression,
  storeLoopExpression,
  summariseCeiling,
  type CeilingRun,
} from '../bench/ceiling.ts';

describe('bench arithmetic', () => {
  it('takes the median of an odd and an even count, ignoring NaN', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([Number.NaN, 5]), 5);
    assert.ok(Number.isNaN(median([])));
  });

  it('finds the least-squares slope of a heap that grows, and none for a flat one', () => {
    assert.equal(
      slope([
        { x: 0, y: 10 },
        { x: 100, y: 30 },
        { x: 200, y: 50 },
      ]),
      0.2,
    );
    assert.equal(
      slope([
        { x: 0, y: 7 },
        { x: 100, y: 7 },
      ]),
      0,
    );
    assert.ok(Number.isNaN(slope([{ x: 1, y: 1 }])));
  });

  it("measures each gap from a response's end to the next request, in arrival order, negative when two overlap", () => {
    const log = [
      { url: '/b', startedAt: 400, endedAt: 410 },
      { url: '/robots.txt', startedAt: 0, endedAt: 5 },
      { url: '/a', startedAt: 255, endedAt: 300 },
      { url: '/c', startedAt: 405, endedAt: 420 },
    ];
    assert.deepEqual(serverGaps(log), [250, 100, -5]);
    assert.deepEqual(robotsFirstAndOnce(log), { isFirst: true, count: 1 });
    assert.deepEqual([...pagesRequested(log)].sort(), ['/a', '/b', '/c']);
  });

  it("splits each server gap into the crawler's own wait and the two ways through the browser, summing to it", () => {
    const log = [
      { url: '/b', startedAt: 520, endedAt: 530 },
      { url: '/robots.txt', startedAt: 0, endedAt: 5 },
      { url: '/a', startedAt: 260, endedAt: 270 },
    ];
    // The crawler sent /a at 257 and read it at 273; sent /b at 516: it waited 243 ms, each way took 3 and 4 ms.
    const times = new Map([
      ['/a', { sentAt: 257, readAt: 273 }],
      ['/b', { sentAt: 516, readAt: 534 }],
    ]);
    const parts = gapParts(log, (path) => times.get(path));
    // robots.txt has no row: its pair (robots.txt → /a) is left out.
    assert.deepEqual(parts, { crawlerGaps: [243], requestWays: [4], responseWays: [3] });
    assert.equal(
      (parts.crawlerGaps[0] ?? 0) + (parts.requestWays[0] ?? 0) + (parts.responseWays[0] ?? 0),
      serverGaps(log)[1],
    );
  });

  it('counts self time per function from the samples, idle apart, and total time up the stack', () => {
    const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0, columnNumber: 0 });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4] },
        { id: 2, callFrame: frame('outer'), children: [3] },
        { id: 3, callFrame: frame('inner') },
        { id: 4, callFrame: frame('(idle)') },
      ],
      startTime: 0,
      endTime: 10_000,
      // Samples at 0, 1000, 4000 and 6000 µs; each lasts until the next, the last until the end.
      samples: [3, 2, 4, 3],
      timeDeltas: [0, 1000, 3000, 2000],
    };
    const self = Object.fromEntries(selfTimes(profile).map((entry) => [entry.functionName, entry.selfMs]));
    assert.deepEqual(self, { inner: 5, outer: 3, '(idle)': 2 });
    assert.equal(busyMs(profile), 8);
    const total = Object.fromEntries(totalTimes(profile).map((entry) => [entry.functionName, entry.selfMs]));
    assert.equal(total['outer'], 8);
    assert.equal(total['(root)'], 10);
  });

  it('names Chromium processes by their command line', () => {
    assert.equal(processKind('/usr/lib/chromium/chromium --user-data-dir=/tmp/x'), 'browser');
    assert.equal(processKind('chromium --type=renderer --extension-process --renderer-client-id=5'), 'extension');
    assert.equal(processKind('chromium --type=renderer --renderer-client-id=6'), 'renderer');
    assert.equal(processKind('chromium --type=utility --utility-sub-type=network.mojom.NetworkService'), 'network');
    assert.equal(processKind('chromium --type=utility --utility-sub-type=storage.mojom.StorageService'), 'storage');
    assert.equal(processKind('chromium --type=gpu-process'), 'gpu');
  });
});

describe('bench sites and peers', () => {
  it('serves pages of about 8 KB with a dozen links, some to a disallowed folder', () => {
    const html = pageHtml(49, 2000);
    assert.ok(html.length > 7000 && html.length < 9500, String(html.length));
    assert.equal(html.match(/<a href=/g)?.length, 13);
    assert.match(html, /href="\/private\/49"/);
    assert.equal(pageHtml(3, 2000).match(/<a href=/g)?.length, 12);
    assert.match(robotsTxt(0.25), /^User-agent: \*\nDisallow: \/private\/\nCrawl-delay: 0.25\n$/);
    assert.notEqual(pageHtml(0, 10, { site: 'Site 1, ' }), pageHtml(0, 10, { site: 'Site 2, ' }));
    assert.equal(/<img|<link|<script/.test(pageHtml(10, 2000)), false);
  });

  it('gives each page of a site with resources the shared stylesheet, script and images and one image of its own, as Tabcrawl reads them', () => {
    const origin = 'http://127.0.0.1:9';
    const found = extractLinks(pageHtml(3, 2000, { resources: true }), `${origin}/page/3`);
    assert.deepEqual(
      found.resources.sort(),
      ['/img/3.png', '/res/app.js', '/res/banner.jpg', '/res/logo.png', '/res/site.css']
        .map((path) => `${origin}${path}`)
        .sort(),
    );
    assert.equal(found.links.length, 12);
    // The stylesheet imports another and loads a font and a background image: seven shared resources in all.
    const sheet = SHARED_RESOURCES['/res/site.css']?.body;
    assert.equal(typeof sheet, 'string');
    const refs = cssUrls(String(sheet));
    assert.deepEqual([...refs.imports, ...refs.urls].sort(), ['/res/base.css', '/res/bg.png', '/res/font.woff2']);
    assert.equal(Object.keys(SHARED_RESOURCES).length, 7);
  });

  it('links a PDF from every 50th page from page 10 on, and uses a disallowed image on the pages that link into /private/', () => {
    const origin = 'http://127.0.0.1:9';
    assert.deepEqual([10, 60, 110].map(linkedFilePath), [
      '/files/report-10.pdf',
      '/files/report-60.pdf',
      '/files/report-110.pdf',
    ]);
    assert.equal(linkedFilePath(11), null);
    const withFile = extractLinks(pageHtml(60, 2000, { resources: true }), `${origin}/page/60`);
    assert.ok(withFile.links.some((link) => link.url === `${origin}/files/report-60.pdf`));
    const withPrivate = extractLinks(pageHtml(49, 2000, { resources: true }), `${origin}/page/49`);
    assert.ok(withPrivate.resources.includes(`${origin}/private/pixel-49.gif`));
    assert.ok(withPrivate.links.some((link) => link.url === `${origin}/private/49`));
    assert.deepEqual(resourceSiteCounts(2000), { pages: 2000, resources: 2007, files: 40, disallowedResources: 40 });
    assert.deepEqual(resourceSiteCounts(30), { pages: 30, resources: 37, files: 1, disallowedResources: 0 });
  });

  it('serves images, fonts and files as deterministic bytes that differ from one seed to the next', () => {
    const png = [0x89, 0x50, 0x4e, 0x47];
    assert.deepEqual(noiseBytes(64, 7, png), noiseBytes(64, 7, png));
    assert.notDeepEqual(noiseBytes(64, 7, png), noiseBytes(64, 8, png));
    assert.deepEqual([...noiseBytes(64, 7, png).slice(0, 4)], png);
    // Incompressible enough: no byte value takes more than a few percent of 12 KiB.
    const counts = new Map<number, number>();
    for (const byte of noiseBytes(12 * 1024, 1000)) counts.set(byte, (counts.get(byte) ?? 0) + 1);
    assert.ok(Math.max(...counts.values()) < 120, String(Math.max(...counts.values())));
  });

  it('links every page to one of 100 URLs of another host, one in ten of them broken, and counts what that host was asked', async () => {
    assert.deepEqual([0, 1, 99, 100, 250].map(outboundPath), ['/out/0', '/out/1', '/out/99', '/out/0', '/out/50']);
    assert.deepEqual([30, 2000, 50_000].map(outboundLinksOf), [30, OUTBOUND_URLS, OUTBOUND_URLS]);
    const outbound = await startOutboundSite();
    const site = await startBenchSite(3, { outboundOrigin: outbound.origin });
    try {
      const page = await (await fetch(`${site.origin}/page/2`)).text();
      const linked = extractLinks(page, `${site.origin}/page/2`).links.map((link) => link.url);
      assert.ok(linked.includes(`${outbound.origin}/out/2`), linked.join(' '));
      assert.equal((await fetch(`${outbound.origin}/robots.txt`)).status, 200);
      const statuses = await Promise.all(
        ['/out/0', '/out/9', '/out/100'].map(
          async (path) => (await fetch(`${outbound.origin}${path}`, { method: 'HEAD' })).status,
        ),
      );
      assert.deepEqual(statuses, [200, 404, 404]);
      assert.deepEqual(outboundServed(outbound), { checked: 3, requests: 4, robotsFirst: true, robotsCount: 1 });
    } finally {
      await site.close();
      await outbound.close();
    }
  });

  it('counts what a site served by kind of path, each path once, and the repeats apart', () => {
    assert.deepEqual(
      [
        '/robots.txt',
        '/',
        '/page/7',
        '/res/site.css',
        '/img/7.png',
        '/files/report-10.pdf',
        '/private/pixel-49.gif',
        '/private/49',
        '/page/x',
      ].map(requestKind),
      ['robots', 'page', 'page', 'resource', 'resource', 'file', 'disallowed', 'disallowed', 'other'],
    );
    const log = [
      '/robots.txt',
      '/',
      '/res/site.css',
      '/page/1',
      '/res/site.css',
      '/img/1.png',
      '/files/report-10.pdf',
    ].map((url, i) => ({ url, startedAt: i, endedAt: i + 0.5 }));
    assert.deepEqual(servedCounts(log, ['page', 'resource', 'file', 'disallowed'], requestKind), {
      requests: 7,
      distinct: { page: 2, resource: 2, file: 1, disallowed: 0 },
      repeated: 1,
    });
  });

  it('runs wget recursively without a depth limit or a wait, robots.txt on, with a WARC', () => {
    const args = wgetArgs('http://127.0.0.1:9/', '/tmp/w');
    assert.ok(
      args.includes('--recursive') && args.includes('--level=inf') && args.includes('--warc-file=/tmp/w/crawl'),
    );
    assert.deepEqual(args.slice(args.indexOf('-e'), args.indexOf('-e') + 2), ['-e', 'robots=on']);
    assert.equal(
      args.some((arg) => arg.startsWith('--wait') || arg.startsWith('--limit-rate')),
      false,
    );
  });

  it('runs wget pages only with the resource folders left out, or with --page-requisites, before the start URL', () => {
    assert.deepEqual(wgetArgs('http://127.0.0.1:9/', '/tmp/w', WGET_PAGES_ONLY).slice(-2), [
      '--exclude-directories=/res,/img',
      'http://127.0.0.1:9/',
    ]);
    assert.deepEqual(wgetArgs('http://127.0.0.1:9/', '/tmp/w', WGET_PAGE_REQUISITES).slice(-2), [
      '--page-requisites',
      'http://127.0.0.1:9/',
    ]);
    // The folders wget leaves out are where the site's resources are, and only them.
    for (const path of [...Object.keys(SHARED_RESOURCES), '/img/3.png']) assert.equal(requestKind(path), 'resource');
    assert.ok(Object.keys(SHARED_RESOURCES).every((path) => path.startsWith('/res/')));
  });
});

describe('bench part 1: the ways Tabcrawl crawls', () => {
  it('crawls pages only and archiving, at --parallel first and then at 1 request at once per host', () => {
    const ways = (parallel: number, resources: boolean, oneAtOnce: boolean): string[] =>
      throughputVariants(parallel, { resources, oneAtOnce }).map((v) => v.id);
    assert.deepEqual(ways(8, true, true), ['pages-8', 'archive-8', 'pages-1', 'archive-1']);
    // Only part 3 asked for (or --smoke): at --parallel only; --no-resources: pages only; --parallel 1: each way once.
    assert.deepEqual(ways(8, true, false), ['pages-8', 'archive-8']);
    assert.deepEqual(ways(8, false, true), ['pages-8', 'pages-1']);
    assert.deepEqual(ways(1, true, true), ['pages-1', 'archive-1']);
    assert.deepEqual(throughputVariants(8, { resources: true, oneAtOnce: true }).map(wgetPeerOf), [
      'pagesOnly',
      'pageRequisites',
      'pagesOnly',
      'pageRequisites',
    ]);
  });

  it('archives resources and files or neither, with room for every resource of a large site', () => {
    const [pagesOnly, archive] = throughputVariants(8, { resources: true, oneAtOnce: false });
    assert.ok(pagesOnly !== undefined && archive !== undefined);
    const off = throughputSettings('http://127.0.0.1:9/', 10_000, pagesOnly);
    const on = throughputSettings('http://127.0.0.1:9/', 10_000, archive);
    assert.deepEqual(
      [off.archiveResources, off.downloadFiles, on.archiveResources, on.downloadFiles],
      [false, false, true, true],
    );
    assert.deepEqual([on.delayMs, on.requestsPerHost], [0, 8]);
    const { resources, files } = resourceSiteCounts(10_000);
    assert.ok((on.maxResources ?? 0) >= resources + files, String(on.maxResources));
  });
});

describe('bench options', () => {
  it('defaults to 2,000 pages at 8 requests at once per host, 3 rounds, 8 hosts of 100 pages with resources at Crawl-delay 0.25 s, parts 1, 2, 3 and 5', () => {
    const parsed = parseBenchArgs([]);
    assert.equal(parsed.kind, 'run');
    if (parsed.kind !== 'run') return;
    const { pages, parallel, rounds, hosts, hostPages, resources, crawlDelaySeconds, parts, distDir, profile } =
      parsed.options;
    assert.deepEqual(
      {
        pages,
        parallel,
        rounds,
        hosts,
        hostPages,
        resources,
        crawlDelaySeconds,
        parts: [...parts].sort(),
        distDir,
        profile,
      },
      {
        pages: 2000,
        parallel: 8,
        rounds: 3,
        hosts: 8,
        hostPages: 100,
        resources: true,
        crawlDelaySeconds: 0.25,
        parts: [1, 2, 3, 5],
        distDir: null,
        profile: false,
      },
    );
  });

  it('crawls at 1 request at once per host in the first round only unless told, never in more rounds than there are, and not with --smoke', () => {
    const rounds = (args: string[]): number | string => {
      const parsed = parseBenchArgs(args);
      return parsed.kind === 'run' ? parsed.options.oneAtOnceRounds : parsed.kind;
    };
    assert.equal(rounds([]), 1);
    assert.equal(rounds(['--one-at-once-rounds', '3']), 3);
    assert.equal(rounds(['--one-at-once-rounds', '5', '--rounds', '2']), 2);
    assert.equal(rounds(['--one-at-once-rounds', '0']), 0);
    assert.equal(rounds(['--smoke']), 0);
    assert.equal(rounds(['--one-at-once-rounds', '-1']), 'usage-error');
  });

  it('runs pages only with --no-resources, part 2 then with 200 pages a host unless told', () => {
    const parsed = parseBenchArgs(['--no-resources']);
    assert.ok(parsed.kind === 'run' && !parsed.options.resources && parsed.options.hostPages === 200);
    const told = parseBenchArgs(['--no-resources', '--host-pages', '50']);
    assert.ok(told.kind === 'run' && told.options.hostPages === 50);
  });

  it('takes 10,000 pages and part 4 with --large, and only parts 1, 2 and 5 of tiny sites with --smoke', () => {
    const large = parseBenchArgs(['--large']);
    assert.ok(large.kind === 'run' && large.options.pages === 10_000);
    if (large.kind !== 'run') return;
    assert.deepEqual([...large.options.parts].sort(), [1, 2, 3, 4, 5]);
    const smoke = parseBenchArgs(['--smoke', '--pages', '30', '--rounds', '1', '--dist', '/tmp/d', '--out', 'x.json']);
    assert.ok(smoke.kind === 'run');
    if (smoke.kind !== 'run') return;
    assert.deepEqual([...smoke.options.parts].sort(), [1, 2, 5]);
    assert.equal(smoke.options.hostPages, 5);
    assert.equal(smoke.options.distDir, '/tmp/d');
    assert.equal(smoke.options.outFile, 'x.json');
  });

  it('takes --parallel from 1 (one request at a time, the old behaviour) to 16', () => {
    for (const [text, value] of [
      ['1', 1],
      ['4', 4],
      ['16', 16],
    ] as const) {
      const parsed = parseBenchArgs(['--parallel', text]);
      assert.equal(parsed.kind === 'run' && parsed.options.parallel, value, text);
    }
    const smoke = parseBenchArgs(['--smoke']);
    assert.equal(smoke.kind === 'run' && smoke.options.parallel, 8);
    for (const text of ['0', '17', 'x', '2.5', '-1']) {
      assert.deepEqual(
        parseBenchArgs([`--parallel=${text}`]),
        { kind: 'usage-error', message: `--parallel must be a whole number from 1 to 16, got '${text}'` },
        text,
      );
    }
    assert.ok(BENCH_USAGE.includes('--parallel N'));
  });

  it('takes part 5 (the platform ceiling) alone or with others in --parts', () => {
    for (const [text, parts] of [
      ['5', [5]],
      ['1,5', [1, 5]],
      ['1,2,3,4,5', [1, 2, 3, 4, 5]],
    ] as const) {
      const parsed = parseBenchArgs(['--parts', text]);
      assert.ok(parsed.kind === 'run', text);
      if (parsed.kind === 'run') assert.deepEqual([...parsed.options.parts].sort(), parts, text);
    }
    assert.deepEqual(parseBenchArgs(['--parts', '1,6']), {
      kind: 'usage-error',
      message: "--parts takes numbers from 1 to 5, got '1,6'",
    });
    assert.match(BENCH_USAGE, /5\. platform ceiling/);
    assert.match(BENCH_USAGE, /minimal storing crawler/);
    assert.match(BENCH_USAGE, /default: 1,2,3,5; 1,2,3,4,5 with --large/);
  });

  it('refuses bad values with a one-line message', () => {
    for (const argv of [
      ['--pages', 'many'],
      ['--rounds', '0'],
      ['--parallel', '0'],
      ['--parallel', '17'],
      ['--parts', '1,6'],
      ['--parts', '0'],
      ['--crawl-delay', '0'],
      ['--bogus'],
      ['extra'],
    ]) {
      const parsed = parseBenchArgs(argv);
      assert.equal(parsed.kind, 'usage-error', argv.join(' '));
      if (parsed.kind === 'usage-error') assert.doesNotMatch(parsed.message, /\n/);
    }
    assert.deepEqual(parseBenchArgs(['-h']), { kind: 'help' });
  });
});

describe('bench part 5: the platform ceiling', () => {
  it('writes minimal MV3 extensions: bare, + the User-Agent rule, + the webRequest listeners with extraHeaders', () => {
    const bare = ceilingExtensionFiles('bare');
    const manifest = JSON.parse(bare['manifest.json']) as Record<string, unknown>;
    assert.equal(manifest['manifest_version'], 3);
    assert.deepEqual(manifest['background'], { service_worker: 'sw.js' });
    assert.deepEqual(manifest['host_permissions'], ['http://127.0.0.1/*']);
    assert.deepEqual(manifest['permissions'], []);
    assert.doesNotMatch(bare['sw.js'], /chrome\./);

    const rule = ceilingExtensionFiles('userAgentRule', '1.2.3');
    assert.deepEqual((JSON.parse(rule['manifest.json']) as Record<string, unknown>)['permissions'], [
      'declarativeNetRequestWithHostAccess',
    ]);
    assert.equal((JSON.parse(rule['manifest.json']) as Record<string, unknown>)['version'], '1.2.3');
    assert.match(rule['sw.js'], /updateSessionRules/);
    assert.match(rule['sw.js'], /initiatorDomains: \[chrome\.runtime\.id\]/);
    assert.doesNotMatch(rule['sw.js'], /webRequest/);

    const wire = ceilingExtensionFiles('webRequest');
    assert.deepEqual((JSON.parse(wire['manifest.json']) as Record<string, unknown>)['permissions'], [
      'declarativeNetRequestWithHostAccess',
      'webRequest',
    ]);
    for (const event of [
      'onSendHeaders',
      'onHeadersReceived',
      'onResponseStarted',
      'onBeforeRedirect',
      'onErrorOccurred',
    ])
      assert.match(wire['sw.js'], new RegExp(`chrome\\.webRequest\\.${event}\\.addListener`), event);
    assert.match(wire['sw.js'], /\['requestHeaders', 'extraHeaders'\]/);
    assert.match(wire['sw.js'], /\['responseHeaders', 'extraHeaders'\]/);
    assert.match(wire['sw.js'], /tabId: -1, types: \['xmlhttprequest', 'other'\]/);
    assert.match(wire['sw.js'], /updateSessionRules/);
    // Plain JS a worker can run: it parses as a script.
    for (const files of [bare, rule, wire]) assert.doesNotThrow(() => new Function(files['sw.js']));
  });

  it("sends the loop as an expression (no compiled function: tsx's __name is not in the worker) with Tabcrawl's fetch options", () => {
    const loop = fetchLoopExpression(['http://127.0.0.1:9/', 'http://127.0.0.1:9/page/1'], 8);
    assert.doesNotMatch(loop, /__name/);
    assert.doesNotThrow(() => new Function(`return ${loop};`));
    assert.match(loop, /length: 8/);
    assert.ok(loop.includes(JSON.stringify(CEILING_FETCH_OPTIONS)));
    assert.deepEqual(CEILING_FETCH_OPTIONS, {
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'manual',
      referrerPolicy: 'no-referrer',
    });
    assert.doesNotThrow(() => new Function(`return ${readyExpression('http://127.0.0.1:9')};`));
  });

  it("runs (e), a minimal storing crawler, in (c)'s extension with a storing loop on raw IndexedDB", () => {
    // The extension of (c), file for file.
    assert.deepEqual(ceilingExtensionFiles('minimalStore', '1.2.3'), ceilingExtensionFiles('webRequest', '1.2.3'));
    const variant = CEILING_VARIANTS.find((v) => v.id === 'minimalStore');
    assert.ok(variant !== undefined);
    assert.equal(variant.label, '(e) (c) + minimal IndexedDB store');
    assert.equal(variant.loop, 'minimalStore');
    // (a) to (d) keep the fetch-only loop.
    assert.deepEqual(
      CEILING_VARIANTS.filter((v) => v.loop === 'fetchOnly').map((v) => v.id),
      ['bare', 'userAgentRule', 'webRequest', 'tabcrawl'],
    );
    for (const id of ['fetchOnly', 'minimalStore'] as const) assert.ok(CEILING_LOOPS[id].description.length > 0, id);

    const urls = ['http://127.0.0.1:9/', 'http://127.0.0.1:9/page/1'];
    const loop = storeLoopExpression(urls, 8);
    assert.doesNotMatch(loop, /__name/);
    assert.doesNotThrow(() => new Function(`return ${loop};`));
    assert.match(loop, /length: 8/);
    assert.ok(loop.includes(JSON.stringify(CEILING_FETCH_OPTIONS)));
    assert.ok(loop.includes(JSON.stringify(urls)));
    // Raw IndexedDB, a database of its own, deleted after; its three stores; one readwrite transaction per group.
    assert.deepEqual(STORE_LOOP_STORES, ['bodies', 'rows', 'urls']);
    assert.ok(loop.includes(JSON.stringify(STORE_LOOP_STORES)));
    for (const store of STORE_LOOP_STORES) assert.match(loop, new RegExp(`objectStore\\('${store}'\\)`), store);
    assert.match(loop, /indexedDB\.open\(/);
    assert.match(loop, /indexedDB\.deleteDatabase\(/);
    assert.doesNotMatch(loop, /Dexie/);
    assert.match(loop, /db\.transaction\(stores, 'readwrite'/);
    // Per page: the body as read, links found by href and resolved against the page, the frontier's dedupe.
    assert.match(loop, /arrayBuffer\(\)/);
    assert.match(loop, /new TextDecoder\(\)/);
    assert.match(loop, /href=/);
    assert.match(loop, /new URL\(match\[1\], url\)/);
    assert.match(loop, /frontier\.getKey\(link\)/);
    assert.match(loop, /state: 'queued'/);
    assert.match(loop, /return \{ ms, fetched: urls\.length, failures, bytes, wireEvents, links, urlsAdded \}/);
    // Each variant gets its loop.
    assert.equal(loopExpression(variant, urls, 8), loop);
    const fetchOnly = CEILING_VARIANTS.find((v) => v.id === 'webRequest');
    assert.ok(fetchOnly !== undefined);
    assert.equal(loopExpression(fetchOnly, urls, 8), fetchLoopExpression(urls, 8));
  });

  it('sums the runs up per variant and concurrency as medians, with their ratio to wget', () => {
    const run = (
      variant: CeilingRun['variant'],
      round: number,
      concurrency: number,
      pagesPerSecond: number,
    ): CeilingRun => ({
      variant,
      round,
      concurrency,
      error: null,
      ms: (100 / pagesPerSecond) * 1000,
      pagesPerSecond,
      failures: 0,
      pagesFetched: 100,
      eachPageOnce: true,
      userAgent: null,
      wireEvents: null,
      links: null,
      urlsAdded: null,
      cpuMs: null,
    });
    const runs = CEILING_VARIANTS.flatMap((v, i) => [
      run(v.id, 1, 1, 100 - i),
      run(v.id, 2, 1, 300),
      run(v.id, 3, 1, 200),
      run(v.id, 1, 8, 400),
      run(v.id, 2, 8, 600),
    ]);
    runs.push({
      ...run('bare', 4, 8, 1),
      error: 'crashed',
      pagesPerSecond: Number.NaN,
      ms: Number.NaN,
      eachPageOnce: false,
    });
    const summary = summariseCeiling(runs, [1, 8], 800);
    assert.deepEqual(Object.keys(summary), ['bare', 'userAgentRule', 'webRequest', 'tabcrawl', 'minimalStore']);
    assert.equal(summary.minimalStore.label, '(e) (c) + minimal IndexedDB store');
    assert.equal(summary.minimalStore.loop, 'minimalStore');
    assert.equal(summary.webRequest.loop, 'fetchOnly');
    assert.deepEqual(
      summary.bare.runs.map((f) => [f.concurrency, f.pagesPerSecond, f.ratioToWget]),
      [
        [1, 200, 0.25],
        [8, 500, 0.625],
      ],
    );
    // A failed round does not count in the median, but says the pages were not each fetched once.
    assert.equal(summary.bare.runs[1]?.eachPageOnce, false);
    assert.equal(summary.bare.runs[1]?.perRound.at(-1)?.error, 'crashed');
    assert.equal(summary.tabcrawl.runs[0]?.eachPageOnce, true);
    assert.equal(summariseCeiling(runs, [1], null).bare.runs[0]?.ratioToWget, null);
    // The storing loop's links and URLs added: medians of the rounds that ran, null for the fetch-only loop.
    const stored = runs.map((r) =>
      r.variant === 'minimalStore' ? { ...r, links: 1200 + r.round, urlsAdded: 102 + r.round } : r,
    );
    const storedSummary = summariseCeiling(stored, [1, 8], 800);
    assert.deepEqual(
      storedSummary.minimalStore.runs.map((f) => [f.links, f.urlsAdded]),
      [
        [1202, 104],
        [1201.5, 103.5],
      ],
    );
    assert.equal(storedSummary.minimalStore.runs[0]?.perRound[0]?.urlsAdded, 103);
    assert.deepEqual(
      storedSummary.webRequest.runs.map((f) => [f.links, f.urlsAdded]),
      [
        [null, null],
        [null, null],
      ],
    );
    // CPU per page: the median over the rounds measured of each run's CPU over its pages fetched; null when none was.
    assert.deepEqual(
      summary.bare.runs.map((f) => f.cpuMsPerPage),
      [null, null],
    );
    const timed = runs.map((r) => (r.variant === 'minimalStore' ? { ...r, cpuMs: 100 * r.round } : r));
    assert.deepEqual(
      summariseCeiling(timed, [1, 8], 800).minimalStore.runs.map((f) => f.cpuMsPerPage),
      [2, 1.5],
    );
  });
});

describe('the bound CPU puts on a rate', () => {
  it('is the cores over the CPU per page, compared with the reference and the goal', () => {
    // 10 ms a page on 2 cores: at most 200 pages/s, 0.5 of a reference of 400; 0.8 of 400 (320/s) allows 6.25 ms.
    assert.deepEqual(cpuBound(10, 2, 400, 0.8), { pagesPerSecond: 200, share: 0.5, cpuMsPerPageForGoal: 6.25 });
    assert.equal(cpuBound(5, 4, 400, 0.8).pagesPerSecond, 800);
  });
});
