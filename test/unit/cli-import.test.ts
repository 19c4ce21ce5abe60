/**
 * `--import FILE` (issue 18): a file that is not there is a usage error before anything is built
 * or launched; an import is reported until it is stored, never silent for more than 10 s, its
 * warnings listed, each --out written from the imported crawl, summed up as "imported N URLs from
 * FILE"; a failed import exits 1 saying nothing was stored, an interrupted one 130.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, mock, test } from 'node:test';
import type { ReplyOf, RequestOf, RequestType } from '../../src/messaging/protocol.ts';
import type { ImportedArchive, ImportPageProgress } from '../../src/shells/cli/import-through-page.ts';
import { QUIET_MAX_MS } from '../../src/shells/cli/progress.ts';
import {
  EXIT,
  importAndExport,
  importFileProblem,
  importingLine,
  runCli,
  type ImportPort,
} from '../../src/shells/cli/run-cli.ts';
import { fakeCliIo } from '../support/cli-io.ts';

const T0 = 1_700_000_000_000;

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-import-'));
  writeFileSync(join(dir, 'site.wacz'), new Uint8Array(4096));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI's I/O, relative paths resolving in the test's folder (where site.wacz is). */
const io = (env: Record<string, string> = {}) => fakeCliIo(env, dir);

describe('--import: the file', () => {
  test('a missing file, or a folder, exits 2 with its one-line reason before anything is built or launched', async () => {
    for (const [argv, reason] of [
      [['--import', 'gone.wacz'], "--import 'gone.wacz': no such file"],
      [['--import', 'gone.warc.gz', '--out', 'x.jsonl'], "--import 'gone.warc.gz': no such file"],
    ] as const) {
      const streams = io({ CHROME_PATH: '/nonexistent/chrome' });
      assert.equal(await runCli([...argv], streams), EXIT.usage, argv.join(' '));
      assert.deepEqual(streams.err, [`tabcrawl: ${reason}\n`, 'run with --help for the options\n']);
    }
    assert.equal(importFileProblem(dir, 'dir.wacz'), "--import 'dir.wacz': not a file");
    assert.equal(importFileProblem(join(dir, 'site.wacz'), 'site.wacz'), null);
  });

  test('an empty file exits 2 saying it is empty, not a WARC or WACZ, before a browser is launched', async () => {
    writeFileSync(join(dir, 'empty.warc'), '');
    const streams = io({ CHROME_PATH: '/nonexistent/chrome' });
    assert.equal(await runCli(['--import', join(dir, 'empty.warc')], streams), EXIT.usage);
    assert.deepEqual(streams.err, [
      `tabcrawl: --import '${join(dir, 'empty.warc')}': the file is empty: not a WARC or WACZ\n`,
      'run with --help for the options\n',
    ]);
  });

  test('a file that is there goes on to the browser (here: a missing Chromium, exit 1)', async () => {
    const streams = io({ CHROME_PATH: '/nonexistent/chrome' });
    assert.equal(await runCli(['--import', 'site.wacz'], streams), EXIT.failed);
    assert.match(streams.err.join(''), /^tabcrawl: CHROME_PATH is set to \/nonexistent\/chrome/);
  });
});

describe('importingLine', () => {
  test('says bytes of the total, records, rows and the time left', () => {
    assert.equal(importingLine('a.wacz', null, 3000), 'importing a.wacz: opening it, 3 s so far');
    assert.equal(
      importingLine('a.wacz', { bytesRead: 1024 * 1024, totalBytes: 4 * 1024 * 1024, records: 1, rows: 12 }, 5000),
      'importing a.wacz: 1.0 MiB of 4.0 MiB (25%), 1 record, 12 URLs, about 15 s left',
    );
    assert.match(
      importingLine('a.wacz', { bytesRead: 10, totalBytes: 10, records: 3, rows: 2 }, 5000),
      /\(100%\), 3 records, 2 URLs$/,
    );
  });
});

/** Lets pending promise callbacks run (setImmediate is not faked). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface FakeImport {
  /** How long the import takes, fake ms. */
  runMs: number;
  /** Progress reported every this many fake ms; 'never' for a page that says nothing. */
  progressEveryMs?: number | 'never';
  outcome?: ImportedArchive | Error;
  exportFails?: boolean;
  /** How `crawl/apply-rules` answers: its reply, or an error. */
  applyRules?: { pages: number; withoutBody: number } | Error;
}

