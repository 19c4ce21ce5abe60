/**
 * What the URL detail's *Source* shows of a stored body (`source-section.tsx`): its text, decoded as the crawl
 * decoded it (`Content-Type` charset, BOM, `<meta charset>`), or why it is not shown as text; and the matches
 * of a search in it. Pure: the bytes come in. The text is shown as text (a `<pre>`), never as markup.
 */
import { decodeHtml, looksBinary, mediaTypeOf } from '../core/links/decode-html.ts';

/** Most characters shown of one body (about 2 MB of UTF-16): a larger body is cut, and the view says so. */
export const MAX_SOURCE_CHARS = 1_000_000;
/** Most matches marked in the shown text: the count still counts them all. */
export const MAX_MARKS = 1_000;

/** Media types that are text whatever their bytes look like, besides every `text/*`. */
const TEXT_TYPES = new Set([
  'application/javascript',
  'application/ecmascript',
  'application/json',
  'application/ld+json',
  'application/manifest+json',
  'application/xml',
  'application/xhtml+xml',
  'application/rss+xml',
  'application/atom+xml',
  'image/svg+xml',
]);

export type SourceText =
  | { kind: 'text'; text: string; charset: string; totalChars: number; cut: boolean }
  | { kind: 'binary'; mediaType: string; bytes: number };

/** The body as the *Source* view shows it (see the module's comment). */
export function sourceText(bytes: Uint8Array, contentType: string | null, maxChars = MAX_SOURCE_CHARS): SourceText {
  const mediaType = mediaTypeOf(contentType);
  const isText = mediaType.startsWith('text/') || TEXT_TYPES.has(mediaType) || mediaType.endsWith('+json');
  if (!isText && (mediaType !== '' || looksBinary(bytes)))
    return { kind: 'binary', mediaType, bytes: bytes.byteLength };
  const { text, charset } = decodeHtml(bytes, contentType);
  return {
    kind: 'text',
    text: text.length > maxChars ? text.slice(0, maxChars) : text,
    charset,
    totalChars: text.length,
    cut: text.length > maxChars,
  };
}

/** A piece of the shown text: marked when it is a match. */
export interface SourcePiece {
  text: string;
  marked: boolean;
}

/**
 * `text` cut into pieces around the matches of `query` (plain text, case-insensitive), at most `maxMarks` of
 * them marked; `count` is every match. An empty query marks nothing.
 */
export function markMatches(
  text: string,
  query: string,
  maxMarks = MAX_MARKS,
): { pieces: SourcePiece[]; count: number } {
  if (query === '') return { pieces: [{ text, marked: false }], count: 0 };
  const haystack = text.toLowerCase();
  const needle = query.toLowerCase();
  const pieces: SourcePiece[] = [];
  let count = 0;
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    count += 1;
    if (count > maxMarks) continue;
    if (at > from) pieces.push({ text: text.slice(from, at), marked: false });
    pieces.push({ text: text.slice(at, at + needle.length), marked: true });
    from = at + needle.length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from), marked: false });
  return { pieces, count };
}
