/**
 * Everything an exported file holds, as text, to look for what must not be
 * in it: a ZIP (WACZ) opened with yauzl, entry by entry; gzip (a WARC's
 * members, `rows.jsonl.gz`) decompressed, every member.
 */
import { gunzipSync } from 'node:zlib';
import { fromBufferPromise } from 'yauzl';

const isGzip = (bytes: Uint8Array): boolean => bytes[0] === 0x1f && bytes[1] === 0x8b;
const isZip = (bytes: Uint8Array): boolean => bytes[0] === 0x50 && bytes[1] === 0x4b;

/** The file's text, by part: `''` for a plain or gzipped file, each entry's path for a ZIP. */
export async function archiveTexts(bytes: Uint8Array): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (!isZip(bytes)) {
    texts.set('', plain(bytes));
    return texts;
  }
  const file = await fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  for await (const entry of file.eachEntry()) {
    const parts: Buffer[] = [];
    for await (const part of await file.openReadStreamPromise(entry)) parts.push(Buffer.from(part as Uint8Array));
    texts.set(entry.fileName, plain(Buffer.concat(parts)));
  }
  return texts;
}

function plain(bytes: Uint8Array): string {
  return (isGzip(bytes) ? gunzipSync(bytes) : Buffer.from(bytes)).toString('utf8');
}
