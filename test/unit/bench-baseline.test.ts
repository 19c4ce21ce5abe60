import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BENCH_USAGE, parseBenchArgs } from '../bench/bench-args.ts';
import {
  baselineTableRows,
  buildOrderOfRound,
  buildOrderText,
  compareToBaseline,
  ratiosToBaseline,
  type RoundPair,
} from '../bench/baseline-compare.ts';

const pair = (thisRate: number, baselineRate: number) => ({ this: thisRate, baseline: baselineRate });

describe('bench --baseline-dist: the option', () => {
  const builtHere = (dir: string): boolean => dir === '/tmp/base/dist/chrome';

  it('takes a folder that holds a built extension, and runs without a baseline when not given', () => {
    const parsed = parseBenchArgs(['--parts', '1', '--baseline-dist', '/tmp/base/dist/chrome'], builtHere);
    assert.ok(parsed.kind === 'run');
    if (parsed.kind === 'run') assert.equal(parsed.options.baselineDistDir, '/tmp/base/dist/chrome');
    const without = parseBenchArgs([], builtHere);
    assert.ok(without.kind === 'run' && without.options.baselineDistDir === null);
  });

  it('refuses a folder without a manifest.json, naming the option and the folder on one line', () => {
    for (const dir of ['/tmp/base', '']) {
      const parsed = parseBenchArgs(['--baseline-dist', dir], builtHere);
      assert.equal(parsed.kind, 'usage-error', dir);
      if (parsed.kind === 'usage-error') {
        assert.match(parsed.message, /^--baseline-dist must be a built extension's folder \(one with a manifest\.json/);
        assert.ok(parsed.message.includes(`'${dir}'`));
        assert.doesNotMatch(parsed.message, /\n/);
      }
    }
  });

  it('asks the file system by default: a folder with no manifest.json is refused', () => {
    const parsed = parseBenchArgs(['--baseline-dist', '/nonexistent/tabcrawl-baseline']);
    assert.equal(parsed.kind, 'usage-error');
  });

  it('refuses a baseline when part 1, the part it compares, does not run', () => {
    const parsed = parseBenchArgs(['--parts', '2,5', '--baseline-dist', '/tmp/base/dist/chrome'], builtHere);
    assert.deepEqual(parsed, {
      kind: 'usage-error',
      message: "--baseline-dist compares part 1's crawls: --parts must include 1, got '2,5'",
    });
    assert.equal(parseBenchArgs(['--smoke', '--baseline-dist', '/tmp/base/dist/chrome'], builtHere).kind, 'run');
  });

  it('says in its usage how to compare a change with main', () => {
    assert.match(BENCH_USAGE, /--baseline-dist DIR/);
    assert.ok(
      BENCH_USAGE.includes('git worktree add /tmp/base main && (cd /tmp/base && npm ci && npm run build:chrome)'),
    );
    assert.ok(
      BENCH_USAGE.includes(
        'npm run bench -- --parts 1 --one-at-once-rounds 3 --rounds 3 --baseline-dist /tmp/base/dist/chrome',
      ),
    );
  });
});

describe('bench --baseline-dist: the two builds in each round', () => {
  it('runs this build first in round 1 and the baseline first in round 2, alternating after', () => {
    assert.deepEqual([1, 2, 3, 4].map(buildOrderOfRound), [
      ['this', 'baseline'],
      ['baseline', 'this'],
      ['this', 'baseline'],
      ['baseline', 'this'],
    ]);
    assert.equal(buildOrderText(1), 'this build, baseline');
    assert.equal(buildOrderText(2), 'baseline, this build');
  });

  it('takes each round its own ratio, this ÷ baseline, for the rounds where both builds crawled that way', () => {
    const rounds: RoundPair[] = [
      {
        round: 1,
        pagesPerSecond: new Map([
          ['pages-8', pair(100, 50)],
          ['pages-1', pair(30, 30)],
        ]),
      },
      { round: 2, pagesPerSecond: new Map([['pages-8', pair(60, 60)]]) },
    ];
    assert.deepEqual(ratiosToBaseline(rounds, 'pages-8'), [2, 1]);
    assert.deepEqual(ratiosToBaseline(rounds, 'pages-1'), [1]);
    assert.deepEqual(ratiosToBaseline(rounds, 'archive-8'), []);
  });

  it('reports the median of the within-round ratios, not the ratio of the medians', () => {
    // A busy round 2 slows both builds; the ratio within each round is what counts.
    const rounds: RoundPair[] = [
      { round: 1, pagesPerSecond: new Map([['pages-8', pair(110, 100)]]) },
      { round: 2, pagesPerSecond: new Map([['pages-8', pair(55, 50)]]) },
      { round: 3, pagesPerSecond: new Map([['pages-8', pair(90, 100)]]) },
    ];
    const [figures] = compareToBaseline([{ id: 'pages-8', label: 'pages only, 8 at once' }], rounds);
    assert.deepEqual(figures, {
      id: 'pages-8',
      label: 'pages only, 8 at once',
      rounds: 3,
      pagesPerSecond: 90,
      baselinePagesPerSecond: 100,
      ratioToBaseline: 1.1,
    });
  });

  it('gives null figures for a way no round crawled with both builds', () => {
    const [figures] = compareToBaseline(
      [{ id: 'archive-1', label: 'with resources and files, 1 at once' }],
      [{ round: 1, pagesPerSecond: new Map() }],
    );
    assert.deepEqual(figures, {
      id: 'archive-1',
      label: 'with resources and files, 1 at once',
      rounds: 0,
      pagesPerSecond: null,
      baselinePagesPerSecond: null,
      ratioToBaseline: null,
    });
  });

  it("prints a row per way with both builds' pages/s and the ratio, n/a where there is none", () => {
    const figures = compareToBaseline(
      [
        { id: 'pages-8', label: 'pages only, 8 at once' },
        { id: 'pages-1', label: 'pages only, 1 at once' },
      ],
      [{ round: 1, pagesPerSecond: new Map([['pages-8', pair(120, 100)]]) }],
    );
    const rows = baselineTableRows(figures, (value, digits) => value.toFixed(digits));
    assert.deepEqual(rows, [
      ['', 'this build, pages/s', 'baseline, pages/s', 'this ÷ baseline', 'rounds'],
      ['Tabcrawl, pages only, 8 at once', '120.0', '100.0', '1.200', '1'],
      ['Tabcrawl, pages only, 1 at once', 'n/a', 'n/a', 'n/a', '0'],
    ]);
  });
});
