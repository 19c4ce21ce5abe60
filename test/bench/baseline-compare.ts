/**
 * Part 1 of `npm run bench` against a baseline build (`--baseline-dist`):
 * every Tabcrawl crawl of part 1 also runs with another built extension, on
 * the same site, in the same round, the two right next to each other, and
 * their order alternating from round to round so that neither build always
 * gets the warmer (or the busier) turn. A round's ratio is this build's
 * pages/s ÷ the baseline's in that round; the figure is the median of those
 * ratios, which cancels what a round shares (load from other work on the
 * machine) better than a ratio of two medians would. Pure: no I/O; the
 * crawls themselves run in `part-throughput.ts`.
 */
import { median, rounded } from './bench-stats.ts';

/** Which of the two builds a crawl ran: the one `--dist` names (`this`) or the `--baseline-dist` one. */
export type Build = 'this' | 'baseline';

/**
 * The order the two builds crawl in, in round `round` (from 1): this build first in odd rounds, the baseline
 * first in even ones.
 */
export function buildOrderOfRound(round: number): readonly [Build, Build] {
  return round % 2 === 1 ? ['this', 'baseline'] : ['baseline', 'this'];
}

/** `this build, baseline` or `baseline, this build`: a round's order as the report prints it. */
export const buildOrderText = (round: number): string =>
  buildOrderOfRound(round)
    .map((build) => (build === 'this' ? 'this build' : 'baseline'))
    .join(', ');

/** One way of part 1 (its id and label, as `part-throughput.ts` names them) measured in one round by both builds, in pages/s. */
export interface RoundPair {
  round: number;
  /** By variant id; a variant that did not run in this round (the crawls at 1 at once after `--one-at-once-rounds`) is absent. */
  pagesPerSecond: ReadonlyMap<string, { this: number; baseline: number }>;
}

/** A way of part 1 compared across the two builds, for the JSON and the table. */
export interface BaselineVariantFigures {
  id: string;
  label: string;
  /** Rounds in which both builds crawled this way. */
  rounds: number;
  /** Median pages/s of this build's crawls (null when none ran or the figure is not finite). */
  pagesPerSecond: number | null;
  /** Median pages/s of the baseline's crawls. */
  baselinePagesPerSecond: number | null;
  /** Median of the rounds' this ÷ baseline pages/s: above 1, this build is faster; null without a round. */
  ratioToBaseline: number | null;
}

/** The ratio of this build's pages/s to the baseline's in each round both crawled `variantId`, in round order. */
export function ratiosToBaseline(rounds: readonly RoundPair[], variantId: string): number[] {
  return rounds.flatMap((r) => {
    const pair = r.pagesPerSecond.get(variantId);
    return pair === undefined ? [] : [pair.this / pair.baseline];
  });
}

/** Each way's pages/s for each build (medians over the rounds) and this ÷ baseline (the median of the within-round ratios). */
export function compareToBaseline(
  variants: readonly { id: string; label: string }[],
  rounds: readonly RoundPair[],
): BaselineVariantFigures[] {
  return variants.map(({ id, label }) => {
    const pairs = rounds.flatMap((r) => r.pagesPerSecond.get(id) ?? []);
    const ratios = ratiosToBaseline(rounds, id);
    return {
      id,
      label,
      rounds: pairs.length,
      pagesPerSecond: rounded(median(pairs.map((p) => p.this))),
      baselinePagesPerSecond: rounded(median(pairs.map((p) => p.baseline))),
      ratioToBaseline: rounded(median(ratios), 3),
    };
  });
}

/** The rows of the report's table: a header, then one row per way (`format` prints a number with so many decimals). */
export function baselineTableRows(
  figures: readonly BaselineVariantFigures[],
  format: (value: number, digits: number) => string,
): string[][] {
  const cell = (value: number | null, digits: number): string => (value === null ? 'n/a' : format(value, digits));
  return [
    ['', 'this build, pages/s', 'baseline, pages/s', 'this ÷ baseline', 'rounds'],
    ...figures.map((f) => [
      `Tabcrawl, ${f.label}`,
      cell(f.pagesPerSecond, 1),
      cell(f.baselinePagesPerSecond, 1),
      cell(f.ratioToBaseline, 3),
      String(f.rounds),
    ]),
  ];
}
