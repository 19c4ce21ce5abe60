import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { crc32 as zlibCrc32, gunzipSync } from 'node:zlib';
import { crc32 } from '../../src/export/crc32.ts';
import { gzipMember, looksIncompressible } from '../../src/export/gzip-member.ts';
import { ChunkJoiner } from '../../src/export/chunk-joiner.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const html = text('<p>Some page text, repeated as pages repeat their markup.</p>\n'.repeat(400));

describe('crc32', () => {
  test("gives the check value of RFC 3720 and zlib's CRC of any bytes, in one call or continued", () => {
    assert.equal(crc32(text('123456789')), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
    const bytes = new Uint8Array(randomBytes(100_003));
    assert.equal(crc32(bytes), zlibCrc32(bytes));
    assert.equal(crc32(bytes.subarray(7), crc32(bytes.subarray(0, 7))), zlibCrc32(bytes));
  });
});

describe('gzipMember', () => {
  const member = (parts: Uint8Array[]): Buffer => Buffer.concat([...gzipMember(parts)]);

  test('stores incompressible bytes (random, as images and PDFs are) and deflates text, each one valid member', () => {
    const noise = new Uint8Array(randomBytes(50_000));
    assert.equal(looksIncompressible([text('WARC/1.1\r\n'), noise]), true);
    assert.equal(looksIncompressible([text('WARC/1.1\r\n'), html]), false);
    const stored = member([text('WARC/1.1\r\n'), noise]);
    assert.deepEqual(gunzipSync(stored), Buffer.concat([text('WARC/1.1\r\n'), noise]));
    assert.ok(stored.byteLength < noise.byteLength + 100, `${stored.byteLength} bytes`);
    const deflated = member([text('WARC/1.1\r\n'), html]);
    assert.deepEqual(gunzipSync(deflated), Buffer.concat([text('WARC/1.1\r\n'), html]));
    assert.ok(deflated.byteLength < html.byteLength / 10, `${deflated.byteLength} bytes`);
  });

  test('writes an empty member for no bytes, and a large text in chunks far smaller than itself', () => {
    assert.deepEqual(gunzipSync(member([])), Buffer.alloc(0));
    const big = new Uint8Array(6 * 1024 * 1024);
    for (let at = 0; at < big.length; at += html.length)
      big.set(html.subarray(0, Math.min(html.length, big.length - at)), at);
    const chunks = [...gzipMember([big])];
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.deepEqual(gunzipSync(Buffer.concat(chunks)), Buffer.from(big));
  });

  test('members written one after another read back as one stream, as a .warc.gz does', () => {
    const noise = new Uint8Array(randomBytes(200_000));
    const file = Buffer.concat([member([html]), member([noise]), member([text('end')])]);
    assert.deepEqual(gunzipSync(file), Buffer.concat([html, noise, text('end')]));
  });
});

describe('ChunkJoiner', () => {
  test('joins small chunks into chunks of the target size, passes a large one through whole, and flushes the rest', () => {
    const joiner = new ChunkJoiner(10);
    assert.deepEqual(joiner.push(text('abcd')), []);
    assert.deepEqual(joiner.push(text('efgh')), []);
    assert.deepEqual(joiner.push(text('ij')), [text('abcdefghij')]);
    const large = text('0123456789AB');
    const out = joiner.push(text('k').subarray(0));
    assert.deepEqual(out, []);
    const passed = joiner.push(large);
    assert.deepEqual(passed, [text('k'), large]);
    assert.equal(passed[1], large);
    assert.deepEqual(joiner.flush(), []);
    joiner.push(text('xy'));
    assert.deepEqual(joiner.flush(), [text('xy')]);
  });
});
