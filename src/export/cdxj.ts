/**
 * CDXJ index lines for the WARC inside a WACZ: `<SURT key> <14-digit
 * timestamp> <JSON>`, one per `response` or `revisit` record, sorted.
 *
 * The JSON has the fields webrecorder's indexers write (py `cdxj-indexer`,
 * warcio.js `CDXIndexer`) and wabac.js reads: `url`, `mime`, `status`,
 * `digest`, `length`, `offset`, `filename`, and `method` when not GET.
 * `status`, `length` and `offset` are strings, as both indexers write them
 * (wabac.js passes them through `Number`). A revisit's `mime` is
 * `warc/revisit`: that is how wabac.js knows to follow it to the original.
 *
 * @see https://specs.webrecorder.net/cdxj/0.1.0/
 * @see WACZ 1.1.1 `indexes/`
 */
import { surtForMethod } from './surt.ts';
import { timestamp14 } from './warc-record.ts';
import type { WarcIndexEntry } from './warc.ts';

/** One index line, split for sorting. */
export interface CdxjLine {
  /** SURT key of the URL (with `__wb_method` for non-GET captures). */
  key: string;
  /** `YYYYMMDDhhmmss` of the record's `WARC-Date`. */
  timestamp: string;
  /** The JSON block, serialized. */
  json: string;
}

/** Where a record is: its byte offset and length within the WARC file, as stored (gzip member). */
export interface RecordPlace {
  offset: number;
  length: number;
}

/** The index line of one record of `filename` (a name relative to the WACZ's `archive/` folder). */
export function cdxjLine(entry: WarcIndexEntry, place: RecordPlace, filename: string): CdxjLine {
  const fields: Record<string, string> = { url: entry.url };
  const mime = entry.recordType === 'revisit' ? 'warc/revisit' : entry.mime;
  if (mime !== null) fields['mime'] = mime;
  fields['status'] = String(entry.status);
  fields['digest'] = entry.digest;
  fields['length'] = String(place.length);
  fields['offset'] = String(place.offset);
  fields['filename'] = filename;
  if (entry.method !== 'GET') fields['method'] = entry.method;
  return {
    key: surtForMethod(entry.url, entry.method),
    timestamp: timestamp14(entry.date),
    json: JSON.stringify(fields),
  };
}

/** Code-unit order (the `LC_ALL=C sort` order of ASCII keys), never locale order. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders lines by key, then timestamp, then JSON (so the order is total and stable across runs). */
export function compareCdxj(a: CdxjLine, b: CdxjLine): number {
  return compareText(a.key, b.key) || compareText(a.timestamp, b.timestamp) || compareText(a.json, b.json);
}

/** A line as written, with its newline. */
export function formatCdxj(line: CdxjLine): string {
  return `${line.key} ${line.timestamp} ${line.json}\n`;
}
