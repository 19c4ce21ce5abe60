import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageArrivals, resourceSiteCounts } from '../bench/bench-sites.ts';
import { edgeSlopes, firstArrivals, segmentPagesFor, segmentRates, type LoggedRequest } from '../bench/bench-stats.ts';
import { linksOf } from '../bench/generated-site.ts';
import { idbSteps } from '../bench/part-cost.ts';
import { pageTimeLimitMs, type CrawlSample } from '../bench/tabcrawl-crawl.ts';
import { throughputSettings, throughputVariants } from '../bench/part-throughput.ts';

/** Page arrivals `gapsMs` apart, from 1,000 ms on. */
const arrivals = (gapsMs: readonly number[]): number[] => {
  let at = 1000;
  return [at, ...gapsMs.map((gap) => (at += gap))];
};

const request = (url: string, startedAt: number): LoggedRequest => ({ url, startedAt, endedAt: startedAt + 1 });

describe('bench: how the rate holds up as a crawl grows', () => {
  it('takes segments of 5,000 pages from 50,000 pages on, and a tenth of the site below', () => {
    assert.equal(segmentPagesFor(50_000), 5000);
    assert.equal(segmentPagesFor(200_000), 5000);
    assert.equal(segmentPagesFor(10_000), 1000);
    assert.equal(segmentPagesFor(2000), 200);
    assert.equal(segmentPagesFor(50), 5);
    assert.equal(segmentPagesFor(5), 1);
  });

  it('gives a ratio of 1 to a crawl whose pages arrive at a steady rate', () => {
    const rates = segmentRates(arrivals(new Array<number>(99).fill(10)), 10);
    assert.deepEqual(rates, {
      segmentPages: 10,
      pages: 100,
      firstPagesPerSecond: 100,
      lastPagesPerSecond: 100,
      lastOverFirst: 1,
    });
  });

  it('gives last ÷ first below 1 to a crawl that slows down, whatever order the arrivals come in', () => {
    // 50 pages 10 ms apart, then 50 pages 20 ms apart: 100 pages/s at first, 50 at the end.
    const times = arrivals([...new Array<number>(50).fill(10), ...new Array<number>(49).fill(20)]).reverse();
    const rates = segmentRates(times, 10);
    assert.equal(rates.firstPagesPerSecond, 100);
    assert.equal(rates.lastPagesPerSecond, 50);
    assert.equal(rates.lastOverFirst, 0.5);
  });

  it("counts a segment of S pages as the S intervals from its first page's arrival: a slow page after it counts, the time before it does not", () => {
    // The crawl starts whenever it starts; its first page arrives at 1,000 ms, the second 100 ms later, then one every 10 ms.
    const times = arrivals([100, ...new Array<number>(18).fill(10)]);
    const rates = segmentRates(times, 5);
    assert.equal(rates.firstPagesPerSecond, 5 / 0.14);
    assert.equal(rates.lastPagesPerSecond, 100);
  });

  it('has no rates for a crawl of no more pages than a segment', () => {
    const rates = segmentRates(arrivals(new Array<number>(9).fill(10)), 10);
    assert.ok(
      Number.isNaN(rates.firstPagesPerSecond) &&
        Number.isNaN(rates.lastPagesPerSecond) &&
        Number.isNaN(rates.lastOverFirst),
    );
  });

  it("takes each page's first request from the log, repeats, resources and robots.txt left out, each site's pages apart", () => {
    const log = [
      request('/robots.txt', 1),
      request('/', 2),
      request('/res/site.css', 3),
      request('/page/1', 5),
      request('/', 6),
      request('/img/1.png', 7),
      request('/page/2', 4),
    ];
    assert.deepEqual(
      firstArrivals(log, (path) => path === '/' || path.startsWith('/page/')),
      [2, 4, 5],
    );
    assert.deepEqual(pageArrivals([log, [request('/', 3), request('/files/report-10.pdf', 8)]]), [2, 3, 4, 5]);
  });
});

