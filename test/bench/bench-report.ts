/**
 * How `npm run bench` prints: the table layout, numbers, and what every part
 * of it shares (where it runs, how it logs). No measuring here.
 */
import { resolve } from 'node:path';
import type { BenchOptions } from './bench-args.ts';
import { median } from './bench-stats.ts';

/** The checkout's root. */
export const ROOT = resolve(import.meta.dirname, '../..');

export const MiB = 1024 * 1024;

/** Progress lines, on stderr (the report goes to stdout at the end). */
export const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** What every part of the bench is given: the options, the built extension to load, the browser. */
export interface BenchContext {
  options: BenchOptions;
  /** The built extension (absolute path). */
  distDir: string;
  /** The `--baseline-dist` build part 1 also crawls with (absolute path), or null. */
  baselineDistDir: string | null;
  chromePath: string;
  /** Adds a line to the report printed at the end. */
  say: (line: string) => void;
}

/** Prints rows as a table, the first column left-aligned and the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('   ')}`.trimEnd(),
    )
    .join('\n');
}

/** `8 requests at once per host`, `1 request at once per host`. */
export const perHostText = (requests: number): string =>
  `${requests} request${requests === 1 ? '' : 's'} at once per host`;

/** `value` with `digits` decimals and thousands separators; `n/a` for NaN and infinities. */
export const num = (value: number, digits = 1): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';

/** The median of `values`, with 2 decimals. */
export const r2 = (values: number[]): string => num(median(values), 2);

/** The name of the JSON `npm run bench:export` writes into `.tmp/bench/` (part 4 reads it). */
export function exportFiguresName(format: string, pages: number, resources: boolean): string {
  return `export-${format}-${pages}${resources ? '' : '-pages-only'}.json`;
}
