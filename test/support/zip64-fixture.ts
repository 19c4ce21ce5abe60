/**
 * A ZIP64 zip made in the test: every entry stored with ZIP64 sizes and
 * offsets (in its local and central headers), a ZIP64 end of central
 * directory and its locator, as writers do past 4 GiB. Its entries can start
 * past 4 GiB in a virtual file whose gaps read as zeros, so a reader's
 * 64-bit offsets are exercised without 4 GiB of memory or disk. yauzl, an
 * independent reader, checks the layout in the tests.
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { RandomAccessReader } from 'yauzl';
import type { RandomAccessFile } from '../../src/import/zip-reader.ts';

/** Bytes placed at an offset of a virtual file. */
interface Segment {
  offset: number;
  bytes: Uint8Array;
}

/** A file of `size` bytes made of segments, zeros elsewhere. */
export class VirtualFile implements RandomAccessFile {
  constructor(
    readonly size: number,
    private readonly segments: readonly Segment[],
  ) {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    return this.bytesAt(offset, Math.max(0, Math.min(length, this.size - offset)));
  }

  async *stream(offset: number, length: number): AsyncGenerator<Uint8Array> {
    const end = Math.min(this.size, offset + length);
    for (let at = offset; at < end; at += 64 * 1024) yield this.bytesAt(at, Math.min(64 * 1024, end - at));
  }

  bytesAt(offset: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (const { offset: start, bytes } of this.segments) {
      const from = Math.max(start, offset);
      const to = Math.min(start + bytes.length, offset + length);
      if (from < to) out.set(bytes.subarray(from - start, to - start), from - offset);
    }
    return out;
  }
}

/** The virtual file as yauzl's random access reader. */
export class VirtualReader extends RandomAccessReader {
  constructor(private readonly file: VirtualFile) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from([Buffer.from(this.file.bytesAt(start, end - start))]);
  }
}

const encoder = new TextEncoder();

/** Little-endian writer of the records' fields. */
class Fields {
  private readonly bytes: number[] = [];
  u16(value: number): this {
    this.bytes.push(value & 0xff, (value >>> 8) & 0xff);
    return this;
  }
  u32(value: number): this {
    return this.u16(value & 0xffff).u16(Math.floor(value / 0x10000) & 0xffff);
  }
  u64(value: number): this {
    return this.u32(value % 0x100000000).u32(Math.floor(value / 0x100000000));
  }
  raw(bytes: Uint8Array): this {
    this.bytes.push(...bytes);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/**
 * A ZIP64 zip of stored entries whose first local header is at `startOffset`
 * (zeros before it), as a {@link VirtualFile}.
 */
export function zip64File(entries: readonly { name: string; data: Uint8Array }[], startOffset = 0): VirtualFile {
  const segments: Segment[] = [];
  const central: Uint8Array[] = [];
  let at = startOffset;
  for (const { name, data } of entries) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(data);
    const local = new Fields()
      .u32(0x04034b50)
      .u16(45)
      .u16(0x0800)
      .u16(0)
      .u16(0)
      .u16(0x5a21)
      .u32(crc)
      .u32(0xffffffff)
      .u32(0xffffffff)
      .u16(nameBytes.length)
      .u16(20)
      .raw(nameBytes)
      .u16(0x0001)
      .u16(16)
      .u64(data.length)
      .u64(data.length)
      .done();
    segments.push({ offset: at, bytes: local }, { offset: at + local.length, bytes: data });
    central.push(
      new Fields()
        .u32(0x02014b50)
        .u16(45)
        .u16(45)
        .u16(0x0800)
        .u16(0)
        .u16(0)
        .u16(0x5a21)
        .u32(crc)
        .u32(0xffffffff)
        .u32(0xffffffff)
        .u16(nameBytes.length)
        .u16(28)
        .u16(0)
        .u16(0)
        .u16(0)
        .u32(0)
        .u32(0xffffffff)
        .raw(nameBytes)
        .u16(0x0001)
        .u16(24)
        .u64(data.length)
        .u64(data.length)
        .u64(at)
        .done(),
    );
    at += local.length + data.length;
  }
  const directoryOffset = at;
  const directory = Uint8Array.from(central.flatMap((bytes) => [...bytes]));
  segments.push({ offset: directoryOffset, bytes: directory });
  at += directory.length;
  const zip64End = new Fields()
    .u32(0x06064b50)
    .u64(44)
    .u16(45)
    .u16(45)
    .u32(0)
    .u32(0)
    .u64(entries.length)
    .u64(entries.length)
    .u64(directory.length)
    .u64(directoryOffset)
    .done();
  const locator = new Fields().u32(0x07064b50).u32(0).u64(at).u32(1).done();
  const end = new Fields()
    .u32(0x06054b50)
    .u16(0)
    .u16(0)
    .u16(0xffff)
    .u16(0xffff)
    .u32(0xffffffff)
    .u32(0xffffffff)
    .u16(0)
    .done();
  segments.push(
    { offset: at, bytes: zip64End },
    { offset: at + zip64End.length, bytes: locator },
    { offset: at + zip64End.length + locator.length, bytes: end },
  );
  return new VirtualFile(at + zip64End.length + locator.length + end.length, segments);
}
