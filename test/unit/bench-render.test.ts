import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BENCH_USAGE, parseBenchArgs } from '../bench/bench-args.ts';
import { crawleeChromiumArgs } from '../bench/crawlee-crawl.ts';
import { RENDERS_AT_ONCE, renderOrder, renderTimeLimitMs, roundRatios } from '../bench/part-render.ts';
import { lacksRenderOption, tabcrawlRenderArgs, type ChildRun } from '../bench/render-crawlers.ts';
import { chromiumTreePssBytes, isChromiumCommand, tenths, type MemorySample } from '../bench/render-memory.ts';

describe("the bench's rendered part", () => {
  it('runs with --parts render, alone or with numbered parts, on 500 pages unless told, and is not in the default parts', () => {
    const alone = parseBenchArgs(['--parts', 'render']);
    assert.ok(alone.kind === 'run');
    if (alone.kind !== 'run') return;
    assert.deepEqual([...alone.options.parts], ['render']);
    assert.equal(alone.options.renderPages, 500);
    const mixed = parseBenchArgs(['--parts', '2,render', '--render-pages', '40']);
    assert.ok(mixed.kind === 'run' && mixed.options.parts.has(2) && mixed.options.parts.has('render'));
    assert.equal(mixed.kind === 'run' && mixed.options.renderPages, 40);
    const byDefault = parseBenchArgs([]);
    assert.ok(byDefault.kind === 'run' && !byDefault.options.parts.has('render'));
    assert.equal(parseBenchArgs(['--render-pages', '1']).kind, 'usage-error');
    assert.match(BENCH_USAGE, /--render-pages N/);
  });

  it("crawls with Tabcrawl's command line rendering every page at delay 0, with room for every page", () => {
    const args = tabcrawlRenderArgs('http://127.0.0.1:9/', 500);
    assert.equal(args[1], 'http://127.0.0.1:9/');
    const value = (flag: string): string | undefined => args[args.indexOf(flag) + 1];
    assert.equal(value('--render'), 'always');
    assert.equal(value('--delay'), '0');
    assert.ok(Number(value('--max-pages')) >= 500);
    assert.ok(renderTimeLimitMs(500) >= 500 * 1000);
  });

  it('tells a build without --render from a crawl that failed', () => {
    const run = (exitCode: number, stderrTail: string): ChildRun => ({
      exitCode,
      timedOut: false,
      wallMs: 1,
      stdout: '',
      stderrTail,
      memory: [],
    });
    assert.equal(lacksRenderOption(run(2, "tabcrawl: unknown option '--render'\nrun with --help\n")), true);
    assert.equal(lacksRenderOption(run(1, 'net::ERR_CONNECTION_REFUSED')), false);
    assert.equal(lacksRenderOption(run(2, "unknown option '--bogus'")), false);
  });

  it('alternates which crawler goes first and takes the ratio within each round where both crawled', () => {
    assert.deepEqual([1, 2, 3].map(renderOrder), [
      ['tabcrawl', 'crawlee'],
      ['crawlee', 'tabcrawl'],
      ['tabcrawl', 'crawlee'],
    ]);
    const ratios = roundRatios([
      { crawler: 'tabcrawl', round: 1, pagesPerSecond: 2 },
      { crawler: 'crawlee', round: 1, pagesPerSecond: 4 },
      { crawler: 'crawlee', round: 2, pagesPerSecond: 1 },
      { crawler: 'tabcrawl', round: 2, pagesPerSecond: 1.5 },
      { crawler: 'crawlee', round: 3, pagesPerSecond: 1 },
    ]);
    assert.deepEqual(ratios, [0.5, 1.5]);
    assert.equal(RENDERS_AT_ONCE, 1);
  });

  it("gives Crawlee's Chromium the quiet flags Tabcrawl's gets, and no sandbox only as root", () => {
    assert.ok(crawleeChromiumArgs(true).includes('--no-sandbox'));
    assert.ok(!crawleeChromiumArgs(false).includes('--no-sandbox'));
    assert.ok(crawleeChromiumArgs(false).includes('--disable-background-networking'));
  });

  it("counts Chromium's processes by their program, and none under a process without a browser", () => {
    assert.equal(isChromiumCommand('/usr/lib/chromium/chromium\0--type=renderer\0'), true);
    assert.equal(isChromiumCommand('/usr/bin/chromium\0--headless\0'), true);
    assert.equal(isChromiumCommand('/usr/bin/node\0/work/x/chromium.ts\0'), false);
    // Chromium's children rewrite their title: one string, the arguments separated by spaces (as read here).
    assert.equal(isChromiumCommand('/usr/lib/chromium/chromium --type=renderer --lang=en-US'), true);
    assert.equal(isChromiumCommand('/usr/bin/node /work/x/chromium.ts'), false);
    assert.equal(chromiumTreePssBytes(process.pid), 0);
  });

  it('compares the mean memory of the first and last tenth of the crawl, leaving out readings without a browser', () => {
    const samples = Array.from({ length: 100 }, (_, i): MemorySample => {
      const bytes = i === 50 ? 0 : 100 + i;
      // The extension's processes hold 100 throughout; a renderer the rest, from the 11th reading on.
      return {
        at: 1000 + i * 10,
        bytes,
        byKind: i < 10 ? { extension: bytes } : { extension: 100, renderer: bytes - 100 },
      };
    });
    const memory = tenths([{ at: 0, bytes: 999, byKind: { browser: 999 } }, ...samples], 1000, 1990);
    // A tenth is 99 ms: readings 0 to 9 (at 1000 to 1090 ms) and 90 to 99 (at 1900 to 1990 ms).
    assert.equal(memory.firstTenthBytes, 104.5);
    assert.equal(memory.lastTenthBytes, 194.5);
    assert.equal(memory.ratio, memory.lastTenthBytes / memory.firstTenthBytes);
    assert.equal(memory.peakBytes, 199);
    assert.equal(memory.samples, 99);
    // Each tenth's mean, for the shape of the curve: the sixth (1495 to 1594 ms) without the reading of 0.
    assert.equal(memory.byTenthBytes.length, 10);
    assert.equal(memory.byTenthBytes[0], 104.5);
    assert.equal(memory.byTenthBytes[5], 155);
    assert.equal(memory.byTenthBytes[9], 194.5);
    // By process kind: the rise is in the renderer processes, absent (0) from the first tenth.
    assert.deepEqual(Object.keys(memory.byKindByTenthBytes).sort(), ['extension', 'renderer']);
    assert.equal(memory.byKindByTenthBytes.extension?.[0], 104.5);
    assert.equal(memory.byKindByTenthBytes.extension?.[9], 100);
    assert.equal(memory.byKindByTenthBytes.renderer?.[0], 0);
    assert.equal(memory.byKindByTenthBytes.renderer?.[9], 94.5);
    assert.ok(Number.isNaN(tenths([], 0, 10).ratio));
  });
});