function fakePort(
  fake: FakeImport,
): ImportPort & { exported: { crawlId: string; path: string }[]; applied: unknown[] } {
  const exported: { crawlId: string; path: string }[] = [];
  const applied: unknown[] = [];
  const request = (<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> => {
    if (type === 'crawl/apply-rules') {
      applied.push(payload);
      const answer = fake.applyRules ?? { pages: 0, withoutBody: 0 };
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as unknown as ReplyOf<K>);
    }
    if (type === 'crawl/issues')
      return Promise.resolve({
        bySeverity: { error: 1, warning: 0, notice: 0 },
        checks: [{ check: 'broken-link-internal', count: 1 }],
      } as unknown as ReplyOf<K>);
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as ImportPort['request'];
  return {
    exported,
    applied,
    request,
    exportTo: async (crawlId, _format, path) => {
      if (fake.exportFails === true) throw new Error('disk full');
      exported.push({ crawlId, path });
      return { rows: 3, bytes: 300 };
    },
    importFile: (_path, { signal, onProgress }) =>
      new Promise((resolve, reject) => {
        const startedAt = Date.now();
        const timer =
          fake.progressEveryMs === 'never'
            ? null
            : setInterval(() => {
                const share = Math.min(1, (Date.now() - startedAt) / fake.runMs);
                onProgress({
                  bytesRead: Math.round(4096 * share),
                  totalBytes: 4096,
                  records: Math.round(10 * share),
                  rows: Math.round(3 * share),
                } satisfies ImportPageProgress);
              }, fake.progressEveryMs ?? 500);
        const end = setTimeout(() => {
          if (timer !== null) clearInterval(timer);
          const outcome = fake.outcome ?? { crawlId: 'imported-1', rows: 3, warnings: [] };
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        }, fake.runMs);
        signal.addEventListener('abort', () => {
          clearTimeout(end);
          if (timer !== null) clearInterval(timer);
          const error = new Error('the import of site.wacz was cancelled: nothing was stored');
          error.name = 'AbortError';
          reject(error);
        });
      }),
  };
}

interface Said {
  at: number;
  text: string;
}

async function run(
  port: ImportPort,
  outputs: string[],
  abortAtMs?: number,
  rules?: { searches: string[]; extractions: string[] },
): Promise<{ code: number; said: Said[] }> {
  const said: Said[] = [];
  const controller = new AbortController();
  let code: number | null = null;
  void importAndExport(
    port,
    'site.wacz',
    outputs,
    { cwd: dir, signal: controller.signal },
    (line) => said.push({ at: Date.now(), text: line }),
    Date.now(),
    rules,
  ).then((exit) => {
    code = exit;
  });
  for (let step = 0; step < 2_000 && code === null; step += 1) {
    await settle();
    if (abortAtMs !== undefined && Date.now() - T0 >= abortAtMs && !controller.signal.aborted) controller.abort();
    mock.timers.tick(100);
  }
  await settle();
  assert.notEqual(code, null, 'the run ended');
  return { code: code ?? -1, said };
}

function longestSilence(said: readonly Said[], end: number): number {
  let longest = said.length === 0 ? end - T0 : (said[0]?.at ?? T0) - T0;
  for (let i = 1; i < said.length; i += 1) longest = Math.max(longest, (said[i]?.at ?? 0) - (said[i - 1]?.at ?? 0));
  return Math.max(longest, end - (said.at(-1)?.at ?? end));
}

describe('importAndExport', () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: T0 });
  });
  afterEach(() => {
    mock.timers.reset();
  });

  test('reports progress, writes each --out from the imported crawl and sums up as "imported N URLs from FILE"', async () => {
    const port = fakePort({ runMs: 7000 });
    const { code, said } = await run(port, ['rows.jsonl', 'table.csv']);
    assert.equal(code, EXIT.ok);
    const lines = said.map((s) => s.text);
    assert.equal(lines[0], `importing ${join(dir, 'site.wacz')} (4.0 KiB)`);
    assert.ok(
      lines.some((line) => /^importing site\.wacz: .+ of .+ \(\d+%\), \d+ records?, \d+ URLs?/.test(line)),
      lines.join('\n'),
    );
    assert.deepEqual(port.exported, [
      { crawlId: 'imported-1', path: join(dir, 'rows.jsonl') },
      { crawlId: 'imported-1', path: join(dir, 'table.csv') },
    ]);
    assert.ok(lines.includes(`wrote 3 URLs (300 B) to ${join(dir, 'rows.jsonl')}`), lines.join('\n'));
    assert.equal(lines.at(-2), 'imported 3 URLs from site.wacz');
    assert.match(lines.at(-1) ?? '', /^issues: 1 error/);
  });

  test('is never silent for more than 10 s, even when the page reports nothing for a minute', async () => {
    const { code, said } = await run(fakePort({ runMs: 60_000, progressEveryMs: 'never' }), ['rows.jsonl']);
    assert.equal(code, EXIT.ok);
    assert.ok(
      said.some((s) => /^importing site\.wacz: opening it, \d+ s so far$/.test(s.text)),
      said.map((s) => s.text).join('\n'),
    );
    assert.ok(
      longestSilence(said, Date.now()) <= QUIET_MAX_MS,
      `longest silence ${longestSilence(said, Date.now())} ms`,
    );
  });

  test('lists the first warnings and counts the rest', async () => {
    const warnings = Array.from({ length: 7 }, (_, i) => `site.wacz: record at byte ${i * 100}: odd`);
    const { code, said } = await run(fakePort({ runMs: 1000, outcome: { crawlId: 'c', rows: 1, warnings } }), []);
    assert.equal(code, EXIT.ok);
    const lines = said.map((s) => s.text);
    assert.ok(lines.includes('7 warnings while reading site.wacz:'));
    assert.ok(lines.includes('  site.wacz: record at byte 400: odd'));
    assert.ok(!lines.includes('  site.wacz: record at byte 500: odd'));
    assert.ok(lines.includes('  … and 2 more (the import page lists them all)'));
    assert.ok(lines.some((line) => line.startsWith('no --out given: nothing written')));
    assert.ok(lines.includes('imported 1 URL from site.wacz'));
  });

  test("an archive that cannot be read exits 1 with the reader's message and that nothing was stored; nothing is exported", async () => {
    const port = fakePort({ runMs: 1000, outcome: new Error('site.wacz: truncated zip at byte 4000') });
    const { code, said } = await run(port, ['rows.jsonl']);
    assert.equal(code, EXIT.failed);
    assert.deepEqual(
      said.slice(-2).map((s) => s.text),
      [`could not import ${join(dir, 'site.wacz')}: site.wacz: truncated zip at byte 4000`, 'nothing was stored'],
    );
    assert.deepEqual(port.exported, []);
  });

  test('an output that cannot be written exits 1', async () => {
    const { code, said } = await run(fakePort({ runMs: 500, exportFails: true }), ['rows.jsonl']);
    assert.equal(code, EXIT.failed);
    assert.ok(said.some((s) => s.text === `could not write ${join(dir, 'rows.jsonl')}: disk full`));
  });

  test('Ctrl-C cancels the import (nothing stored) and exits 130', async () => {
    const port = fakePort({ runMs: 30_000 });
    const { code, said } = await run(port, ['rows.jsonl'], 3000);
    assert.equal(code, EXIT.interrupted);
    assert.equal(said.at(-1)?.text, 'interrupted: the import of site.wacz was cancelled: nothing was stored');
    assert.deepEqual(port.exported, []);
  });

  test('applies --search and --extract to the imported pages before writing, and says to how many', async () => {
    const port = fakePort({ runMs: 500, applyRules: { pages: 12, withoutBody: 1 } });
    const rules = { searches: ['old=Discontinued'], extractions: ['price=css:.price', 'sku=regex:SKU-(\\d+)'] };
    const { code, said } = await run(port, ['rows.jsonl'], undefined, rules);
    assert.equal(code, EXIT.ok);
    assert.deepEqual(port.applied, [{ crawlId: 'imported-1', ...rules }]);
    const lines = said.map((s) => s.text);
    const applying = lines.indexOf('applying 1 search and 2 extractions to the imported pages');
    const applied = lines.indexOf('applied to 12 HTML pages (1 without a stored body: no findings)');
    const wrote = lines.findIndex((line) => line.startsWith('wrote 3 URLs'));
    assert.ok(applying >= 0 && applied > applying && wrote > applied, lines.join('\n'));
  });

  test('an import whose rules could not be applied is still written out, and exits 1', async () => {
    const port = fakePort({ runMs: 500, applyRules: new Error('bad-request: the crawl is running') });
    const { code, said } = await run(port, ['rows.jsonl'], undefined, { searches: ['a=b'], extractions: [] });
    assert.equal(code, EXIT.failed);
    assert.ok(
      said.some((s) => s.text === 'could not apply the searches and extractions: bad-request: the crawl is running'),
    );
    assert.deepEqual(port.exported, [{ crawlId: 'imported-1', path: join(dir, 'rows.jsonl') }]);
  });

  test('without rules, asks for none', async () => {
    const port = fakePort({ runMs: 500 });
    await run(port, []);
    assert.deepEqual(port.applied, []);
  });
});
