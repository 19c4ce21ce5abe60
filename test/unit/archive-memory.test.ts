/**
 * Memory while importing: 300 MB of WARC records, made on the fly as a stream
 * (never a file in memory), read to rows (reader and row builder, bodies
 * hashed and dropped as a store would take them), plain and gzipped per record.
 * The heap and the array buffers, measured after a forced collection every 25
 * records, must not grow with the file: the bound (64 MB) is generous; the
 * figures are printed as test diagnostics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { ArchiveRowBuilder } from '../../src/import/archive-rows.ts';
import { readWarc } from '../../src/import/warc-reader.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
const TOTAL = 300 * MB;
const encoder = new TextEncoder();

/** Record `i`: a response of 256 KiB (every tenth: 4 MiB; every seventh: an HTML page linking to the next ones). */
function record(i: number): Uint8Array {
  const html = i % 7 === 0;
  const size = i % 10 === 0 ? 4 * MB : 256 * 1024;
  const body = html
    ? encoder.encode(
        `<!doctype html><title>Page ${i}</title>${Array.from({ length: 50 }, (_, j) => `<a href="/f${i + j}">${j}</a>`).join('')}`,
      )
    : new Uint8Array(size);
  if (!html) for (let j = 0; j < size; j += 4096) body[j] = (i * 31 + j) & 0xff;
  const http = encoder.encode(
    `HTTP/1.1 200 OK\r\nContent-Type: ${html ? 'text/html' : 'application/octet-stream'}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  const head = encoder.encode(
    `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/f${i}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:${i}>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.length + body.length}\r\n\r\n`,
  );
  const out = new Uint8Array(head.length + http.length + body.length + 4);
  out.set(head);
  out.set(http, head.length);
  out.set(body, head.length + http.length);
  out.set(encoder.encode('\r\n\r\n'), out.length - 4);
  return out;
}

/** 300 MB of records as a stream, made as they are pulled. */
function generated(gzip: boolean): { stream: ReadableStream<Uint8Array>; made: () => number } {
  let made = 0;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (made >= TOTAL) {
        controller.close();
        return;
      }
      const bytes = record(i);
      i += 1;
      made += bytes.length;
      controller.enqueue(gzip ? new Uint8Array(gzipSync(bytes, { level: 1 })) : bytes);
    },
  });
  return { stream, made: () => made };
}

const used = (): number => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

for (const gzip of [false, true]) {
  describe(`importing 300 MB of ${gzip ? 'gzipped' : 'plain'} WARC records`, () => {
    it('keeps the memory flat: the heap and buffers grow by far less than 64 MB', { timeout: 180_000 }, async (t) => {
      const { stream, made } = generated(gzip);
      const builder = new ArchiveRowBuilder({
        crawlId: 'memory',
        settings: { ...DEFAULT_SETTINGS, startUrl: 'https://example.com/f0' },
      });
      gc();
      const base = used();
      let peak = 0;
      let records = 0;
      let rows = 0;
      let bodyBytes = 0;
      const started = performance.now();
      for await (const found of readWarc(stream, { fileName: 'generated.warc' })) {
        for (const { body } of await builder.add(found)) {
          rows += 1;
          bodyBytes += body?.length ?? 0; // a store would take the body here; it is dropped
        }
        records += 1;
        if (records % 25 === 0) {
          gc();
          peak = Math.max(peak, used() - base);
        }
      }
      rows += (await builder.finish()).length;
      const seconds = (performance.now() - started) / 1000;
      // V8 frees array buffers' memory after a collection, on another thread: a few collections a few ms
      // apart let it (one collection measured at once kept 20 MB of freed buffers once, on a loaded machine).
      let growth = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round += 1) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
        growth = Math.min(growth, used() - base);
      }
      t.diagnostic(
        `${(made() / MB).toFixed(0)} MB, ${records} records, ${rows} rows, ${(bodyBytes / MB).toFixed(0)} MB of bodies in ${seconds.toFixed(1)} s (${(records / seconds).toFixed(0)} records/s, ${(made() / MB / seconds).toFixed(0)} MB/s); peak growth ${(peak / MB).toFixed(1)} MB, after ${(growth / MB).toFixed(1)} MB`,
      );
      assert.equal(rows, records);
      assert.ok(made() >= TOTAL);
      assert.ok(peak < 64 * MB, `peak growth ${(peak / MB).toFixed(1)} MB`);
      assert.ok(growth < 16 * MB, `growth after ${(growth / MB).toFixed(1)} MB`);
    });
  });
}
