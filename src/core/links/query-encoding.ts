/**
 * The query of a link on a page in a legacy encoding, encoded as a browser
 * encodes it. The URL standard encodes a URL's query with the document's
 * encoding (`?q=café` on a windows-1252 page is `?q=caf%E9`, on a UTF-8 page
 * `?q=caf%C3%A9`), and a character that encoding cannot represent as `&#N;`;
 * `new URL()` always uses UTF-8. A crawler that did so would request another
 * URL than a visitor's browser, and report errors a visitor never sees.
 *
 * Encoders are built from the platform's `TextDecoder` (the WHATWG decoders):
 * one table per encoding, on first use, kept for the worker's life. Single-
 * byte encodings and the double-byte tables of Shift_JIS, EUC-JP, EUC-KR,
 * Big5 and GBK (also used for gb18030, whose four-byte forms are not
 * built: those characters become `&#N;`) are covered; ISO-2022-JP (stateful)
 * and the rest keep UTF-8. A character a table holds twice takes its first
 * (lowest) byte sequence, where the standard's encoders sometimes take
 * another (a few rare Shift_JIS and Big5 characters).
 */
import { fixWindows1252 } from './decode-html.ts';

/** Encodings whose second bytes are taken from a double-byte table. */
const DOUBLE_BYTE = new Set(['shift_jis', 'euc-jp', 'euc-kr', 'big5', 'gbk', 'gb18030']);
/** Encodings encoded as UTF-8 (UTF-16 pages too, as the URL standard says) or left so. */
const KEEP_UTF8 = new Set(['utf-8', 'utf-16le', 'utf-16be', 'iso-2022-jp', 'replacement', 'x-user-defined']);

/** Code point → bytes, per encoding name (`TextDecoder.encoding`). */
const tables = new Map<string, Map<number, number[]> | null>();

/** The encoding's table, or null when it keeps UTF-8 or the platform does not know it. */
function tableOf(encoding: string): Map<number, number[]> | null {
  if (tables.has(encoding)) return tables.get(encoding) ?? null;
  let table: Map<number, number[]> | null = null;
  if (!KEEP_UTF8.has(encoding)) {
    try {
      table = buildTable(encoding);
    } catch {
      table = null;
    }
  }
  tables.set(encoding, table);
  return table;
}

function buildTable(encoding: string): Map<number, number[]> {
  const decoder = new TextDecoder(encoding, { fatal: true });
  const table = new Map<number, number[]>();
  /** Keeps the first (shortest, lowest) byte sequence found for a single decoded code point. */
  const add = (bytes: number[]): void => {
    let text: string;
    try {
      text = decoder.decode(Uint8Array.from(bytes));
    } catch {
      return;
    }
    // Some decoders give C1 controls for windows-1252's 0x80 to 0x9F (see decode-html.ts).
    if (encoding === 'windows-1252') text = fixWindows1252(text);
    const codePoint = text.codePointAt(0);
    if (codePoint === undefined || codePoint < 0x80 || codePoint === 0xfffd || String.fromCodePoint(codePoint) !== text)
      return;
    if (!table.has(codePoint)) table.set(codePoint, bytes);
  };
  for (let byte = 0x80; byte <= 0xff; byte += 1) add([byte]);
  if (DOUBLE_BYTE.has(encoding)) {
    for (let lead = 0x81; lead <= 0xfe; lead += 1) {
      for (let trail = 0x40; trail <= 0xfe; trail += 1) add([lead, trail]);
    }
  }
  return table;
}

/** A byte of an encoded character: ASCII as itself (a double-byte character's second byte may be `{`; the URL parser encodes what needs it), the rest percent-encoded. */
const written = (byte: number): string =>
  byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * `href` with the non-ASCII characters of its query percent-encoded in `encoding` (a `TextDecoder.encoding`
 * name, e.g. from `decodeHtml`), ready for `new URL()`; unchanged when it has none, or for UTF-8 pages.
 */
export function encodeQueryFor(href: string, encoding: string): string {
  const start = href.indexOf('?');
  if (start < 0) return href;
  const hash = href.indexOf('#', start);
  const end = hash < 0 ? href.length : hash;
  const query = href.slice(start + 1, end);
  if (!/[^\u0000-\u007F]/.test(query)) return href;
  const table = tableOf(encoding.toLowerCase());
  if (table === null) return href;
  let encoded = '';
  for (const char of query) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (codePoint < 0x80) encoded += char;
    else {
      const bytes = table.get(codePoint);
      // What the encoding cannot represent, the URL standard writes as an HTML numeric reference.
      encoded += bytes === undefined ? `%26%23${codePoint}%3B` : bytes.map(written).join('');
    }
  }
  return `${href.slice(0, start + 1)}${encoded}${href.slice(end)}`;
}
