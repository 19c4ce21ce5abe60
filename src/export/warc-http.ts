/**
 * The HTTP messages inside `request`, `response` and `revisit` records,
 * rebuilt from a crawl row: start line, header fields, blank line.
 *
 * The crawl stores bodies as the browser handed them over: already decoded
 * (no gzip, no chunking). An archive must then not claim an encoding that is
 * no longer there, or a reader would decode the payload a second time; see
 * {@link archivedResponseHeaders}.
 *
 * @see RFC 9112 (HTTP/1.1 message syntax), RFC 9110 (semantics)
 * @see WARC 1.1 §6.3 (response), §6.4 (request): `application/http` blocks
 */
import type { PageRecord } from '../core/model.ts';

/** A header field as written, name and value. */
export type HttpHeader = [name: string, value: string];

/** Prefix of the headers renamed so readers ignore them; the convention of browsertrix-crawler and wabac.js. */
export const ORIGINAL_HEADER_PREFIX = 'x-orig-';

/** Headers that describe an encoding of the body the stored payload no longer has. @see RFC 9110 §8.4, RFC 9112 §6.1 */
const ENCODING_HEADERS = new Set(['content-encoding', 'transfer-encoding']);

/** A field name is a token. @see RFC 9110 §5.1, §5.6.2 */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An HTTP/1.x or HTTP/2+ status line whose status code is captured. @see RFC 9112 §4 */
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? (\d{3})(?: .*)?$/;

/** Standard reason phrases. @see RFC 9110 §15; 428, 429, 431: RFC 6585; 451: RFC 7725 */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
};

const encoder = new TextEncoder();

/** The standard reason phrase of `status`, or `''` for a code RFC 9110 does not name (the phrase is optional, RFC 9112 §4). */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? '';
}

/**
 * The status line to archive: the one the browser reported when it is well
 * formed and agrees with the row's status, else `HTTP/1.1 <status> <reason>`.
 */
export function statusLineOf(status: number, reported: string | null): string {
  const match = reported === null ? null : STATUS_LINE.exec(reported.trim());
  if (reported !== null && match !== null && Number(match[1]) === status) return httpText(reported.trim());
  return `HTTP/1.1 ${status} ${reasonPhrase(status)}`;
}

/**
 * A header value any reader accepts: ASCII only. A character outside ASCII
 * is percent-encoded as UTF-8 (what browsertrix-crawler does), since readers
 * such as wabac.js rebuild headers with the Fetch API's `Headers`, which
 * rejects characters above U+00FF; control characters become spaces.
 */
export function httpText(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x09 || (code >= 0x20 && code < 0x7f)) out += char;
    else if (code < 0x20 || code === 0x7f) out += ' ';
    else if (code >= 0xd800 && code <= 0xdfff) out += '%EF%BF%BD';
    else out += encodeURIComponent(char);
  }
  return out;
}

/** Start line, header fields and the blank line that ends them, as bytes. @see RFC 9112 §2.1 */
export function encodeHttpHead(startLine: string, headers: readonly HttpHeader[]): Uint8Array {
  const lines = headers.map(([name, value]) => `${name}: ${httpText(value)}\r\n`).join('');
  return encoder.encode(`${httpText(startLine)}\r\n${lines}\r\n`);
}

/** Headers whose names are tokens; HTTP/2 pseudo-headers (`:status`) and garbage are left out. */
function validHeaders(headers: readonly (readonly [string, string])[]): HttpHeader[] {
  return headers.filter(([name]) => TOKEN.test(name)).map(([name, value]): HttpHeader => [name, value]);
}

/**
 * The request message of a row: `<METHOD> <path?query> HTTP/1.1` and the
 * request headers the browser reported. When it reported none, `Host` and
 * `User-Agent` are reconstructed (the browser sets more, unknown here); a
 * missing `Host` is always added, since HTTP/1.1 requires it (RFC 9112 §3.2).
 * @param method the method of the request that produced the row's answer.
 * @param userAgent the User-Agent to reconstruct when none was reported.
 */
export function requestHead(row: PageRecord, method: string, userAgent: string): Uint8Array {
  const url = new URL(row.url);
  const target = `${url.pathname === '' ? '/' : url.pathname}${url.search}`;
  const reported = row.requestHeaders === null ? null : validHeaders(row.requestHeaders);
  const headers = reported ?? [['user-agent', userAgent]];
  const hasHost = headers.some(([name]) => name.toLowerCase() === 'host');
  return encodeHttpHead(`${method} ${target} HTTP/1.1`, hasHost ? headers : [['host', url.host], ...headers]);
}

/**
 * Response headers as archived over a payload of `payloadLength` bytes that
 * is stored decoded:
 *
 * - `content-encoding` and `transfer-encoding` are renamed
 *   `x-orig-content-encoding` / `x-orig-transfer-encoding`, so no reader
 *   decodes the payload again (warcio.js decodes on `Content-Encoding`, and
 *   de-chunks on `Transfer-Encoding: chunked`);
 * - `content-length` is set to `payloadLength`; a served value that differs
 *   (compressed size, or a body cut or not downloaded) is kept as
 *   `x-orig-content-length`. Present even when the server sent none.
 *
 * The prefix is the one browsertrix-crawler's recorder and wabac.js use for
 * decoded captures (`x-orig-`), not pywb's replay-time `X-Archive-Orig-`.
 *
 * With `payloadLength` null (a HEAD answer: no body by definition) the
 * headers are kept as served: `Content-Length` then tells the size of the
 * GET answer (RFC 9110 §9.3.2) and there is nothing to decode.
 */
export function archivedResponseHeaders(
  headers: readonly (readonly [string, string])[],
  payloadLength: number | null,
): HttpHeader[] {
  const valid = validHeaders(headers);
  if (payloadLength === null) return valid;
  const out: HttpHeader[] = [];
  let lengthWritten = false;
  for (const [name, value] of valid) {
    const lower = name.toLowerCase();
    if (ENCODING_HEADERS.has(lower)) {
      out.push([`${ORIGINAL_HEADER_PREFIX}${lower}`, value]);
    } else if (lower === 'content-length') {
      if (!lengthWritten) out.push(['content-length', String(payloadLength)]);
      if (lengthWritten || value.trim() !== String(payloadLength))
        out.push([`${ORIGINAL_HEADER_PREFIX}content-length`, value]);
      lengthWritten = true;
    } else {
      out.push([name, value]);
    }
  }
  if (!lengthWritten) out.push(['content-length', String(payloadLength)]);
  return out;
}

/** The value of the first header named `name` (any case), or null. */
export function headerValue(headers: readonly (readonly [string, string])[], name: string): string | null {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1] ?? null;
}
