/** A {@link RowScan} over fixed rows for tests of the Issues checks and the reports. */
import type { RowScan } from '../../src/audit/engine.ts';
import type { PageRecord } from '../../src/core/model.ts';

/** A scan over `rows` (numbered 1, 2, ... in order) that counts how often it was started. */
export function scanOf(rows: PageRecord[]): RowScan & { scans: number } {
  const numbered = rows.map((row, index) => ({ ...row, seq: index + 1 }));
  const scan = Object.assign(
    async function* () {
      scan.scans += 1;
      yield* numbered;
    },
    { scans: 0 },
  );
  return scan;
}
