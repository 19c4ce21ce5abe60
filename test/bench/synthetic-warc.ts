/**
 * A plain WARC of a given size written on the fly for the import benchmark
 * (`npm run bench:import -- --synthetic MIB`): `response` records of distinct
 * 100 KiB HTML pages (a title, three links to other pages of the file, random
 * text, so no two bodies are equal and each is stored), no requests. Large
 * enough to show whether the import's memory grows with the archive.
 */
import { createWriteStream } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';

/** Bytes of random text in each page (base64 of 3/4 as many random bytes). */
const FILLER_BYTES = 100 * 1024;

/**
 * Writes `path`, a WARC of about `mib` MiB (whole records: it stops at the first record that reaches the size).
 * @returns the records written.
 */
export async function writeSyntheticWarc(path: string, mib: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (bytes: Buffer): Promise<void> =>
    new Promise((done) => (out.write(bytes) ? done() : out.once('drain', done)));
  const target = mib * 1024 * 1024;
  const pages = Math.max(1, Math.ceil(target / (FILLER_BYTES + 700)));
  let written = 0;
  let records = 0;
  while (written < target) {
    const i = records;
    const links = [1, 2, 3].map((k) => `<a href="/page/${(i * 7 + k) % pages}">page</a>`).join(' ');
    const body = Buffer.from(
      `<!doctype html><html><head><title>Page ${i}</title></head><body>${links}<p>${randomBytes((FILLER_BYTES * 3) / 4).toString('base64')}</p></body></html>`,
    );
    const http = Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
    const date = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString().replace('.000', '');
    const head = Buffer.from(
      `WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:${randomUUID()}>\r\nWARC-Date: ${date}\r\n` +
        `WARC-Target-URI: http://synthetic.example/page/${i}\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`,
    );
    await write(Buffer.concat([head, http, Buffer.from('\r\n\r\n')]));
    written += head.length + http.length + 4;
    records += 1;
  }
  out.end();
  await new Promise<void>((done, fail) => out.on('finish', done).on('error', fail));
  return records;
}
