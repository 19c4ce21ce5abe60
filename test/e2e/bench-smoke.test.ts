import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DIST_DIR, ROOT } from './helpers.ts';

/** Runs `npm run bench`'s script (or another bench `script`) with `args`; resolves with its exit code and output. */
function runBench(
  args: readonly string[],
  script = 'test/bench/bench.ts',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, script), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench (smoke run on tiny sites; speed figures are not checked)', () => {
  it('completes and writes its figures as JSON with every part it ran, archiving page resources politely', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-smoke-'));
    try {
      const out = join(dir, 'bench.json');
      // 50 pages: page 49 links into /private/ and uses an image there (both disallowed), page 10 links a PDF.
      const { code, stdout, stderr } = await runBench([
        '--smoke',
        '--pages',
        '50',
        '--rounds',
        '1',
        '--dist',
        DIST_DIR,
        '--out',
        out,
      ]);
      assert.equal(code, 0, stderr.slice(-2000));
      assert.match(stdout, /1\. Throughput at delay 0/);
      // --parallel is not given: part 1 runs at its default, 8 requests at once per host (--smoke: not at 1 too); part 2 at 1.
      assert.match(stdout, /Tabcrawl, with resources and files, 8 at once/);
      assert.match(stdout, /2\. Politeness/);
      assert.match(
        stdout,
        /5\. Platform ceiling: what a fetch-only loop in an extension's service worker reaches here/,
      );
      const figures = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      assert.deepEqual(Object.keys(figures).sort(), [
        'ceiling',
        'costPerPage',
        'date',
        'machine',
        'options',
        'politeness',
        'profile',
        'resultsAndExport',
        'throughput',
      ]);
      const throughput = figures['throughput'] as {
        variants: {
          id: string;
          requestsPerHost: number;
          pagesPerSecond: number | null;
          requestsPerSecond: number | null;
          pagesFetched: number;
          resourcesFetched: number;
          filesFetched: number;
          repeatedRequests: number;
          disallowedRequested: number;
          resourceRows: number;
          outboundChecked: number;
          outboundRobotsFirstAndOnce: boolean;
        }[];
        wget: Record<
          string,
          {
            pagesFetched: number;
            resourcesFetched: number;
            disallowedRequested: number;
            sameUrlsAsTabcrawl: boolean;
            outboundRequested: number;
          } | null
        > | null;
      };
      assert.equal((figures['options'] as Record<string, unknown>)['parallel'], 8);
      // Without --baseline-dist, no trace of one.
      assert.ok(!('baselineDistDir' in (figures['options'] as Record<string, unknown>)) && !('baseline' in throughput));
      // Pages only and archiving resources and files, at 8 requests at once per host.
      assert.deepEqual(
        throughput.variants.map((v) => [v.id, v.requestsPerHost]),
        [
          ['pages-8', 8],
          ['archive-8', 8],
        ],
      );
      for (const v of throughput.variants) {
        assert.ok(
          typeof v.pagesPerSecond === 'number' && v.pagesPerSecond > 0 && typeof v.requestsPerSecond === 'number',
          v.id,
        );
        assert.equal(v.pagesFetched, 50, v.id);
        // The PDF is a link: requested in both ways (only its headers are read pages only).
        assert.equal(v.filesFetched, 1, v.id);
        // Each URL once, and nothing robots.txt disallows: not /private/49, not the image page 49 uses there.
        assert.equal(v.repeatedRequests, 0, v.id);
        assert.equal(v.disallowedRequested, 0, v.id);
        // Each of the 50 pages links to another host's /out/<n>: every link checked, that host's robots.txt first and once.
        assert.equal(v.outboundChecked, 50, v.id);
        assert.equal(v.outboundRobotsFirstAndOnce, true, v.id);
        if (v.id.startsWith('archive')) {
          // Every resource fetched: the 7 shared ones (the stylesheet's @import, font and background image among
          // them) and the 50 pages' own images; the disallowed image is a row, blocked, not a request.
          assert.equal(v.resourcesFetched, 57, v.id);
          assert.equal(v.resourceRows, 58, v.id);
        } else {
          assert.equal(v.resourcesFetched, 0, v.id);
          assert.equal(v.resourceRows, 0, v.id);
        }
      }
      // wget (when installed) fetched the same URLs, pages only and with --page-requisites.
      if (throughput.wget !== null) {
        assert.equal(throughput.wget['pageRequisites']?.resourcesFetched, 57);
        assert.equal(throughput.wget['pagesOnly']?.resourcesFetched, 0);
        for (const w of Object.values(throughput.wget))
          assert.ok(
            w !== null &&
              w.sameUrlsAsTabcrawl &&
              w.pagesFetched === 50 &&
              w.disallowedRequested === 0 &&
              w.outboundRequested === 0,
            JSON.stringify(w),
          );
      }
      const politeness = figures['politeness'] as Record<string, unknown>;
      for (const key of [
        'pagesPerSecond',
        'fetchedPerSecond',
        'idealPerSecond',
        'ratioToIdeal',
        'smallestGapMsPerHost',
        'violations',
      ])
        assert.ok(key in politeness, key);
      assert.equal((politeness['smallestGapMsPerHost'] as unknown[]).length, 8);
      assert.equal(politeness['requestsPerHost'], 1);
      // Part 2 archives resources, on the pages' own hosts: each host served its 5 pages, their 5 images and the 7
      // shared resources, each once, and never two requests closer than the Crawl-delay.
      assert.equal(politeness['resources'], true);
      const round = (
        politeness['perRound'] as { fetched: number; pages: number; repeated: number; disallowedRequested: number }[]
      )[0];
      assert.deepEqual(round && [round.pages, round.fetched, round.repeated, round.disallowedRequested], [
        40,
        8 * 17,
        0,
        0,
      ]);
      assert.deepEqual(politeness['violations'], []);
      // The mean gap split into the worker's wait and the two ways, from the stored rows' times.
      const split = politeness['meanGapSplitMs'] as Record<string, number | null>;
      assert.deepEqual(Object.keys(split), ['crawler', 'requestWay', 'responseWay']);
      assert.ok((split['crawler'] ?? 0) >= 250, `the worker waited ${String(split['crawler'])} ms`);
      assert.ok(
        Object.values(split).every((ms) => typeof ms === 'number' && Number.isFinite(ms)),
        JSON.stringify(split),
      );
      // Part 5: a fetch-only loop in four extensions' workers and a storing one in the third's (e), at 1 and 8 at once, each of the 50 pages fetched once a run.
      const ceiling = figures['ceiling'] as {
        pages: number;
        concurrencies: number[];
        variants: Record<
          string,
          {
            runs: {
              concurrency: number;
              pagesPerSecond: number | null;
              eachPageOnce: boolean;
              links: number | null;
              urlsAdded: number | null;
            }[];
          }
        >;
      };
      assert.equal(ceiling.pages, 50);
      assert.deepEqual(ceiling.concurrencies, [1, 8]);
      assert.deepEqual(Object.keys(ceiling.variants), [
        'bare',
        'userAgentRule',
        'webRequest',
        'tabcrawl',
        'minimalStore',
      ]);
      for (const [variant, { runs }] of Object.entries(ceiling.variants)) {
        assert.deepEqual(
          runs.map((r) => r.concurrency),
          [1, 8],
          variant,
        );
        for (const r of runs) {
          assert.ok(
            typeof r.pagesPerSecond === 'number' && r.pagesPerSecond > 0,
            `${variant} at ${r.concurrency}: ${String(r.pagesPerSecond)}`,
          );
          assert.equal(r.eachPageOnce, true, `${variant} at ${r.concurrency}`);
          // Only (e) stores, and it found links and added URLs to its frontier.
          if (variant === 'minimalStore')
            assert.ok(
              (r.links ?? 0) > 0 && (r.urlsAdded ?? 0) > 0,
              `${variant} at ${r.concurrency}: ${String(r.links)} links, ${String(r.urlsAdded)} added`,
            );
          else assert.deepEqual([r.links, r.urlsAdded], [null, null], variant);
        }
      }
      // Parts 3 and 4 are skipped by --smoke.
      assert.equal(figures['costPerPage'], null);
      assert.equal(figures['resultsAndExport'], null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with --baseline-dist, crawls each way with both builds, alternating, and writes their pages/s and ratio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-smoke-'));
    try {
      const out = join(dir, 'bench.json');
      // The same build as its own baseline: only the comparison's plumbing is checked, not the figures.
      const { code, stdout, stderr } = await runBench([
        '--smoke',
        '--parts',
        '1',
        '--no-resources',
        '--pages',
        '20',
        '--rounds',
        '2',
        '--dist',
        DIST_DIR,
        '--baseline-dist',
        DIST_DIR,
        '--out',
        out,
      ]);
      assert.equal(code, 0, stderr.slice(-2000));
      assert.match(stdout, /against the baseline build/);
      assert.match(stdout, /this ÷ baseline/);
      const figures = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      const throughput = figures['throughput'] as {
        variants: { id: string; pagesFetched: number }[];
        baseline: {
          distDir: string;
          variants: {
            id: string;
            rounds: number;
            pagesPerSecond: number | null;
            baselinePagesPerSecond: number | null;
            ratioToBaseline: number | null;
          }[];
          perRound: {
            round: number;
            order: string;
            variants: { id: string; baselineState: string; baselinePagesFetched: number }[];
          }[];
        };
      };
      assert.deepEqual(
        throughput.variants.map((v) => v.id),
        ['pages-8'],
      );
      assert.deepEqual(
        throughput.baseline.variants.map((v) => [v.id, v.rounds]),
        [['pages-8', 2]],
      );
      for (const v of throughput.baseline.variants) {
        for (const value of [v.pagesPerSecond, v.baselinePagesPerSecond, v.ratioToBaseline])
          assert.ok(typeof value === 'number' && value > 0, JSON.stringify(v));
      }
      assert.deepEqual(
        throughput.baseline.perRound.map((r) => [r.round, r.order]),
        [
          [1, 'this build, baseline'],
          [2, 'baseline, this build'],
        ],
      );
      for (const r of throughput.baseline.perRound)
        for (const v of r.variants)
          assert.equal(v.baselinePagesFetched, throughput.variants[0]?.pagesFetched, `round ${r.round}`);
      assert.equal((figures['options'] as Record<string, unknown>)['baselineDistDir'], DIST_DIR);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("part 4's export bench: crawls, exports a WACZ and imports it in a fresh browser, every row back", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-smoke-'));
    try {
      const out = join(dir, 'export.json');
      const { code, stdout, stderr } = await runBench(
        ['--pages', '50', '--dist', DIST_DIR, '--out', out],
        'test/bench/export-bench.ts',
      );
      assert.equal(code, 0, stderr.slice(-2000));
      assert.match(stdout, /importRowsPerSecond/);
      const figures = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      assert.ok(!('importError' in figures), String(figures['importError']));
      // 50 pages, /private/49 (blocked), 58 resources (one blocked), 1 PDF: every row back from the WACZ.
      assert.equal(figures['rows'], 110);
      assert.equal(figures['importRows'], figures['rows']);
      assert.equal(figures['importWarnings'], 0);
      // warcinfo, a request and a response per fetched URL, metadata records.
      const types = figures['importRecordTypes'] as Record<string, number>;
      assert.equal(types['warcinfo'], 1);
      assert.ok((types['response'] ?? 0) >= 100 && types['request'] === types['response'], JSON.stringify(types));
      assert.equal(
        figures['importRecords'],
        Object.values(types).reduce((a, b) => a + b, 0),
      );
      for (const key of [
        'importSeconds',
        'importRecordsPerSecond',
        'importRowsPerSecond',
        'importMiBPerSecond',
        'browserPssBeforeImportMiB',
        'browserPeakPssDuringImportMiB',
      ]) {
        assert.ok(typeof figures[key] === 'number' && (figures[key] as number) > 0, `${key}: ${String(figures[key])}`);
      }
      assert.ok(
        (figures['browserPeakPssDuringImportMiB'] as number) >= (figures['browserPssBeforeImportMiB'] as number),
      );
      assert.ok(typeof figures['importIndexedDbGrowthMiB'] === 'number');
      // The export's CPU over every process, and the rate that bounds on this machine's cores.
      assert.ok((figures['exportCpuMsPerRow'] as number) > 0, String(figures['exportCpuMsPerRow']));
      assert.ok(
        (figures['exportRowsPerSecondIfEveryCoreBusy'] as number) > 0,
        String(figures['exportRowsPerSecondIfEveryCoreBusy']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
