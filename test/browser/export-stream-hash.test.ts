import { expect } from 'chai';
import { inlineHash, startStreamHash, type StreamHash } from '../../src/export/stream-hash.ts';

/** Chunks of several sizes, some views on part of a larger buffer (as the WARC's pieces can be). */
function chunks(): Uint8Array[] {
  const out: Uint8Array[] = [];
  let seed = 7;
  for (const size of [0, 1, 63, 64, 65, 1000, 70_000, 3 * 1024 * 1024]) {
    const buffer = new Uint8Array(size + 20);
    for (let i = 0; i < buffer.length; i += 1) buffer[i] = seed = (seed * 1103515245 + 12345) >>> 16;
    out.push(buffer.subarray(10, 10 + size));
  }
  return out;
}

async function digestOf(hash: StreamHash): Promise<string> {
  for (const chunk of chunks()) await hash.update(chunk);
  return hash.end();
}

describe('startStreamHash', () => {
  it('hashes in a worker to the same SHA-256 as in the page, leaving the chunks as they were', async () => {
    const expected = await digestOf(inlineHash());
    const joined = new Uint8Array(chunks().reduce((sum, c) => sum + c.byteLength, 0));
    let offset = 0;
    for (const chunk of chunks()) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const native = [...new Uint8Array(await crypto.subtle.digest('SHA-256', joined))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(expected).to.equal(native);
    const hash = await startStreamHash();
    expect(hash.inWorker).to.equal(true);
    const sent = chunks();
    for (const chunk of sent) await hash.update(chunk);
    expect(await hash.end()).to.equal(native);
    expect(sent.map((c) => c.byteLength)).to.deep.equal(chunks().map((c) => c.byteLength));
  });
});
