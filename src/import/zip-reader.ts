/**
 * Reading a zip file by random access, as a WACZ is read: the central
 * directory at the end first, then each entry's bytes where the directory
 * says they are (`Blob.slice`), streamed. ZIP64 (entries, offsets or counts
 * past 4 GiB or 65,535) is read; entries are stored (what WACZ writers do) or
 * deflated (inflated with fflate). Encrypted entries, split archives and other
 * compression methods are refused with an {@link ArchiveReadError}.
 *
 * Our own reader rather than a library: a WACZ needs the directory, the
 * offset of an entry's data and a stream of it, about 200 lines; zip.js, the
 * well-kept choice, brings workers, writers and codecs we would not use, and
 * client-zip, which Tabcrawl already has, only writes.
 *
 * @see APPNOTE.TXT 6.3.10 (PKWARE's .ZIP File Format Specification): §4.3.7 local header, §4.3.12
 *   central directory header, §4.3.14–16 ZIP64 end of central directory, §4.5.3 ZIP64 extra field
 */
import { Inflate } from 'fflate';
import { ArchiveReadError, shown } from './archive-error.ts';
import { chunksOf } from './byte-source.ts';

/** A file read by random access: a Blob (a File) or anything that can hand out a range of its bytes. */
export interface RandomAccessFile {
  readonly size: number;
  /** The bytes from `offset`, `length` of them (fewer only past the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The same bytes as a stream, for ranges too large to hold. */
  stream(offset: number, length: number): ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
}

/** A Blob (or File) as a {@link RandomAccessFile}: `slice` reads only the range asked for. */
export function blobFile(blob: Blob): RandomAccessFile {
  return {
    size: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    stream: (offset, length) => blob.slice(offset, offset + length).stream(),
  };
}

