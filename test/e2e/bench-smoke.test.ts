import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DIST_DIR, ROOT } from './helpers.ts';

/** Runs `npm run bench`'s script with `args`; resolves with its exit code and output. */
function runBench(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'test/bench/bench.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench (smoke run on tiny sites; figures are not checked)', () => {
  it('completes and writes its figures as JSON with every part it ran', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-bench-smoke-'));
    try {
      const out = join(dir, 'bench.json');
      const { code, stdout, stderr } = await runBench(['--smoke', '--pages', '30', '--rounds', '1', '--dist', DIST_DIR, '--out', out]);
      assert.equal(code, 0, stderr.slice(-2000));
      assert.match(stdout, /1\. Throughput at delay 0/);
      // --parallel is not given: part 1 runs at its default, 8 requests at once per host, and says so; part 2 at 1.
      assert.match(stdout, /Tabcrawl with 8 requests at once per host \(delay 0, no Crawl-delay\)/);
      assert.match(stdout, /2\. Politeness/);
      assert.match(stdout, /5\. Platform ceiling: what a fetch-only loop in an extension's service worker reaches here/);
      const figures = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      assert.deepEqual(Object.keys(figures).sort(), ['ceiling', 'costPerPage', 'date', 'machine', 'options', 'politeness', 'profile', 'resultsAndExport', 'throughput']);
      const throughput = figures['throughput'] as Record<string, unknown>;
      // `wget` and the ratio are null when wget is not installed.
      assert.deepEqual(Object.keys(throughput).sort(), ['pages', 'perRound', 'ratioTabcrawlToWget', 'rounds', 'tabcrawl', 'wget']);
      assert.equal(typeof (throughput['tabcrawl'] as Record<string, unknown>)['pagesPerSecond'], 'number');
      assert.equal((throughput['tabcrawl'] as Record<string, unknown>)['requestsPerHost'], 8);
      assert.equal((figures['options'] as Record<string, unknown>)['parallel'], 8);
      const politeness = figures['politeness'] as Record<string, unknown>;
      for (const key of ['pagesPerSecond', 'idealPagesPerSecond', 'ratioToIdeal', 'smallestGapMsPerHost', 'violations']) assert.ok(key in politeness, key);
      assert.equal((politeness['smallestGapMsPerHost'] as unknown[]).length, 8);
      assert.equal(politeness['requestsPerHost'], 1);
      // The mean gap split into the worker's wait and the two ways, from the stored rows' times.
      const split = politeness['meanGapSplitMs'] as Record<string, number | null>;
      assert.deepEqual(Object.keys(split), ['crawler', 'requestWay', 'responseWay']);
      assert.ok((split['crawler'] ?? 0) >= 250, `the worker waited ${String(split['crawler'])} ms`);
      assert.ok(Object.values(split).every((ms) => typeof ms === 'number' && Number.isFinite(ms)), JSON.stringify(split));
      // Part 5: a fetch-only loop in four extensions' workers and a storing one in the third's (e), at 1 and 8 at once, each of the 30 pages fetched once a run.
      const ceiling = figures['ceiling'] as {
        pages: number;
        concurrencies: number[];
        variants: Record<string, { runs: { concurrency: number; pagesPerSecond: number | null; eachPageOnce: boolean; links: number | null; urlsAdded: number | null }[] }>;
      };
      assert.equal(ceiling.pages, 30);
      assert.deepEqual(ceiling.concurrencies, [1, 8]);
      assert.deepEqual(Object.keys(ceiling.variants), ['bare', 'userAgentRule', 'webRequest', 'tabcrawl', 'minimalStore']);
      for (const [variant, { runs }] of Object.entries(ceiling.variants)) {
        assert.deepEqual(runs.map((r) => r.concurrency), [1, 8], variant);
        for (const r of runs) {
          assert.ok(typeof r.pagesPerSecond === 'number' && r.pagesPerSecond > 0, `${variant} at ${r.concurrency}: ${String(r.pagesPerSecond)}`);
          assert.equal(r.eachPageOnce, true, `${variant} at ${r.concurrency}`);
          // Only (e) stores, and it found links and added URLs to its frontier.
          if (variant === 'minimalStore') assert.ok((r.links ?? 0) > 0 && (r.urlsAdded ?? 0) > 0, `${variant} at ${r.concurrency}: ${String(r.links)} links, ${String(r.urlsAdded)} added`);
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
});
