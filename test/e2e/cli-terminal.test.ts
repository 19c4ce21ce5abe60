/**
 * `npm run crawl -- --import` of a WARC whose `WARC-Refers-To-Target-URI` and `WARC-Target-URI` hold
 * a title change, a clipboard write (OSC 52), a cleared screen and an RLO (issue 27, item 7): the
 * warning and the error that quote them reach stdout and stderr with no raw ESC or BEL, written out
 * as `\x1B` and `\x07`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT } from './helpers.ts';

const TIMEOUT = { timeout: 120_000 };
/** ESC ] 0 ; … BEL retitles the terminal, ESC ] 52 writes the clipboard, ESC [ 2 J clears the screen. */
const HOSTILE = 'http://evil.test/\u001B]0;owned\u0007\u001B]52;c;ZWNobyBoaQ==\u0007\u001B[2J\u202Egnp.exe';
/** Any raw control but the line feed (the output is not a terminal: no progress line codes either). */
const RAW = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E]/u;

function record(fields: Record<string, string>, block: string): string {
  const head = Object.entries({ ...fields, 'Content-Length': String(Buffer.byteLength(block)) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `WARC/1.0\r\n${head}\r\n${block}\r\n\r\n`;
}

const HTTP = 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n';

function crawlCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['src/shells/cli/main.ts', ...args], {
      cwd: ROOT,
      env: process.env,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ code, output }));
  });
}

describe('the command line prints what an archive says with its control characters written out', () => {
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-terminal-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it(
    'a warning quoting a WARC-Refers-To-Target-URI with ESC, BEL and OSC 52 is printed without a raw ESC or BEL',
    TIMEOUT,
    async () => {
      const file = join(out, 'revisit.warc');
      writeFileSync(
        file,
        record(
          {
            'WARC-Type': 'revisit',
            'WARC-Target-URI': 'http://a.test/',
            'WARC-Date': '2024-01-01T00:00:00Z',
            'WARC-Profile': 'http://netpreserve.org/warc/1.0/revisit/identical-payload-digest',
            'WARC-Refers-To-Target-URI': HOSTILE,
            'WARC-Refers-To-Date': '2023-01-01T00:00:00Z',
            'WARC-Record-ID': '<urn:uuid:00000000-0000-4000-8000-000000000001>',
            'Content-Type': 'application/http; msgtype=response',
          },
          HTTP,
        ),
      );
      const run = await crawlCli(['--import', file, '--out', join(out, 'revisit.jsonl')]);
      assert.equal(run.code, 0, run.output);
      assert.match(
        run.output,
        /^tabcrawl: {3}.*a revisit of http:\/\/evil\.test\/\\x1B\]0;owned\\x07\\x1B\]52;c;ZWNobyBoaQ==\\x07\\x1B\[2J\\u202Egnp\.exe that is not in the archive/m,
      );
      assert.doesNotMatch(run.output, RAW, JSON.stringify(run.output));
    },
  );

  it(
    'an error naming a WARC-Target-URI with ESC, BEL and a cleared screen is printed without a raw ESC or BEL',
    TIMEOUT,
    async () => {
      const file = join(out, 'cut.warc');
      const whole = record(
        {
          'WARC-Type': 'response',
          'WARC-Target-URI': HOSTILE,
          'WARC-Date': '2024-01-01T00:00:00Z',
          'WARC-Record-ID': '<urn:uuid:00000000-0000-4000-8000-000000000002>',
          'Content-Type': 'application/http; msgtype=response',
        },
        `${HTTP}${'x'.repeat(200)}`,
      );
      writeFileSync(file, whole.slice(0, whole.length - 100));
      const run = await crawlCli(['--import', file]);
      assert.equal(run.code, 1, run.output);
      assert.match(run.output, /^tabcrawl: could not import .*response http:\/\/evil\.test\/\\x1B\]0;owned\\x07/m);
      assert.doesNotMatch(run.output, RAW, JSON.stringify(run.output));
    },
  );
});
