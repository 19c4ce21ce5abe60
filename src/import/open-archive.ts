/**
 * The one door of the import: a file the user picked (a `.wacz`, `.warc` or
 * `.warc.gz`, whatever its name says), told apart by its first bytes, and its
 * records read one by one.
 */
import { ArchiveReadError } from './archive-error.ts';
import { openWacz, type WaczArchive } from './wacz-reader.ts';
import { readWarc, type WarcReadOptions, type WarcRecord } from './warc-reader.ts';
import { blobFile, type RandomAccessFile } from './zip-reader.ts';

/** A record of an opened archive, from whichever WARC it is in. */
export interface ArchiveRecord extends WarcRecord {
  /** In a WACZ, the WARC's path in the zip (`archive/data.warc.gz`; `offset` counts from its start); null for a WARC file. */
  warcPath: string | null;
}

export interface OpenedArchive {
  format: 'wacz' | 'warc';
  fileName: string;
  /** Bytes of the file. */
  size: number;
  /** The WACZ (its pages, datapackage, `tabcrawl/crawl.json`); null for a WARC. */
  wacz: WaczArchive | null;
  /** Every record, in file order (a WACZ's WARCs one after the other). */
  records(options?: Omit<WarcReadOptions, 'fileName'>): AsyncGenerator<ArchiveRecord>;
}

const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];
const WARC = [0x57, 0x41, 0x52, 0x43, 0x2f];

/** A WARC's first bytes: `WARC/`, or gzip's magic number. */
function looksLikeWarc(head: Uint8Array): boolean {
  return WARC.every((byte, i) => head[i] === byte) || (head[0] === 0x1f && head[1] === 0x8b);
}

/** Whether the file ends with a zip's end of central directory record (a zip with data before its first entry). */
async function endsLikeZip(file: RandomAccessFile): Promise<boolean> {
  const length = Math.min(file.size, 22 + 0xffff);
  const tail = await file.read(file.size - length, length);
  for (let at = tail.length - 22; at >= 0; at -= 1) {
    if (
      ZIP_EMPTY.every((byte, i) => tail[at + i] === byte) &&
      at + 22 + (tail[at + 20] ?? 0) + (tail[at + 21] ?? 0) * 256 === tail.length
    )
      return true;
  }
  return false;
}

/**
 * Opens a WARC or WACZ file.
 * @throws ArchiveReadError when a WACZ's directory cannot be read (a WARC's problems come while reading its records).
 */
export async function openArchive(input: Blob | RandomAccessFile, fileName: string): Promise<OpenedArchive> {
  const file = typeof Blob !== 'undefined' && input instanceof Blob ? blobFile(input) : (input as RandomAccessFile);
  const head = await file.read(0, 5);
  const isZip =
    [ZIP_LOCAL, ZIP_EMPTY].some((magic) => magic.every((byte, i) => head[i] === byte)) ||
    (!looksLikeWarc(head) && (await endsLikeZip(file)));
  if (isZip) {
    const wacz = await openWacz(file, fileName);
    return { format: 'wacz', fileName, size: file.size, wacz, records: (options = {}) => wacz.records(options) };
  }
  if (file.size === 0) throw new ArchiveReadError('not-archive', fileName, 0, 'the file is empty: not a WARC or WACZ');
  return {
    format: 'warc',
    fileName,
    size: file.size,
    wacz: null,
    async *records(options = {}) {
      for await (const record of readWarc(file.stream(0, file.size), { ...options, fileName }))
        yield { ...record, warcPath: null };
    },
  };
}