/** One entry of the zip's central directory. */
export interface ZipEntry {
  /** Path in the zip, `/`-separated (`archive/data.warc.gz`). */
  name: string;
  /** 0: stored, 8: deflated. */
  method: number;
  /** General purpose flags (bit 0: encrypted; bit 3: sizes in a data descriptor; bit 11: UTF-8 name). */
  flags: number;
  /** Bytes of its data in the zip. */
  compressedSize: number;
  /** Bytes once inflated (equal to `compressedSize` when stored). */
  size: number;
  crc32: number;
  /** Where its local header starts. */
  localHeaderOffset: number;
  /** The entry is a folder (its name ends in `/`). */
  isDirectory: boolean;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end of central directory record: 22 bytes and a comment of up to 65,535. */
const MAX_EOCD_SEARCH = 22 + 0xffff;
/** Most bytes of central directory read: a WACZ lists a handful of files; a million entries stay under it. */
const MAX_DIRECTORY_BYTES = 256 * 1024 * 1024;

/** Most compressed bytes inflated at once. */
const MAX_PUSH = 16 * 1024;

const u16 = (view: DataView, at: number): number => view.getUint16(at, true);
const u32 = (view: DataView, at: number): number => view.getUint32(at, true);
/** A 64-bit size or offset as a number: exact up to 2^53 (8 PiB), far past any file a browser opens. */
const u64 = (view: DataView, at: number): number => Number(view.getBigUint64(at, true));

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Reads the zip's central directory.
 * @param fileName for error messages.
 * @throws ArchiveReadError when the file is no zip, or is cut short (its directory is at its end).
 */
export async function readZipDirectory(file: RandomAccessFile, fileName: string): Promise<ZipEntry[]> {
  const tailLength = Math.min(file.size, MAX_EOCD_SEARCH + 20);
  const tailStart = file.size - tailLength;
  const tail = await file.read(tailStart, tailLength);
  const tailView = viewOf(tail);
  let eocd = -1;
  for (let at = tail.length - 22; at >= 0; at -= 1) {
    // The record's comment runs to the end of the file: a signature whose comment length fits is the record.
    if (u32(tailView, at) === EOCD && at + 22 + u16(tailView, at + 20) === tail.length) {
      eocd = at;
      break;
    }
  }
  if (eocd === -1) {
    const start = await file.read(0, 4);
    const isZip = start.length === 4 && u32(viewOf(start), 0) === LOCAL_HEADER;
    throw new ArchiveReadError(
      isZip ? 'truncated' : 'not-archive',
      fileName,
      file.size,
      isZip
        ? 'the zip has no central directory at its end: the file is cut short or damaged'
        : 'this is not a zip file: no end of central directory record',
    );
  }
  let count = u16(tailView, eocd + 10);
  let directorySize = u32(tailView, eocd + 12);
  let directoryOffset = u32(tailView, eocd + 16);
  const eocdOffset = tailStart + eocd;
  if (u16(tailView, eocd + 4) !== 0 || u16(tailView, eocd + 6) !== 0) {
    throw new ArchiveReadError(
      'unsupported',
      fileName,
      eocdOffset,
      'this zip is split over several files (a spanned archive): not supported',
    );
  }
  // ZIP64: a locator just before the record points at the ZIP64 end of central directory, whose values are 64-bit.
  if (eocd >= 20 && u32(tailView, eocd - 20) === ZIP64_LOCATOR) {
    const zip64Offset = u64(tailView, eocd - 20 + 8);
    const record = await file.read(zip64Offset, 56);
    const view = viewOf(record);
    if (record.length < 56 || u32(view, 0) !== ZIP64_EOCD) {
      throw new ArchiveReadError(
        'corrupt',
        fileName,
        zip64Offset,
        'the ZIP64 end of central directory record is not where its locator says',
      );
    }
    count = u64(view, 32);
    directorySize = u64(view, 40);
    directoryOffset = u64(view, 48);
  }
  if (directoryOffset + directorySize > file.size || directorySize > MAX_DIRECTORY_BYTES) {
    throw new ArchiveReadError(
      'corrupt',
      fileName,
      directoryOffset,
      `the central directory (${directorySize} bytes at byte ${directoryOffset}) does not fit in the file of ${file.size} bytes`,
    );
  }
  const directory = await file.read(directoryOffset, directorySize);
  const view = viewOf(directory);
  const entries: ZipEntry[] = [];
  let at = 0;
  while (entries.length < count) {
    if (at + 46 > directory.length || u32(view, at) !== CENTRAL_HEADER) {
      throw new ArchiveReadError(
        'corrupt',
        fileName,
        directoryOffset + at,
        `the central directory ends after ${entries.length} of its ${count} entries`,
      );
    }
    const flags = u16(view, at + 8);
    const nameLength = u16(view, at + 28);
    const extraLength = u16(view, at + 30);
    const commentLength = u16(view, at + 32);
    const nameBytes = directory.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: UTF-8. Without it the name is CP437, which agrees with UTF-8 on the ASCII names WACZ uses.
    const name = new TextDecoder((flags & 0x800) !== 0 ? 'utf-8' : 'latin1').decode(nameBytes);
    let size = u32(view, at + 24);
    let compressedSize = u32(view, at + 20);
    let localHeaderOffset = u32(view, at + 42);
    const extra = directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    const zip64 = zip64Values(extra, { size, compressedSize, localHeaderOffset });
    size = zip64.size;
    compressedSize = zip64.compressedSize;
    localHeaderOffset = zip64.localHeaderOffset;
    entries.push({
      name,
      method: u16(view, at + 10),
      flags,
      compressedSize,
      size,
      crc32: u32(view, at + 16),
      localHeaderOffset,
      isDirectory: name.endsWith('/'),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  refuseOverlaps(entries, fileName);
  return entries;
}

/**
 * A zip's entries never share bytes; a hostile one lists thousands of entries over the bytes of one large
 * WARC, each read in full (a 380 KB file made 320 GiB of inflating). Each entry's bytes run from its local
 * header (30 bytes at least, then its name) to the end of its data: none may start inside the one before it.
 * @throws ArchiveReadError naming two entries that overlap.
 */
function refuseOverlaps(entries: readonly ZipEntry[], fileName: string): void {
  const byOffset = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 1; i < byOffset.length; i += 1) {
    const before = byOffset[i - 1];
    const entry = byOffset[i];
    if (before === undefined || entry === undefined) continue;
    const end = before.localHeaderOffset + 30 + before.compressedSize;
    if (entry.localHeaderOffset < end) {
      throw new ArchiveReadError(
        'corrupt',
        fileName,
        entry.localHeaderOffset,
        `the zip's entries ${shown(before.name)} and ${shown(entry.name)} overlap (the second starts inside the first, which runs from byte ${before.localHeaderOffset} to ${end}): a zip's entries never share bytes`,
      );
    }
  }
}

/** The 64-bit values of a ZIP64 extended information extra field (0x0001) for the 32-bit fields set to 0xFFFFFFFF. */
function zip64Values(
  extra: Uint8Array,
  values: { size: number; compressedSize: number; localHeaderOffset: number },
): typeof values {
  const view = viewOf(extra);
  const out = { ...values };
  for (let at = 0; at + 4 <= extra.length;) {
    const id = u16(view, at);
    const length = u16(view, at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = (): number | null => {
        if (field + 8 > at + 4 + length) return null;
        const value = u64(view, field);
        field += 8;
        return value;
      };
      if (values.size === 0xffffffff) out.size = next() ?? out.size;
      if (values.compressedSize === 0xffffffff) out.compressedSize = next() ?? out.compressedSize;
      if (values.localHeaderOffset === 0xffffffff) out.localHeaderOffset = next() ?? out.localHeaderOffset;
      return out;
    }
    at += 4 + length;
  }
  return out;
}

/**
 * Where an entry's data starts: after its local header, whose name and extra
 * field may differ in length from the central directory's.
 * @throws ArchiveReadError when the local header is not there, or the data runs past the end of the file.
 */
export async function entryDataOffset(file: RandomAccessFile, entry: ZipEntry, fileName: string): Promise<number> {
  const header = await file.read(entry.localHeaderOffset, 30);
  const view = viewOf(header);
  if (header.length < 30 || u32(view, 0) !== LOCAL_HEADER) {
    throw new ArchiveReadError(
      'corrupt',
      fileName,
      entry.localHeaderOffset,
      `the local header of ${entry.name} is not where the central directory says`,
    );
  }
  const start = entry.localHeaderOffset + 30 + u16(view, 26) + u16(view, 28);
  if (start + entry.compressedSize > file.size) {
    throw new ArchiveReadError(
      'truncated',
      fileName,
      file.size,
      `the data of ${entry.name} (${entry.compressedSize} bytes from byte ${start}) runs past the end of the file`,
    );
  }
  return start;
}

/**
 * An entry's bytes, streamed: as stored, or inflated.
 * @throws ArchiveReadError for an encrypted entry, another compression method, or deflated data that is corrupt.
 */
export async function* entryBytes(
  file: RandomAccessFile,
  entry: ZipEntry,
  fileName: string,
): AsyncGenerator<Uint8Array> {
  if ((entry.flags & 0x1) !== 0)
    throw new ArchiveReadError('unsupported', fileName, entry.localHeaderOffset, `${entry.name} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ArchiveReadError(
      'unsupported',
      fileName,
      entry.localHeaderOffset,
      `${entry.name} is compressed with method ${entry.method}: only stored (0) and deflated (8) entries are read`,
    );
  }
  const start = await entryDataOffset(file, entry, fileName);
  const chunks = chunksOf(file.stream(start, entry.compressedSize));
  if (entry.method === 0) {
    yield* chunks;
    return;
  }
  const out: Uint8Array[] = [];
  // Counted as it inflates: an entry that declares a few bytes and inflates to gigabytes stops at its declared size.
  const inflate = new Inflate((data) => {
    inflated += data.length;
    if (inflated > entry.size) {
      throw new ArchiveReadError(
        'corrupt',
        fileName,
        start + read,
        `${shown(entry.name)} inflates to more than the ${entry.size} bytes the zip's directory declares for it`,
      );
    }
    if (data.length > 0) out.push(data);
  });
  let read = 0;
  let inflated = 0;
  const push = (chunk: Uint8Array, final: boolean): void => {
    try {
      inflate.push(chunk, final);
    } catch (error) {
      if (error instanceof ArchiveReadError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ArchiveReadError(
        'corrupt',
        fileName,
        start + read,
        `the deflated data of ${entry.name} is corrupt (${reason})`,
      );
    }
  };
  for await (const chunk of chunks) {
    // What one piece inflates to (at most 1,032 times its bytes, 16 MiB) is handed on before the next is inflated.
    for (let at = 0; at < chunk.length; at += MAX_PUSH) {
      const piece = chunk.subarray(at, Math.min(chunk.length, at + MAX_PUSH));
      push(piece, false);
      read += piece.length;
      yield* out.splice(0);
    }
  }
  push(new Uint8Array(0), true);
  yield* out.splice(0);
}
