/**
 * Bytes to text for HTML pages: find the character encoding the way browsers
 * do (a simplified WHATWG "encoding sniffing algorithm") and decode with it.
 *
 * Pure: `TextDecoder` and htmlparser2 only, so it runs in a service worker and in Node.
 * @see https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
 */
import { Parser } from 'htmlparser2';

/** How many bytes the `<meta>` prescan looks at (the HTML standard's limit). */
const PRESCAN_BYTES = 1024;

/** The parts of a `Content-Type` value the crawler uses. */
export interface ContentType {
  /** Lower-cased `type/subtype`, e.g. `text/html`; null when absent or malformed. */
  mediaType: string | null;
  /** Lower-cased `charset` parameter without quotes, e.g. `windows-1252`; null when absent. */
  charset: string | null;
}

/**
 * Splits a `Content-Type` header value into media type and charset.
 * Never throws; tolerates quotes, spaces and odd case (`Text/HTML; Charset="UTF-8"`).
 */
export function parseContentType(value: string | null): ContentType {
  if (value === null) return { mediaType: null, charset: null };
  const [type = '', ...parameters] = value.split(';');
  const mediaType = type.trim().toLowerCase();
  let charset: string | null = null;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const found = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim()
      .toLowerCase();
    if (found !== '') charset = found;
    break;
  }
  return { mediaType: /^[^\s/]+\/[^\s/]+$/.test(mediaType) ? mediaType : null, charset };
}

/**
 * The media type a row is shown, filtered and indexed by: a `Content-Type`
 * value lower-cased without its parameters (`Text/HTML; charset=utf-8` →
 * `text/html`), `''` for null or blank. Unlike {@link parseContentType} it
 * keeps a malformed type as written, so the row can still be found by it.
 */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether a `Content-Type` names an HTML document (`text/html` or `application/xhtml+xml`): only those have links extracted. */
export function isHtmlType(contentType: string | null): boolean {
  const { mediaType } = parseContentType(contentType);
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

/**
 * Decodes an HTML body. The encoding comes from, in order: a byte order
 * mark; the `charset` of `contentType`; a `<meta charset>` or
 * `<meta http-equiv="Content-Type" content="...; charset=...">` in the first
 * 1024 bytes; else UTF-8. A label `TextDecoder` does not know is skipped.
 * Bytes invalid in the encoding become U+FFFD. Never throws.
 *
 * @param bytes the response body, possibly cut at `maxBodyBytes`.
 * @param contentType the `Content-Type` header as served, or null.
 * @returns the text (BOM removed) and the canonical WHATWG name of the
 *   encoding used (e.g. `windows-1252` for a label `iso-8859-1`).
 */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): { text: string; charset: string } {
  const decoder =
    decoderFor(sniffBom(bytes)) ??
    decoderFor(parseContentType(contentType).charset) ??
    decoderFor(fromMetaLabel(prescanMeta(bytes))) ??
    new TextDecoder('utf-8', { fatal: false });
  const text = decoder.decode(bytes);
  return { text: decoder.encoding === 'windows-1252' ? fixWindows1252(text) : text, charset: decoder.encoding };
}

/**
 * What bytes 0x80 to 0x9F mean in windows-1252 (the WHATWG index; the five
 * unassigned bytes map to the same C1 code point).
 * @see https://encoding.spec.whatwg.org/index-windows-1252.txt
 */
const WINDOWS_1252_C1 =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * Repairs windows-1252 text decoded as ISO-8859-1. Node 20.18.3 and later
 * (22.13.0 and later too) decode windows-1252, and the `iso-8859-1` and
 * `us-ascii` labels that mean it, through a Latin-1 fast path that turns
 * bytes 0x80 to 0x9F into C1 controls instead of `€`, curly quotes, dashes...
 * A correct decoder never outputs C1 controls besides the five unassigned
 * bytes, which the table keeps, so the repair does nothing in browsers.
 * @see https://github.com/nodejs/node/issues/60888
 */
export function fixWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009F]/g, (c1) => WINDOWS_1252_C1.charAt(c1.charCodeAt(0) - 0x80));
}

/** The encoding a byte order mark announces, or null. */
function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** A decoder for `label`, or null when there is no label or `TextDecoder` does not support it. */
function decoderFor(label: string | null): TextDecoder | null {
  if (label === null) return null;
  try {
    return new TextDecoder(label, { fatal: false });
  } catch {
    return null; // RangeError: unknown label, or the "replacement" encoding.
  }
}

/**
 * A label found by the prescan, adjusted as the HTML standard says: a page
 * that could be read as ASCII is not UTF-16, and `x-user-defined` means windows-1252.
 */
function fromMetaLabel(label: string | null): string | null {
  if (label === null) return null;
  const encoding = decoderFor(label)?.encoding;
  if (encoding === undefined) return null;
  if (encoding.startsWith('utf-16')) return 'utf-8';
  if (encoding === 'x-user-defined') return 'windows-1252';
  return label;
}

/** The charset label of the first `<meta>` that declares one in the first 1024 bytes, or null. */
function prescanMeta(bytes: Uint8Array): string | null {
  // Markup is ASCII in every encoding a meta can declare, so one char per byte is enough to find it.
  let head = '';
  for (const byte of bytes.subarray(0, PRESCAN_BYTES)) head += String.fromCharCode(byte);

  let label: string | null = null;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (label !== null || name !== 'meta') return;
      const charset = attributes['charset']?.trim();
      if (charset !== undefined && charset !== '') {
        label = charset;
      } else if (attributes['http-equiv']?.trim().toLowerCase() === 'content-type') {
        label = charsetFromContent(attributes['content'] ?? '');
      }
    },
  });
  parser.end(head);
  return label;
}

/** The charset of a `content` attribute (`text/html; charset=shift_jis`), or null. */
function charsetFromContent(content: string): string | null {
  const match = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  const label = (match?.[1] ?? match?.[2] ?? match?.[3] ?? '').trim();
  return label === '' ? null : label;
}

/** How many bytes {@link looksBinary} looks at: the "resource header" of the MIME Sniffing standard. */
const SNIFF_BYTES = 1445;

/**
 * Whether a body served without a `Content-Type` is binary rather than text:
 * it has a byte that never appears in text (a control byte other than tab,
 * line feed, form feed, carriage return and escape) in its first 1445 bytes,
 * and no byte order mark. The crawl reads links only from bodies that are not binary.
 * @see https://mimesniff.spec.whatwg.org/#binary-data-byte
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (sniffBom(bytes) !== null) return false;
  const head = bytes.subarray(0, SNIFF_BYTES);
  for (const byte of head) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}
