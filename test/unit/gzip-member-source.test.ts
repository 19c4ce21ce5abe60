/**
 * Gzip read member by member (src/import/gzip-member-source.ts): the same
 * bytes and member offsets as node:zlib writes them, however the input is
 * cut into pieces; gzip's magic bytes inside a member's data are not taken
 * for its end; headers with every optional field; and the hand-over to the
 * streaming reader for a member too large to read whole, with the offsets
 * still right after it. Corrupt and cut files are covered by
 * archive-reader.test.ts, through the same source.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { openDataSource } from '../../src/import/byte-source.ts';
import { concat } from '../../src/import/bytes.ts';
import { MAX_MEMBER_BYTES, MemberGzipSource, gzipHeaderLength } from '../../src/import/gzip-member-source.ts';
import { readWarc } from '../../src/import/warc-reader.ts';
import { fakeMemberHeaders } from '../support/hostile-archives.ts';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A gzip file of these members, with where each member starts in the file and in the data. */
function gzipFile(
  members: Uint8Array[],
  gzip: (data: Uint8Array) => Uint8Array = (data) => new Uint8Array(gzipSync(data)),
): { file: Uint8Array; fileOffsets: number[]; dataOffsets: number[] } {
  const parts = members.map(gzip);
  const fileOffsets: number[] = [];
  const dataOffsets: number[] = [];
  let file = 0;
  let data = 0;
  parts.forEach((part, i) => {
    fileOffsets.push(file);
    dataOffsets.push(data);
    file += part.length;
    data += members[i]?.length ?? 0;
  });
  return { file: concat(parts), fileOffsets, dataOffsets };
}

