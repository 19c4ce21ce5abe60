// Placeholder: being written (CSV, RFC 4180). Keeps the exported name stable.
import type { FormatWriter } from './export-source.ts';
export const writeCsv: FormatWriter = () => { throw new Error('CSV export not written yet'); };
