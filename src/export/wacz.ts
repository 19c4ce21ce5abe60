// Placeholder: being written (WACZ 1.1.1). Keeps the exported name stable.
import type { FormatWriter } from './export-source.ts';
export const writeWacz: FormatWriter = () => { throw new Error('WACZ export not written yet'); };