function* pieces(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Reads the whole source: its data, and the member offset it gives for each of `dataOffsets` (asked as a reader asks, once that byte is read). */
async function readSource(
  chunks: Iterable<Uint8Array>,
  dataOffsets: number[],
): Promise<{ data: Uint8Array; located: number[]; source: MemberGzipSource }> {
  const source = await openDataSource(chunks, 'test.warc.gz');
  assert.ok(source instanceof MemberGzipSource, 'a gzipped file is read member by member');
  const parts: Uint8Array[] = [];
  const located: number[] = [];
  let read = 0;
  let next = 0;
  for (let piece = await source.next(); piece !== null; piece = await source.next()) {
    parts.push(piece);
    read += piece.length;
    while (next < dataOffsets.length && (dataOffsets[next] ?? 0) < read)
      located.push(source.seekOffset(dataOffsets[next++] ?? 0));
  }
  return { data: concat(parts), located, source };
}

describe('gzip read member by member', () => {
  it('gives the data and every member offset, whatever the pieces the input comes in', async () => {
    const members = Array.from({ length: 40 }, (_, i) =>
      text(`WARC/1.1\r\nrecord ${i}\r\n\r\n${'<p>payload</p>'.repeat(i * 7)}\r\n\r\n`),
    );
    const { file, fileOffsets, dataOffsets } = gzipFile(members);
    for (const size of [1, 2, 3, 7, 10, 64, 1000, file.length]) {
      const { data, located, source } = await readSource(pieces(file, size), dataOffsets);
      assert.deepEqual(data, concat(members), `pieces of ${size}`);
      assert.deepEqual(located, fileOffsets, `pieces of ${size}`);
      assert.equal(source.handedOverAt, null, `pieces of ${size}: every member read whole`);
      assert.equal(source.fileBytesRead, file.length);
    }
  });

  it('does not take gzip magic bytes inside a member for its end', async () => {
    // Stored (level 0) members hold their data as it is: these bytes look like the next member's start,
    // after four bytes that look like a plausible size.
    const lookalike = concat([
      text('before '),
      new Uint8Array([0x10, 0, 0, 0, 0x10, 0, 0, 0, 0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff]),
      text(' after'),
    ]);
    const members = [text('first'), lookalike, lookalike, text('last')];
    const { file, fileOffsets, dataOffsets } = gzipFile(
      members,
      (data) => new Uint8Array(gzipSync(data, { level: 0 })),
    );
    const { data, located, source } = await readSource(pieces(file, 5), dataOffsets);
    assert.deepEqual(data, concat(members));
    assert.deepEqual(located, fileOffsets);
    assert.equal(source.handedOverAt, null);
  });

  it('reads headers with an extra field, a name, a comment and a header CRC', async () => {
    const deflated = new Uint8Array(gzipSync(text('named member')));
    // Ten bytes of header, then the fields of FEXTRA (0x04), FNAME (0x08), FCOMMENT (0x10), FHCRC (0x02).
    const header = new Uint8Array([
      0x1f,
      0x8b,
      0x08,
      0x1e,
      0,
      0,
      0,
      0,
      0,
      0xff,
      3,
      0,
      1,
      2,
      3,
      ...text('name.warc'),
      0,
      ...text('a comment'),
      0,
      0xab,
      0xcd,
    ]);
    const member = concat([header, deflated.subarray(10)]);
    assert.equal(gzipHeaderLength(member), header.length);
    assert.equal(gzipHeaderLength(member.subarray(0, 20)), 'more');
    assert.equal(gzipHeaderLength(text('WARC/1.1\r\n\r\n')), 'odd');
    const file = concat([member, new Uint8Array(gzipSync(text(' and another')))]);
    const { data, located, source } = await readSource(pieces(file, 3), [0, 12]);
    assert.equal(new TextDecoder().decode(data), 'named member and another');
    assert.deepEqual(located, [0, member.length]);
    assert.equal(source.handedOverAt, null);
  });

  it('hands a member too large to read whole to the streaming reader, offsets right after it', async () => {
    const large = new Uint8Array(randomBytes(MAX_MEMBER_BYTES + 100_000));
    const members = [text('small one'), large, text('small two'), text('small three')];
    const { file, fileOffsets, dataOffsets } = gzipFile(members);
    const { data, located, source } = await readSource(pieces(file, 65_536), dataOffsets);
    assert.deepEqual(data, concat(members));
    assert.deepEqual(located, fileOffsets);
    assert.equal(source.handedOverAt, fileOffsets[1], 'handed over at the large member');
    assert.equal(source.fileBytesRead, file.length);
  });

  it('reports progress that never goes back, up to the file size', async () => {
    const large = new Uint8Array(randomBytes(MAX_MEMBER_BYTES + 10));
    const { file } = gzipFile([text('a'), large, text('b')]);
    const seen: number[] = [];
    const source = await openDataSource(pieces(file, 100_000), 'test.warc.gz', (read) => seen.push(read));
    while ((await source.next()) !== null);
    assert.ok(
      seen.every((read, i) => i === 0 || read > (seen[i - 1] ?? 0)),
      'increasing',
    );
    assert.equal(seen.at(-1), file.length);
  });
});

describe('gzip read member by member, on hostile input', () => {
  it(
    'finds the end of a member full of fake gzip headers after plausible trailers at once, not by inflating up to each',
    { timeout: 10_000 },
    async () => {
      const archive = fakeMemberHeaders();
      const records: string[] = [];
      // The old search ran for about a minute on these 400 KB, never letting the test's timeout fire: the bound is checked here.
      const started = Date.now();
      for await (const record of readWarc(pieces(archive.bytes, 65_536), { fileName: archive.name }))
        records.push(record.targetUri ?? '');
      assert.deepEqual(records, ['https://example.com/blob', 'https://example.com/']);
      assert.ok(Date.now() - started < 10_000, `read within 10 s (took ${Date.now() - started} ms)`);
    },
  );

  it(
    "lets timers run while it reads (the import page's Cancel is a click), though its input never waits",
    { timeout: 60_000 },
    async () => {
      const members = Array.from({ length: 3000 }, (_, i) =>
        text(`WARC/1.1\r\nrecord ${i}\r\n\r\n${`<p>payload ${i} ${'x'.repeat(i % 97)}</p>`.repeat(300)}\r\n\r\n`),
      );
      const { file, dataOffsets } = gzipFile(members);
      let fired = false;
      setTimeout(() => (fired = true), 0);
      let readWhenFired = -1;
      const source = await openDataSource(pieces(file, 65_536), 'test.warc.gz');
      let read = 0;
      for (let piece = await source.next(); piece !== null; piece = await source.next()) {
        read += piece.length;
        if (fired && readWhenFired === -1) readWhenFired = read;
      }
      assert.ok(
        readWhenFired !== -1 && readWhenFired < read,
        `a timer fired before the end of the data (at ${readWhenFired} of ${read} bytes; ${dataOffsets.length} members)`,
      );
    },
  );
});
