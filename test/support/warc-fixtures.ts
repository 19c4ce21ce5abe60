/**
 * The WARC files written by other tools in `test/fixtures/warc/` (copied from the project's shared fixtures, with their README) (its
 * README says what each holds), and warcio.js as the reference reader the
 * archive reader is compared with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The fixtures folder: copies in the repository, so that a clean clone tests alone. */
export const WARC_FIXTURES = resolve(import.meta.dirname, '../fixtures/warc');

/** Every fixture archive's file name (the README is not one). */
export function warcFixtureNames(): string[] {
  return readdirSync(WARC_FIXTURES)
    .filter((name) => /\.warc(\.gz)?$/.test(name))
    .sort();
}

export function warcFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(WARC_FIXTURES, name)));
}

/** A record as warcio.js reads it. */
export interface ReferenceRecord {
  type: string;
  /** `WARC-Target-URI`, angle brackets stripped by warcio.js (`fixUp`). */
  targetUri: string | null;
  /** The raw payload: after the HTTP head for records warcio.js parses as HTTP, else the block. */
  payload: Uint8Array;
  /** The HTTP status line (or request line), when warcio.js parsed an HTTP head. */
  startLine: string | null;
  /** Where warcio.js says the record starts (the gzip member's offset in a `.warc.gz`). */
  offset: number;
}

/** Reads a WARC with warcio.js, each record's raw payload read whole. */
export async function readWithWarcio(bytes: Uint8Array): Promise<ReferenceRecord[]> {
  const { WARCParser } = await import('warcio');
  const parser = new WARCParser([bytes]);
  const records: ReferenceRecord[] = [];
  for await (const record of parser) {
    const payload = await record.readFully(false);
    records.push({
      type: record.warcType,
      targetUri: record.warcTargetURI ?? null,
      payload,
      startLine: record.httpHeaders?.statusline ?? null,
      offset: parser.offset,
    });
  }
  return records;
}

/** A stream that hands out `bytes` in pieces of `size` bytes (1: the hardest case for a parser). */
export function streamInPieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}
