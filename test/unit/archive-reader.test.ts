/**
 * The streaming WARC reader (src/import/warc-reader.ts) on the WARC files
 * other tools wrote (test/fixtures/warc/, copies of the shared fixtures), compared with warcio.js read
 * independently as the reference: same records, types, target URIs (angle
 * brackets stripped), payload bytes and offsets. Then what warcio.js does not
 * do: a cut file ends with an error naming the file and the byte, after every
 * record before the cut; corrupt gzip, a file that is no WARC, a record without
 * a length, a header that never ends: errors, never a hang.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ArchiveReadError } from '../../src/import/archive-error.ts';
import { readWarc, type WarcReadOptions, type WarcRecord } from '../../src/import/warc-reader.ts';
import type { ByteInput } from '../../src/import/byte-source.ts';
import { readWithWarcio, streamInPieces, warcFixture, warcFixtureNames } from '../support/warc-fixtures.ts';

/** Every test here must end well within this: a hang fails the test instead of stalling the run. */
const TIMEOUT = { timeout: 30_000 };

interface ReadResult {
  records: WarcRecord[];
  error: ArchiveReadError | null;
}

async function readAll(input: ByteInput, options: Partial<WarcReadOptions> = {}): Promise<ReadResult> {
  const records: WarcRecord[] = [];
  try {
    for await (const record of readWarc(input, { fileName: 'test.warc', ...options })) records.push(record);
  } catch (error) {
    if (!(error instanceof ArchiveReadError)) throw error;
    return { records, error };
  }
  return { records, error: null };
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** One WARC record, as a writer would put it (CRLF CRLF after the block). */
function warcRecord(type: string, uri: string, block: Uint8Array | string, extra: string[] = []): Uint8Array {
  const bytes = typeof block === 'string' ? text(block) : block;
  const head = text(
    [
      'WARC/1.1',
      `WARC-Type: ${type}`,
      `WARC-Target-URI: ${uri}`,
      'WARC-Date: 2026-01-02T03:04:05Z',
      `WARC-Record-ID: <urn:uuid:${crypto.randomUUID()}>`,
      ...extra,
      `Content-Length: ${bytes.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  const out = new Uint8Array(head.length + bytes.length + 4);
  out.set(head);
  out.set(bytes, head.length);
  out.set(text('\r\n\r\n'), head.length + bytes.length);
  return out;
}

function join(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

describe('the WARC reader on the fixtures, against warcio.js', () => {
  for (const name of warcFixtureNames()) {
    it(`reads ${name} as warcio.js does`, TIMEOUT, async () => {
      const bytes = warcFixture(name);
      const reference = await readWithWarcio(bytes);
      const { records, error } = await readAll(new Blob([bytes as Uint8Array<ArrayBuffer>]), { fileName: name });
      assert.equal(error, null, `no error reading ${name}`);
      assert.equal(records.length, reference.length, 'as many records');
      records.forEach((record, i) => {
        const expected = reference[i];
        assert.ok(expected);
        assert.equal(record.index, i);
        assert.equal(record.type, expected.type, `record ${i}: type`);
        assert.equal(record.targetUri, expected.targetUri, `record ${i}: target URI`);
        assert.equal(record.offset, expected.offset, `record ${i}: offset`);
        assert.equal(record.http?.startLine ?? null, expected.startLine, `record ${i}: HTTP start line`);
        assert.deepEqual(record.payload, expected.payload, `record ${i}: payload bytes`);
        assert.equal(record.blockCut, false);
      });
    });
  }

  it(
    'gives offsets and lengths that tile the file: each record starts where the one before it ends',
    TIMEOUT,
    async () => {
      for (const name of warcFixtureNames()) {
        const bytes = warcFixture(name);
        const { records } = await readAll(bytes, { fileName: name });
        records.forEach((record, i) => {
          const next = records[i + 1];
          assert.equal(
            record.offset + record.length,
            next === undefined ? bytes.length : next.offset,
            `${name} record ${i}`,
          );
        });
      }
    },
  );

  it('reads the same records from a stream of 1-byte pieces', TIMEOUT, async () => {
    for (const name of [
      'example.warc.gz',
      'example-iana.org-chunked.warc',
      'example-bad-length.warc',
      'redirect.warc',
    ]) {
      const bytes = warcFixture(name);
      const whole = await readAll(bytes);
      const pieces = await readAll(streamInPieces(bytes, 1));
      assert.equal(pieces.error, null);
      assert.deepEqual(
        pieces.records.map((r) => [r.type, r.targetUri, r.offset, r.length, r.payload, r.body]),
        whole.records.map((r) => [r.type, r.targetUri, r.offset, r.length, r.payload, r.body]),
        name,
      );
    }
  });

  it(
    'strips the angle brackets wget wrote around WARC-Target-URI, and reads its resource and metadata records',
    TIMEOUT,
    async () => {
      const name = 'example-wget-bad-target-uri.warc.gz';
      const bytes = warcFixture(name);
      const raw = gunzipSync(bytes).toString('latin1');
      assert.match(raw, /WARC-Target-URI: <http:\/\/example\.com\/>/, 'the fixture has the brackets');
      const { records } = await readAll(bytes, { fileName: name });
      assert.deepEqual(
        records.map((r) => [r.type, r.targetUri]),
        [
          ['warcinfo', null],
          ['request', 'http://example.com/'],
          ['response', 'http://example.com/'],
          ['metadata', 'metadata://gnu.org/software/wget/warc/MANIFEST.txt'],
          ['resource', 'metadata://gnu.org/software/wget/warc/wget_arguments.txt'],
          ['resource', 'metadata://gnu.org/software/wget/warc/wget.log'],
        ],
      );
      const args = records[4];
      assert.ok(args);
      assert.equal(args.http, null);
      assert.equal(args.body, args.block);
      assert.match(new TextDecoder().decode(args.body), /--warc-file=/);
    },
  );

  it('keeps a chunked payload as archived and gives the de-chunked body', TIMEOUT, async () => {
    const { records } = await readAll(warcFixture('example-iana.org-chunked.warc'));
    const response = records.find((r) => r.type === 'response');
    assert.ok(response?.http);
    assert.match(response.http.headers.find(([n]) => n.toLowerCase() === 'transfer-encoding')?.[1] ?? '', /chunked/i);
    const payload = new TextDecoder().decode(response.payload);
    const body = new TextDecoder().decode(response.body);
    assert.match(payload, /^[0-9a-f]+\r\n<!doctype html>/i, 'the payload starts with a chunk size');
    assert.match(body, /^<!doctype html>/i, 'the body starts with the page');
    assert.match(body, /<\/html>\s*$/i);
    assert.doesNotMatch(body, /\r\n0\r\n/);
    assert.deepEqual(response.bodyDecoding, {
      dechunked: true,
      decoded: [],
      stillEncoded: null,
      incomplete: false,
      problems: [],
    });
    assert.ok(response.body.length < response.payload.length);
  });

  it('gives a revisit its refers-to target, also when it points at another URL', TIMEOUT, async () => {
    const { records } = await readAll(warcFixture('example-url-agnostic-revisit.warc.gz'));
    const revisit = records.find((r) => r.type === 'revisit');
    assert.ok(revisit);
    assert.equal(revisit.targetUri, 'http://test@example.com/');
    assert.equal(revisit.refersToTargetUri, 'http://example.iana.org/');
    assert.match(revisit.profile ?? '', /identical-payload-digest/);
    assert.equal(revisit.http?.status, 200);
    assert.equal(revisit.payload.length, 0);
  });

  it('decodes a gzip Content-Encoding into the body and leaves the payload as archived', TIMEOUT, async () => {
    const { records } = await readAll(warcFixture('example.warc.gz'));
    const response = records.find((r) => r.type === 'response');
    assert.ok(response);
    assert.equal(response.payload[0], 0x1f, 'the payload is gzip as served');
    assert.deepEqual(response.bodyDecoding?.decoded, ['gzip']);
    assert.match(new TextDecoder().decode(response.body), /<title>Example Domain<\/title>/);
  });

  it('keeps a brotli body encoded when no decoder is there, and decodes it with one', TIMEOUT, async () => {
    const page = text('<!doctype html><title>Brotli</title><a href="/x">x</a>');
    const encoded = brotliCompressSync(page);
    const block = join(text('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n\r\n'), encoded);
    const warc = warcRecord('response', 'https://example.com/', block, [
      'Content-Type: application/http; msgtype=response',
    ]);
    const plain = await readAll(warc);
    const withoutDecoder = plain.records[0];
    assert.ok(withoutDecoder);
    // Node 20's DecompressionStream knows no brotli; a platform that does would decode it.
    if (withoutDecoder.bodyDecoding?.stillEncoded === 'br') {
      assert.deepEqual(withoutDecoder.body, new Uint8Array(encoded));
      assert.match(withoutDecoder.warnings.join(' '), /content coding br cannot be decoded here/);
    }
    const decoded = await readAll(warc, {
      decoders: { br: async (bytes) => new Uint8Array(brotliDecompressSync(bytes)) },
    });
    assert.deepEqual(decoded.records[0]?.body, page);
    assert.deepEqual(decoded.records[0]?.bodyDecoding?.decoded, ['br']);
  });

  it('reads a body stored decoded under a Content-Encoding header as it is, with a warning', TIMEOUT, async () => {
    const block = text(
      'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n<!doctype html><title>Decoded</title>',
    );
    const { records } = await readAll(warcRecord('response', 'https://example.com/', block));
    assert.equal(new TextDecoder().decode(records[0]?.body), '<!doctype html><title>Decoded</title>');
    assert.equal(records[0]?.bodyDecoding?.stillEncoded, null);
    assert.match(records[0]?.warnings.join(' ') ?? '', /not gzip data although its headers say so/);
  });
});

describe('the WARC reader on a wrong Content-Length', () => {
  it('reads every record of example-bad-length.warc, skips the stray bytes and says so', TIMEOUT, async () => {
    const name = 'example-bad-length.warc';
    const { records, error } = await readAll(warcFixture(name), { fileName: name });
    assert.equal(error, null);
    assert.deepEqual(
      records.map((r) => r.type),
      ['warcinfo', 'warcinfo', 'response', 'request', 'revisit', 'request'],
    );
    const response = records[2];
    assert.ok(response);
    assert.match(response.warnings.join(' '), /Content-Length does not match its block: 5 bytes .* were skipped/);
    const revisit = records[4];
    assert.match(revisit?.warnings.join(' ') ?? '', /followed by 2 line-ending bytes instead of CRLF CRLF/);
  });

  it('gets past a Content-Length too large for its record to the next record', TIMEOUT, async () => {
    const first = warcRecord('resource', 'https://example.com/a', 'aaaa');
    const wrong = text(
      new TextDecoder()
        .decode(warcRecord('resource', 'https://example.com/b', 'bbbbbbbb'))
        .replace('Content-Length: 8', 'Content-Length: 3'),
    );
    const last = warcRecord('resource', 'https://example.com/c', 'cccc');
    const { records, error } = await readAll(join(first, wrong, last));
    assert.equal(error, null);
    assert.deepEqual(
      records.map((r) => [r.targetUri, new TextDecoder().decode(r.payload)]),
      [
        ['https://example.com/a', 'aaaa'],
        ['https://example.com/b', 'bbb'],
        ['https://example.com/c', 'cccc'],
      ],
    );
    assert.match(records[1]?.warnings.join(' ') ?? '', /9 bytes between its end and the next record/);
  });

  it(
    'ends with an error, not a hang, when the last Content-Length runs past the end of the file',
    TIMEOUT,
    async () => {
      const record = text(
        new TextDecoder()
          .decode(warcRecord('resource', 'https://example.com/a', 'aaaa'))
          .replace('Content-Length: 4', 'Content-Length: 4000000'),
      );
      const { records, error } = await readAll(record, { fileName: 'long.warc' });
      assert.equal(records.length, 0);
      assert.ok(error);
      assert.equal(error.kind, 'truncated');
      assert.match(
        error.message,
        /^long\.warc: the file ends in record 1 \(resource https:\/\/example\.com\/a, which starts at byte 0\): its block is 4000000 bytes, only 8 are there \(at byte \d+\)$/,
      );
    },
  );
});

describe('the WARC reader on cut and broken files', () => {
  /** Cuts every fixture at a few places: before, inside and just after its records. */
  for (const name of warcFixtureNames()) {
    it(
      `reads ${name} cut short: the records before the cut, then an error naming the file and the byte`,
      TIMEOUT,
      async () => {
        const bytes = warcFixture(name);
        const full = await readAll(bytes, { fileName: name });
        const cuts = new Set<number>([
          1,
          17,
          Math.floor(bytes.length / 3),
          Math.floor(bytes.length / 2),
          bytes.length - 1,
        ]);
        for (const record of full.records.slice(1, 4)) {
          cuts.add(record.offset); // between two records: a shorter, whole WARC
          cuts.add(record.offset + 3);
        }
        for (const cut of cuts) {
          const { records, error } = await readAll(bytes.subarray(0, cut), { fileName: name });
          const whole = full.records.filter((r) => r.offset + r.length <= cut);
          const atBoundary = full.records.some((r) => r.offset === cut);
          // What comes out is what the full file gives, up to the cut, and every record wholly before the cut.
          assert.deepEqual(
            records.map((r) => [r.type, r.targetUri, r.payload]),
            full.records.slice(0, records.length).map((r) => [r.type, r.targetUri, r.payload]),
            `${name} cut at ${cut}`,
          );
          assert.ok(records.length >= whole.length, `${name} cut at ${cut}: ${records.length} >= ${whole.length}`);
          const last = records.at(-1);
          // A plain file cut in the CRLF CRLF after a block still holds that record whole.
          const inTrailer =
            last !== undefined && full.records[records.length] === undefined
              ? cut >= last.offset + last.length - 4
              : last !== undefined && cut >= last.offset + last.length - 4 && cut <= last.offset + last.length;
          if (atBoundary || (error === null && inTrailer)) {
            assert.equal(error, null, `${name} cut at ${cut}, between two records, is a shorter WARC`);
          } else {
            assert.ok(error, `${name} cut at ${cut} ends with an error`);
            assert.equal(error.kind, 'truncated', error.message);
            assert.equal(error.fileName, name);
            assert.ok(error.message.startsWith(`${name}: `), error.message);
            assert.match(error.message, new RegExp(`at byte ${error.offset}`));
            assert.ok(error.offset <= cut, `${error.offset} <= ${cut}`);
            assert.equal(error.recordsRead, records.length);
          }
        }
      },
    );
  }

  it('says in which record a gzip member ends early', TIMEOUT, async () => {
    const { error, records } = await readAll(warcFixture('example.warc.gz').subarray(0, 1500), {
      fileName: 'example.warc.gz',
    });
    assert.equal(records.length, 2);
    assert.equal(
      error?.message,
      'example.warc.gz: the file ends in the middle of a gzip member (which starts at byte 784): it is cut short in record 3 (response http://example.com/, which starts at byte 784) (at byte 1500; 2 records read before it)',
    );
  });

  it('stops at corrupt gzip data with the offset of its gzip member', TIMEOUT, async () => {
    const bytes = warcFixture('example.warc.gz').slice();
    for (let i = 800; i < 820; i += 1) bytes[i] = 0xff;
    const { records, error } = await readAll(bytes, { fileName: 'example.warc.gz' });
    assert.equal(records.length, 2);
    assert.equal(error?.kind, 'corrupt');
    assert.equal(error?.offset, 784);
    assert.match(
      error?.message ?? '',
      /^example\.warc\.gz: the gzip data is corrupt \(.+\) in the gzip member that starts here/,
    );
  });

  it('says a file is not a WARC when it is not one', TIMEOUT, async () => {
    for (const bytes of [
      text('%PDF-1.7\n%âãÏÓ\n1 0 obj'),
      text('<!doctype html><title>x</title>'),
      new Uint8Array(0),
      text('\r\n\r\n'),
    ]) {
      const { records, error } = await readAll(bytes, { fileName: 'x.warc' });
      assert.equal(records.length, 0);
      if (bytes.length === 0 || bytes[0] === 0x0d) {
        assert.equal(error, null, 'an empty file (or blank lines) holds no records');
        continue;
      }
      assert.equal(error?.kind, 'not-warc');
      assert.match(error?.message ?? '', /^x\.warc: this is not a WARC file: it starts with ".+" \(at byte 0\)$/);
    }
  });

  it('stops at a record without a Content-Length', TIMEOUT, async () => {
    const first = warcRecord('resource', 'https://example.com/a', 'aaaa');
    const second = text(
      'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: https://example.com/b\r\n\r\nbbbb\r\n\r\n',
    );
    const { records, error } = await readAll(join(first, second), { fileName: 'x.warc' });
    assert.equal(records.length, 1);
    assert.equal(error?.kind, 'not-warc');
    assert.equal(error?.offset, first.length);
    assert.match(error?.message ?? '', /record 2 has no valid Content-Length \(none\)/);
  });

  it('stops at a WARC header that never ends, without holding it', TIMEOUT, async () => {
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(text('WARC/1.1\r\nWARC-Type: resource\r\nX-Long: '));
      },
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
      },
    });
    const { error } = await readAll(endless, { fileName: 'endless.warc' });
    assert.equal(error?.kind, 'not-warc');
    assert.match(error?.message ?? '', /WARC header of record 1 is longer than 1048576 bytes/);
  });

  it('stops reading its input when the caller stops early', TIMEOUT, async () => {
    let cancelled = false;
    let pulls = 0;
    const record = warcRecord('resource', 'https://example.com/a', 'aaaa');
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(record);
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const found of readWarc(stream, { fileName: 'many.warc' })) {
      assert.equal(found.targetUri, 'https://example.com/a');
      break;
    }
    assert.equal(cancelled, true);
    assert.ok(pulls < 5);
  });
});

describe('the WARC reader on gzip over the whole file, and on large records', () => {
  it('reads one gzip member over the whole file like the plain file, with uncompressed offsets', TIMEOUT, async () => {
    const plain = warcFixture('example-iana.org-chunked.warc');
    const whole = new Uint8Array(gzipSync(plain));
    const fromPlain = await readAll(plain);
    const fromGzip = await readAll(whole);
    assert.equal(fromGzip.error, null);
    assert.deepEqual(
      fromGzip.records.map((r) => [r.type, r.targetUri, r.dataOffset, r.payload, r.body]),
      fromPlain.records.map((r) => [r.type, r.targetUri, r.offset, r.payload, r.body]),
    );
    assert.deepEqual(
      fromGzip.records.map((r) => r.offset),
      [0, 0, 0],
      'all in the one member that starts at byte 0',
    );
    assert.deepEqual(
      fromGzip.records.map((r) => r.length),
      [0, 0, whole.length],
    );
  });

  it('reads a .warc file that is gzipped whatever its name', TIMEOUT, async () => {
    const bytes = warcFixture('example-iana.warc');
    assert.equal(bytes[0], 0x1f);
    const { records } = await readAll(bytes, { fileName: 'example-iana.warc' });
    assert.ok(records.length > 100);
  });

  it('keeps at most maxRecordBytes of a block and reads on', TIMEOUT, async () => {
    const big = new Uint8Array(100_000).fill(0x62);
    const input = join(
      warcRecord('resource', 'https://example.com/big', big, ['Content-Type: application/octet-stream']),
      warcRecord('resource', 'https://example.com/small', 'small'),
    );
    const { records, error } = await readAll(input, { maxRecordBytes: 1000 });
    assert.equal(error, null);
    assert.equal(records[0]?.blockCut, true);
    assert.equal(records[0]?.block.length, 1000);
    assert.equal(records[0]?.contentLength, 100_000);
    assert.equal(records[1]?.blockCut, false);
    assert.equal(new TextDecoder().decode(records[1]?.body), 'small');
  });

  it('reports progress in file bytes', TIMEOUT, async () => {
    const bytes = warcFixture('example.warc.gz');
    const seen: number[] = [];
    await readAll(streamInPieces(bytes, 1000), { onProgress: (n) => seen.push(n) });
    assert.equal(seen.at(-1), bytes.length);
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
    );
  });
});
