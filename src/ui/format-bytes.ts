/** Binary units after bytes, as `formatBytes` writes them. */
const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * A size as people read it, in binary units: `512 B`, `3.4 KiB`, `12.0 MiB`.
 * Shared by the popup, the results tab and the command line.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${UNITS[unit] ?? 'TiB'}`;
}
