// Placeholder: being written (WARC 1.1 writer). Keeps the exported names stable.
import type { FormatWriter } from './export-source.ts';
export const writeWarc: FormatWriter = () => { throw new Error('WARC export not written yet'); };
export const writeWarcGz: FormatWriter = () => { throw new Error('WARC export not written yet'); };
