/**
 * Nothing a crawled site or an archive says reaches the terminal as a command (issue 27, item 7): an
 * ESC, a BEL, an OSC 52 clipboard write or a cleared screen in a `WARC-Target-URI`, a crawl's start URL,
 * its message or a host's name is written out (`\x1B`) in every line the command line writes. Its own
 * codes (the terminal's progress line: `\r` and `\x1B[K`) still work.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, mock, test } from 'node:test';
import type { CrawlSummary, HostProgress, ReplyOf, RequestOf, RequestType } from '../../src/messaging/protocol.ts';
import { emptyCounts } from '../../src/core/model.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { crawlAndExport, EXIT, importAndExport, type ImportPort } from '../../src/shells/cli/run-cli.ts';
import { messageWriter } from '../../src/shells/cli/message-lines.ts';
import { createProgressReporter } from '../../src/shells/cli/progress.ts';

const T0 = 1_700_000_000_000;
/** What a hostile archive puts in its WARC-Target-URI: a title change, a clipboard write, a cleared screen, a C1 CSI, an RLO. */
const HOSTILE = 'http://a.test/\u001B]0;owned\u0007\u001B]52;c;ZWNobyBoaQ==\u0007\u001B[2J\u009B2J\u202Egnp.exe';

/** Any raw control the terminal would act on, or a bidirectional control. */
const RAW = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The output with the progress line's own codes taken out (`\r` at a write's start, `\x1B[K` at its end). */
const withoutOwnCodes = (writes: readonly string[]): string =>
  writes.map((text) => text.replace(/^\r/, '').replace(/\x1B\[K(\n?)$/, '$1')).join('');

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-escapes-'));
  writeFileSync(join(dir, 'site.warc'), 'WARC/1.1\r\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function drive(done: () => boolean): Promise<void> {
  for (let step = 0; step < 2_000 && !done(); step += 1) {
    await settle();
    mock.timers.tick(100);
  }
  await settle();
}

describe('the command line writes crawled text with its controls written out', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: T0 }));
  afterEach(() => mock.timers.reset());

  test('an imported archive whose WARC-Target-URI holds ESC, BEL and OSC sequences gives warnings and an error with no raw ESC or BEL', async () => {
    const err: string[] = [];
    const say = messageWriter((text) => err.push(text));
    const port = (outcome: Awaited<ReturnType<ImportPort['importFile']>> | Error): ImportPort => ({
      request: (() => Promise.reject(new Error(`no issues for ${HOSTILE}`))) as ImportPort['request'],
      exportTo: () => Promise.reject(new Error(`cannot write ${HOSTILE}`)),
      importFile: () => (outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome)),
    });
    let code: number | null = null;
    const warned = port({
      crawlId: 'c',
      rows: 1,
      warnings: [`site.warc: record at byte 0: WARC-Target-URI ${HOSTILE} is not a URL`],
    });
    void importAndExport(
      warned,
      'site.warc',
      ['out.jsonl'],
      { cwd: dir, signal: new AbortController().signal },
      say,
    ).then((exit) => (code = exit));
    await drive(() => code !== null);
    assert.equal(code, EXIT.failed);
    code = null;
    void importAndExport(
      port(new Error(`site.warc: record at byte 0: bad ${HOSTILE}`)),
      'site.warc',
      [],
      { cwd: dir, signal: new AbortController().signal },
      say,
    ).then((exit) => (code = exit));
    await drive(() => code !== null);
    assert.equal(code, EXIT.failed);

    const output = err.join('');
    assert.doesNotMatch(output.replaceAll('\n', ''), RAW, JSON.stringify(output));
    assert.ok(
      output.includes(
        'WARC-Target-URI http://a.test/\\x1B]0;owned\\x07\\x1B]52;c;ZWNobyBoaQ==\\x07\\x1B[2J\\x9B2J\\u202Egnp.exe is not a URL\n',
      ),
      output,
    );
    assert.ok(output.includes('bad http://a.test/\\x1B]0;owned'), output);
    for (const line of output.split('\n').slice(0, -1)) assert.match(line, /^tabcrawl: /);
  });

  test("a crawl whose start URL, host and message hold escape sequences keeps only the progress line's own codes raw", async () => {
    const settings = validateSettings({ startUrl: 'http://a.test/' });
    assert.ok(settings.ok);
    const summary = (state: CrawlSummary['state']): CrawlSummary => ({
      id: 'c1',
      startUrl: HOSTILE,
      state,
      createdAt: T0,
      endedAt: state === 'running' ? null : Date.now(),
      counts: { ...emptyCounts(), done: 1, fetched: 1 },
      queued: state === 'running' ? 1 : 0,
      message: state === 'running' ? null : `stopped by ${HOSTILE}`,
      settings: settings.settings,
    });
    const host: HostProgress = {
      origin: HOSTILE,
      pending: 1,
      gapMs: 30_000,
      responseMs: 5,
      typicalResponseMs: 5,
      typicalGapMs: 30_000,
      readyAt: T0 + 60_000,
      wait: { kind: 'gap', until: T0 + 60_000, rule: 'crawl-delay', gapMs: 30_000 },
    };
    const request = (<K extends RequestType>(type: K, _payload: RequestOf<K>): Promise<ReplyOf<K>> => {
      const reply = (value: unknown): Promise<ReplyOf<K>> => Promise.resolve(value as ReplyOf<K>);
      if (type === 'crawl/start') return reply({ crawl: summary('running') });
      if (type === 'crawl/get') return reply({ crawl: summary(Date.now() - T0 >= 15_000 ? 'stopped' : 'running') });
      if (type === 'crawl/hosts') return reply({ hosts: [host] });
      return Promise.reject(new Error(`unexpected ${type} for ${HOSTILE}`));
    }) as ImportPort['request'];
    const writes: string[] = [];
    const stderr = (text: string): void => void writes.push(text);
    let code: number | null = null;
    void crawlAndExport(
      { request, exportTo: () => Promise.reject(new Error('no')) },
      { startUrl: 'http://a.test/' },
      [],
      { stderr, isStderrTTY: true, cwd: '/tmp', signal: new AbortController().signal },
      messageWriter(stderr),
    ).then((exit) => (code = exit));
    await drive(() => code !== null);
    assert.equal(code, EXIT.failed);

    const output = withoutOwnCodes(writes);
    assert.ok(
      writes.some((text) => text.startsWith('\rfetched 1 ') && text.endsWith('\x1B[K')),
      'the progress line is drawn in place',
    );
    assert.ok(output.includes('still crawling'), output);
    assert.ok(output.includes('tabcrawl: crawling http://a.test/\\x1B]0;owned\\x07'), output);
    assert.ok(output.includes('stopped by http://a.test/\\x1B]0;owned'), output);
    assert.doesNotMatch(output.replaceAll('\n', ''), RAW, JSON.stringify(output));
  });

  test("the progress reporter writes a note's controls out but keeps its own \\r and \\x1B[K", () => {
    const out: string[] = [];
    const reporter = createProgressReporter({ write: (t) => out.push(t), isTTY: true, now: () => 0 });
    reporter.update({ counts: { ...emptyCounts(), done: 1, fetched: 1 }, queued: 5 });
    reporter.note('tabcrawl: still crawling: a.test\u001B[2J\u0007');
    assert.equal(out[1], '\rtabcrawl: still crawling: a.test\\x1B[2J\\x07\x1B[K\n');
  });
});
