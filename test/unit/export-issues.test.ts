import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CHECK_IDS } from '../../src/audit/checks.ts';
import { crawlFixture } from '../support/store-contract.ts';
import { CSV_COLUMNS, writeCsv } from '../../src/export/csv.ts';
import type { ExportSource, FormatWriter } from '../../src/export/export-source.ts';
import { writeJsonl } from '../../src/export/jsonl.ts';
import { formatOfPath } from '../../src/export/format-info.ts';
import { ISSUES_CSV_HEADER, writeIssuesCsv } from '../../src/export/issues-csv.ts';
import { parseCliArgs } from '../../src/shells/cli/args.ts';
import { PLANTED, SITE, auditRows } from '../support/audit-fixture.ts';

function sourceOf(): ExportSource {
  const rows = auditRows();
  return {
    crawl: crawlFixture('audit'),
    async *rows() {
      yield* rows;
    },
    body: async () => undefined,
  };
}

async function textOf(write: FormatWriter): Promise<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  for await (const chunk of write(sourceOf(), { software: 'test', now: new Date(0), onRow: () => undefined }))
    text += decoder.decode(chunk, { stream: true });
  return text;
}

/** The ids each URL should carry, from the planted checks, in registry order. */
function plantedByUrl(): Map<string, string[]> {
  const byUrl = new Map<string, string[]>();
  for (const id of CHECK_IDS) for (const url of PLANTED[id]) byUrl.set(url, [...(byUrl.get(url) ?? []), id]);
  return byUrl;
}

describe('the issues of each row in the exports', () => {
  it('JSON Lines rows carry the ids of the checks that failed on their URL, [] on a clean row', async () => {
    const lines = (await textOf(writeJsonl))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; issues: string[] });
    const expected = plantedByUrl();
    for (const line of lines) assert.deepEqual(line.issues, expected.get(line.url) ?? [], line.url);
    assert.deepEqual(lines.find((line) => line.url === `${SITE}/dup1`)?.issues, [
      'title-duplicate',
      'description-duplicate',
      'duplicate-content',
    ]);
    assert.deepEqual(lines.find((line) => line.url === `${SITE}/chain3`)?.issues, []);
  });

  it('CSV rows carry them in an issues column, joined with " | "', async () => {
    const records = parse((await textOf(writeCsv)).slice(1)) as string[][];
    const header = records[0] ?? [];
    assert.equal(header.at(-1), 'issues');
    assert.equal(CSV_COLUMNS.at(-1), 'issues');
    const column = header.indexOf('issues');
    const urlColumn = header.indexOf('url');
    const expected = plantedByUrl();
    for (const record of records.slice(1)) {
      const url = record[urlColumn] ?? '';
      assert.equal(`${url} ${record[column]}`, `${url} ${(expected.get(url) ?? []).join(' | ')}`);
    }
  });
});

describe('the Issues CSV', () => {
  it('writes a line per check and URL with its severity, detail and related URLs, check by check', async () => {
    const records = parse((await textOf(writeIssuesCsv)).slice(1)) as string[][];
    assert.deepEqual(records[0], [...ISSUES_CSV_HEADER]);
    const planted = CHECK_IDS.flatMap((id) => PLANTED[id].map((url) => [id, url]));
    assert.deepEqual(
      records.slice(1).map((record) => [record[0], record[2]]),
      planted,
    );
    const gone = records.find((record) => record[0] === 'broken-link-internal');
    assert.deepEqual(gone, ['broken-link-internal', 'error', `${SITE}/gone`, '404', '2', `${SITE}/ | ${SITE}/a`]);
  });

  it('is the export format of a file named NAME.issues.csv, a plain .csv is the rows', () => {
    assert.equal(formatOfPath('out/site.issues.csv'), 'issues.csv');
    assert.equal(formatOfPath('out/site.csv'), 'csv');
  });

  it('is accepted by the command line’s --out', () => {
    const command = parseCliArgs(['https://a.example/', '--out', 'a.issues.csv', '--out', 'a.csv']);
    assert.equal(command.kind, 'crawl');
  });
});
