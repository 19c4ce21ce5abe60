import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GROUP_ROWS, readingAhead, rowGroups } from '../../src/export/warc-groups.ts';
import { writeWarcGz } from '../../src/export/warc.ts';
import {
  collectBytes,
  countingContext,
  fixtureBodies,
  fixtureRows,
  fixtureSource,
} from '../support/export-fixtures.ts';
import type { PageRecord } from '../../src/core/model.ts';

/** The fixture's rows repeated `times` (seq renumbered), a source that counts its body reads. */
function countingSource(times: number, withBodies: boolean) {
  const base = fixtureRows();
  const rows: PageRecord[] = [];
  for (let i = 0; i < times; i += 1) for (const row of base) rows.push({ ...row, seq: rows.length + 1 });
  const source = fixtureSource(rows, fixtureBodies());
  const reads = { single: 0, batches: [] as number[] };
  const body = source.body;
  return {
    reads,
    source: {
      ...source,
      rows: () => source.rows(),
      body: (sha256: string) => ((reads.single += 1), body(sha256)),
      ...(withBodies
        ? { bodies: async (keys: readonly string[]) => (reads.batches.push(keys.length), Promise.all(keys.map(body))) }
        : {}),
    },
  };
}

describe('rowGroups', () => {
  test("reads each group's bodies in one call, each distinct body once, and the rows all in order", async () => {
    const { source, reads } = countingSource(40, true);
    const seqs: number[] = [];
    for await (const group of rowGroups(source)) {
      assert.ok(group.rows.length <= GROUP_ROWS);
      seqs.push(...group.rows.map((row) => row.seq));
      assert.equal(new Set(group.bodies.keys()).size, group.bodies.size);
    }
    assert.deepEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => i + 1),
    );
    assert.equal(reads.single, 0);
    assert.ok(
      reads.batches.length >= 2 && reads.batches.every((n) => n <= fixtureBodies().size),
      JSON.stringify(reads.batches),
    );
  });

  test('a WARC written from a source without batched reads is the same, records ids aside', async () => {
    const strip = (bytes: Buffer): string => bytes.toString('latin1').replace(/<urn:uuid:[0-9a-f-]+>/g, '<id>');
    const batched = countingSource(3, true);
    const single = countingSource(3, false);
    const a = await collectBytes(writeWarcGz(batched.source, countingContext().context));
    const b = await collectBytes(writeWarcGz(single.source, countingContext().context));
    const { gunzipSync } = await import('node:zlib');
    assert.equal(strip(gunzipSync(a)), strip(gunzipSync(b)));
    assert.equal(batched.reads.single, 0);
    assert.ok(single.reads.single > 0);
  });
});

describe('readingAhead', () => {
  test('asks for the next item before handing out the current one, and closes the source when stopped early', async () => {
    const log: string[] = [];
    let closed = false;
    async function* items() {
      try {
        for (let i = 1; i <= 5; i += 1) {
          log.push(`read ${i}`);
          yield i;
        }
      } finally {
        closed = true;
      }
    }
    for await (const item of readingAhead(items())) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.push(`use ${item}`);
      if (item === 2) break;
    }
    assert.deepEqual(log, ['read 1', 'read 2', 'use 1', 'read 3', 'use 2']);
    assert.equal(closed, true);
  });
});
