/**
 * What one inflate may hold (issue 27, item 4): a gzip bomb handed over as one
 * chunk, and the same bomb zip-deflated in a WACZ (whose entry hands the WARC
 * reader one large chunk per 64 KiB of the zip), are read with the inflated
 * bytes held at any time under a bound, not all that a chunk inflates to. The
 * array buffers are sampled at every progress report of the reader (after
 * each piece of input it inflates) and after each record.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { openWacz } from '../../src/import/wacz-reader.ts';
import { readWarc } from '../../src/import/warc-reader.ts';
import { gzipBomb, waczOfGzipBomb } from '../support/hostile-archives.ts';
import { VirtualFile } from '../support/zip64-fixture.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;
/** One 64 MiB record, one inflated push (64 KiB × 1,032) and the copies between them. */
const BOUND = 256 * MiB;

function sampler(): { sample: () => void; peak: () => number } {
  gc();
  const base = process.memoryUsage().arrayBuffers;
  let peak = 0;
  return { sample: () => (peak = Math.max(peak, process.memoryUsage().arrayBuffers - base)), peak: () => peak };
}

describe('inflating stays bounded', () => {
  it(
    'reads a 512 MiB gzip bomb handed over as one chunk holding far less than it inflates to',
    { timeout: 120_000 },
    async (t) => {
      const bomb = await gzipBomb(512 * MiB);
      const { sample, peak } = sampler();
      const records = [];
      for await (const record of readWarc(bomb.bytes, { fileName: bomb.name, onProgress: sample })) {
        sample();
        records.push({ uri: record.targetUri, cut: record.blockCut });
      }
      t.diagnostic(`peak ${Math.round(peak() / MiB)} MiB of array buffers`);
      assert.deepEqual(records, [
        { uri: 'https://example.com/bomb', cut: true },
        { uri: 'https://example.com/', cut: false },
      ]);
      assert.ok(peak() < BOUND, `held ${Math.round(peak() / MiB)} MiB`);
    },
  );

  it(
    'reads a WACZ whose WARC is a zip-deflated 1 GiB gzip bomb holding far less than it inflates to',
    { timeout: 120_000 },
    async (t) => {
      const archive = await waczOfGzipBomb(1024 * MiB);
      const wacz = await openWacz(
        new VirtualFile(archive.bytes.length, [{ offset: 0, bytes: archive.bytes }]),
        archive.name,
      );
      const { sample, peak } = sampler();
      const records = [];
      for await (const record of wacz.records({ onProgress: sample })) {
        sample();
        records.push({ uri: record.targetUri, cut: record.blockCut });
      }
      t.diagnostic(`peak ${Math.round(peak() / MiB)} MiB of array buffers`);
      assert.deepEqual(records, [
        { uri: 'https://example.com/bomb', cut: true },
        { uri: 'https://example.com/', cut: false },
      ]);
      assert.ok(peak() < BOUND, `held ${Math.round(peak() / MiB)} MiB`);
    },
  );
});
