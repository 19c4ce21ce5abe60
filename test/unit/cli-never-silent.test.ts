import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import type { CrawlSummary, HostProgress, ReplyOf, RequestOf, RequestType } from '../../src/messaging/protocol.ts';
import { emptyCounts } from '../../src/core/model.ts';
import { validateSettings } from '../../src/core/settings.ts';
import { QUIET_MAX_MS } from '../../src/shells/cli/progress.ts';
import { crawlAndExport, EXIT, type CrawlPort } from '../../src/shells/cli/run-cli.ts';

/** Start of the fake clock, ms since the epoch. */
const T0 = 1_700_000_000_000;

function summary(state: CrawlSummary['state'], fetched: number): CrawlSummary {
  const settings = validateSettings({ startUrl: 'http://127.0.0.1:8090/' });
  assert.ok(settings.ok);
  return {
    id: 'c1',
    startUrl: 'http://127.0.0.1:8090/',
    state,
    createdAt: T0,
    endedAt: state === 'running' ? null : Date.now(),
    counts: { ...emptyCounts(), done: fetched, fetched },
    queued: state === 'running' ? 1 : 0,
    message: null,
    settings: settings.settings,
  };
}

/** The one host, waiting out a 30 s Crawl-delay that ends as the crawl does. */
const host = (): HostProgress => ({
  origin: 'http://127.0.0.1:8090',
  pending: 1,
  gapMs: 30_000,
  responseMs: 5,
  typicalResponseMs: 5,
  typicalGapMs: 30_000,
  readyAt: T0 + 60_000,
  wait: { kind: 'gap', until: T0 + 60_000, rule: 'crawl-delay', gapMs: 30_000 },
});

/** Lets pending promise callbacks run (setImmediate is not faked). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Said {
  at: number;
  text: string;
}

/**
 * Runs {@link crawlAndExport} on fake time against a fake extension until it
 * returns, moving the clock 100 ms at a time; returns every stderr write with
 * its fake time, and the exit code.
 */
async function run(
  port: CrawlPort,
  outputs: string[] = [],
  quietSince?: number,
): Promise<{ code: number; said: Said[] }> {
  const said: Said[] = [];
  const write = (text: string): void => {
    said.push({ at: Date.now(), text });
  };
  let code: number | null = null;
  void crawlAndExport(
    port,
    { startUrl: 'http://127.0.0.1:8090/' },
    outputs,
    { stderr: write, isStderrTTY: false, cwd: '/tmp', signal: new AbortController().signal },
    (line) => write(`tabcrawl: ${line}\n`),
    quietSince,
  ).then((exit) => {
    code = exit;
  });
  for (let step = 0; step < 2_000 && code === null; step += 1) {
    await settle();
    mock.timers.tick(100);
  }
  await settle();
  assert.notEqual(code, null, 'the run ended');
  return { code: code ?? -1, said };
}

/** Longest time between two writes, and from the first write to `end`, in ms. */
function longestSilence(said: readonly Said[], end: number): number {
  let longest = 0;
  for (let i = 1; i < said.length; i += 1) longest = Math.max(longest, (said[i]?.at ?? 0) - (said[i - 1]?.at ?? 0));
  return Math.max(longest, end - (said.at(-1)?.at ?? end));
}