describe('bench: IndexedDB bytes per page over the first and the last tenth of a crawl', () => {
  it('gives equal slopes to storage that grows by the same bytes per page', () => {
    const points = Array.from({ length: 101 }, (_, i) => ({ x: i * 10, y: 5000 + i * 10 * 20 }));
    const { first, last } = edgeSlopes(points, 0.1);
    assert.deepEqual(
      [first, last],
      [
        { fromX: 0, toX: 100, points: 11, perX: 20 },
        { fromX: 900, toX: 1000, points: 11, perX: 20 },
      ],
    );
  });

  it('fits a slope through the jumps of a folder that fills a log and compacts it, where two samples would not', () => {
    // 20 bytes a page, plus a saw-tooth of ±300 bytes (a log filling, then compacted) every 4 samples.
    const points = Array.from({ length: 101 }, (_, i) => ({
      x: i * 10,
      y: i * 10 * 20 + ([0, 300, -300, 0][i % 4] ?? 0),
    }));
    const { first, last } = edgeSlopes(points, 0.1);
    assert.ok(Math.abs(first.perX - 20) < 2 && Math.abs(last.perX - 20) < 2, `${first.perX} ${last.perX}`);
    const twoSamples = ((points[10]?.y ?? 0) - (points[9]?.y ?? 0)) / 10;
    assert.ok(Math.abs(twoSamples - 20) > 20, String(twoSamples));
  });

  it('has no slope for an edge of one sample', () => {
    assert.ok(
      Number.isNaN(
        edgeSlopes(
          [
            { x: 0, y: 1 },
            { x: 100, y: 5 },
          ],
          0.1,
        ).first.perX,
      ),
    );
    assert.ok(Number.isNaN(edgeSlopes([], 0.1).last.perX));
  });

  it("reads the folder's samples against pages before and while the crawl ran, leaving out its end and a folder it could not read", () => {
    const sample = (phase: CrawlSample['phase'], pages: number, idbDiskBytes: number): CrawlSample => ({
      phase,
      rows: pages * 2,
      pages,
      heapBytes: null,
      idbDiskBytes,
    });
    const during = Array.from({ length: 99 }, (_, i) =>
      sample('during', (i + 1) * 20, 1000 + (i + 1) * 20 * (i < 50 ? 20 : 25)),
    );
    const steps = idbSteps([
      sample('before', 0, 1000),
      ...during,
      sample('during', 30, Number.NaN),
      sample('after', 2000, 10_000_000),
    ]);
    assert.deepEqual([steps.first.perX, steps.first.points], [20, 10]);
    assert.deepEqual([steps.last.fromX, steps.last.toX, steps.last.perX, steps.last.points], [1782, 1980, 25, 10]);
  });
});

describe('bench: a site of 50,000 pages (--pages 50000)', () => {
  it('reaches every page within 6 links of the start, and part 1 lets a crawl go far deeper and wider than that', () => {
    const pages = 50_000;
    const depth = new Int32Array(pages).fill(-1);
    depth[0] = 0;
    let level = [0];
    let deepest = 0;
    while (level.length > 0) {
      const next: number[] = [];
      for (const n of level) {
        for (const target of linksOf(n, pages)) {
          if (depth[target] !== -1) continue;
          depth[target] = (depth[n] ?? 0) + 1;
          deepest = Math.max(deepest, depth[target] ?? 0);
          next.push(target);
        }
      }
      level = next;
    }
    assert.equal(depth.indexOf(-1), -1);
    assert.equal(deepest, 6);
    const counts = resourceSiteCounts(pages);
    for (const variant of throughputVariants(8, { resources: true, oneAtOnce: true })) {
      const settings = throughputSettings('http://127.0.0.1:9/', pages, variant);
      assert.ok((settings.maxDepth ?? 0) >= 20 * deepest, variant.id);
      // Pages, the links into /private/ (blocked rows) and the PDFs linked count against maxPages; resources against maxResources.
      assert.ok((settings.maxPages ?? 0) >= counts.pages + counts.disallowedResources + counts.files, variant.id);
      assert.ok((settings.maxResources ?? 0) >= counts.resources + counts.files, variant.id);
    }
  });

  it('gives a crawl archiving a 50,000-page site hours before it is stopped as stuck', () => {
    const { pages, resources, files, disallowedResources } = resourceSiteCounts(50_000);
    assert.ok(pageTimeLimitMs(pages + resources + files + disallowedResources) > 10 * 3600_000);
  });
});
