/** The render fields of the CSV and JSON Lines exports (issue 29): `rendered` in both, the `render` object in JSON Lines. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { PageRecord } from '../../src/core/model.ts';
import { CSV_COLUMNS, writeCsv } from '../../src/export/csv.ts';
import type { ExportSource, FormatWriter } from '../../src/export/export-source.ts';
import { writeJsonl, type JsonlRow } from '../../src/export/jsonl.ts';
import { SITE, page, rendered } from '../support/audit-fixture.ts';
import { crawlFixture } from '../support/store-contract.ts';

const at = (path: string): string => `${SITE}${path}`;

const HOSTILE_ERROR = '=HYPERLINK("http://evil.example") \u001b[2J<script>alert(1)</script>';

function rows(): PageRecord[] {
  return [
    page('/static'),
    rendered(
      '/app',
      { title: 'The shop, rendered by its scripts' },
      { title: 'Loading…' },
      {
        why: 'auto: an empty root element',
        durationMs: 1234,
        capped: true,
        scriptErrors: [HOSTILE_ERROR],
        refused: [{ url: at('/private/api.json'), because: 'robots' }],
      },
    ),
    rendered('/broken', {}, {}, { outcome: 'timeout', message: 'The page never went quiet', static: null }),
  ];
}

function sourceOf(pages: PageRecord[]): ExportSource {
  return {
    crawl: crawlFixture('audit'),
    async *rows() {
      yield* pages;
    },
    body: async () => undefined,
  };
}

async function textOf(write: FormatWriter): Promise<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  for await (const chunk of write(sourceOf(rows()), { software: 'test', now: new Date(0), onRow: () => undefined }))
    text += decoder.decode(chunk, { stream: true });
  return text;
}

describe('the render fields of the exports', () => {
  it('JSON Lines rows carry the outcome and what the render met, null on a row not rendered', async () => {
    const lines = (await textOf(writeJsonl))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as JsonlRow);
    assert.equal(lines[0]?.rendered, null);
    assert.equal(lines[0]?.render, null);
    assert.equal(lines[1]?.rendered, 'rendered');
    assert.equal(lines[1]?.title, 'The shop, rendered by its scripts');
    assert.deepEqual(lines[1]?.render, {
      why: 'auto: an empty root element',
      outcome: 'rendered',
      message: null,
      capped: true,
      durationMs: 1234,
      staticTitle: 'Loading…',
      scriptErrors: [HOSTILE_ERROR],
      refused: [{ url: at('/private/api.json'), because: 'robots' }],
    });
    assert.equal(lines[2]?.rendered, 'timeout');
    assert.equal(lines[2]?.render?.message, 'The page never went quiet');
    assert.equal(lines[2]?.render?.staticTitle, null);
  });

  it('CSV rows carry the outcome in a rendered column before issues, empty on a row not rendered', async () => {
    const records = parse((await textOf(writeCsv)).slice(1)) as string[][];
    const header = records[0] ?? [];
    assert.deepEqual(header.slice(-2), ['rendered', 'issues']);
    assert.ok(!CSV_COLUMNS.includes('render' as never));
    const column = header.indexOf('rendered');
    assert.deepEqual(
      records.slice(1).map((record) => record[column]),
      ['', 'rendered', 'timeout'],
    );
  });

  it('keeps a hostile script error as JSON text: quotes and controls escaped, markup as characters', async () => {
    const text = await textOf(writeJsonl);
    assert.doesNotMatch(text, /\u001b/);
    assert.match(text, /\\u001b\[2J<script>alert\(1\)<\/script>/);
  });
});