/** A fake extension whose crawl runs `runMs` without any change, then finishes. */
function fakePort(
  runMs: number,
  options: { hostsMs?: number | 'never'; exportMs?: number; stallFromMs?: number; startMs?: number } = {},
): CrawlPort {
  const request = (<K extends RequestType>(type: K, _payload: RequestOf<K>): Promise<ReplyOf<K>> => {
    const reply = (value: unknown): Promise<ReplyOf<K>> => Promise.resolve(value as ReplyOf<K>);
    if (type === 'crawl/start') {
      return new Promise((resolve) =>
        setTimeout(() => resolve({ crawl: summary('running', 0) } as ReplyOf<K>), options.startMs ?? 0),
      );
    }
    if (
      type === 'crawl/get' &&
      options.stallFromMs !== undefined &&
      Date.now() - T0 >= options.stallFromMs &&
      Date.now() - T0 < runMs
    ) {
      // The extension does not answer until the crawl's end.
      return new Promise((resolve) =>
        setTimeout(() => resolve({ crawl: summary('finished', 1) } as ReplyOf<K>), T0 + runMs - Date.now()),
      );
    }
    if (type === 'crawl/get')
      return reply({ crawl: Date.now() - T0 >= runMs ? summary('finished', 1) : summary('running', 0) });
    if (type === 'crawl/hosts') {
      const { hostsMs = 0 } = options;
      if (hostsMs === 'never') return new Promise<ReplyOf<K>>(() => undefined);
      return new Promise((resolve) => setTimeout(() => resolve({ hosts: [host()] } as ReplyOf<K>), hostsMs));
    }
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as CrawlPort['request'];
  return {
    request,
    exportTo: (_crawlId, _format, path) =>
      new Promise((resolve) => {
        setTimeout(() => resolve({ rows: 1, bytes: 10 }), options.exportMs ?? 0);
        void path;
      }),
  };
}

describe('the command line is never silent for more than 10 s', () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: T0 });
  });
  afterEach(() => {
    mock.timers.reset();
  });

  test('a 60 s Crawl-delay with no change is named at least every 10 s, though the extension takes 0.5 s to say so', async () => {
    const { code, said } = await run(fakePort(60_000, { hostsMs: 500 }));
    assert.equal(code, EXIT.ok);
    const notes = said.filter((s) => s.text.includes('still crawling'));
    assert.ok(notes.length >= 5, said.map((s) => s.text).join(''));
    assert.match(notes[0]?.text ?? '', /waiting \d+ s · robots\.txt Crawl-delay 30 s/);
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });

  test('an extension that does not say what the crawl waits for still gets a line at least every 10 s', async () => {
    const { code, said } = await run(fakePort(60_000, { hostsMs: 'never' }));
    assert.equal(code, EXIT.ok);
    assert.ok(
      said.some((s) => /still crawling, \d+ s in/.test(s.text)),
      said.map((s) => s.text).join(''),
    );
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });

  test('a crawl whose state cannot be read for 40 s is said to get no answer from the extension, with how long', async () => {
    const { code, said } = await run(fakePort(60_000, { hostsMs: 'never', stallFromMs: 20_000 }));
    assert.equal(code, EXIT.ok);
    assert.ok(
      said.some((s) =>
        /^tabcrawl: still crawling, \d+ s in: no answer from the extension for (1\d|2\d|3\d) s$/m.test(s.text),
      ),
      said.map((s) => s.text).join(''),
    );
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });

  test('an extension that takes 25 s to start the crawl is said to be starting it at least every 10 s', async () => {
    const { code, said } = await run(fakePort(40_000, { startMs: 25_000 }));
    assert.equal(code, EXIT.ok);
    assert.ok(
      said.some((s) => /^tabcrawl: waiting for the extension to start the crawl, \d+ s so far$/m.test(s.text)),
      said.map((s) => s.text).join(''),
    );
    assert.ok(said[0] !== undefined && said[0].at - T0 <= QUIET_MAX_MS, `first line at ${(said[0]?.at ?? 0) - T0} ms`);
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });

  test('counts the silence from the last line its caller wrote', async () => {
    const { said } = await run(fakePort(40_000, { startMs: 25_000 }), [], T0 - 6_000);
    assert.ok(
      said[0] !== undefined && said[0].at - T0 <= QUIET_MAX_MS - 6_000,
      `first line at ${(said[0]?.at ?? 0) - T0} ms`,
    );
  });

  test('a 45 s export that reports no progress says what it writes at least every 10 s', async () => {
    const { code, said } = await run(fakePort(0, { exportMs: 45_000 }), ['out.wacz']);
    assert.equal(code, EXIT.ok);
    assert.ok(
      said.some((s) => /^tabcrawl: exporting out\.wacz: opening the crawl, \d+ s so far$/m.test(s.text)),
      said.map((s) => s.text).join(''),
    );
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });
});
