/**
 * The results columns' one declaration (`results-columns.ts`) and what it
 * derives into the stored schema: the pages indexes of every database version
 * and the result chunks' columns. The database users already hold must still
 * be read: a shipped version's schema never changes, and a change of what the
 * columns derive needs a new database version.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromPageRow, PAGES_SCHEMAS, TabcrawlDatabase, toPageRow } from '../../src/storage/database.ts';
import { toPageListRow } from '../../src/storage/page-queries.ts';
import { emptyResultsChunk, RESULTS_CHUNK_ROWS } from '../../src/storage/results-chunks.ts';
import {
  CHUNK_COLUMNS,
  PAGE_KEYS,
  pagesIndexSchema,
  RESULT_COLUMNS,
  SORT_COLUMNS,
  sortIndexOf,
  type ResultColumnSpec,
} from '../../src/storage/results-columns.ts';
import { variedPage } from '../support/results-reference.ts';

/** The pages schemas as `database.ts` wrote them out when each version shipped. */
const SHIPPED_PAGES_SCHEMAS: Record<number, string> = {
  2:
    '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
    '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], [crawlId+isDuplicate+seq]',
  4:
    '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
    '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq]',
  7:
    '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
    '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], ' +
    '[crawlId+indexKey+seq], [crawlId+wordsKey+seq], [crawlId+h1Key+seq], [crawlId+internalKey+seq], [crawlId+outboundKey+seq]',
  10:
    '[crawlId+url], [crawlId+seq], [crawlId+statusKey+seq], [crawlId+mediaKey+seq], [crawlId+sizeKey+seq], ' +
    '[crawlId+timeKey+seq], [crawlId+depth+seq], [crawlId+titleKey+seq], [crawlId+inlinks+seq], ' +
    '[crawlId+indexKey+seq], [crawlId+wordsKey+seq], [crawlId+h1Key+seq], [crawlId+internalKey+seq], [crawlId+outboundKey+seq], ' +
    '[crawlId+renderKey+seq]',
};

/**
 * What the results columns derive into the stored schema, recorded for each database version that changed it:
 * the pages indexes (every column's, whatever its `indexedSince`), the storage-only keys of a page row and the chunk
 * columns, as `field:array`. Version 10 last changed it (the *Rendered* column, issue 29; versions 8 and 9 changed other tables).
 */
const SCHEMA_FINGERPRINTS: Record<number, { pages: string; keys: string[]; chunks: string[] }> = {
  7: {
    pages: SHIPPED_PAGES_SCHEMAS[7] ?? '',
    keys: [
      'statusKey',
      'mediaKey',
      'sizeKey',
      'timeKey',
      'titleKey',
      'indexKey',
      'wordsKey',
      'h1Key',
      'internalKey',
      'outboundKey',
      'isDuplicate',
    ],
    chunks: [
      'urls:text',
      'statusKeys:int32',
      'mediaKeys:text',
      'sizeKeys:float64',
      'timeKeys:float64',
      'depths:int32',
      'titleKeys:text',
      'inlinks:int32',
      'indexKeys:int8',
      'words:int32',
      'h1Counts:int32',
      'internalLinks:int32',
      'outboundLinks:int32',
      'duplicates:uint8',
      'kinds:uint8',
    ],
  },
  10: {
    pages: SHIPPED_PAGES_SCHEMAS[10] ?? '',
    keys: [
      'statusKey',
      'mediaKey',
      'sizeKey',
      'timeKey',
      'titleKey',
      'indexKey',
      'wordsKey',
      'h1Key',
      'internalKey',
      'outboundKey',
      'renderKey',
      'isDuplicate',
    ],
    chunks: [
      'urls:text',
      'statusKeys:int32',
      'mediaKeys:text',
      'sizeKeys:float64',
      'timeKeys:float64',
      'depths:int32',
      'titleKeys:text',
      'inlinks:int32',
      'indexKeys:int8',
      'words:int32',
      'h1Counts:int32',
      'internalLinks:int32',
      'outboundLinks:int32',
      'renderKeys:text',
      'duplicates:uint8',
      'kinds:uint8',
    ],
  },
};

/** The fingerprint of what the columns derive now (see {@link SCHEMA_FINGERPRINTS}). */
function fingerprint(): { pages: string; keys: string[]; chunks: string[] } {
  return {
    pages: pagesIndexSchema(Number.MAX_SAFE_INTEGER),
    keys: PAGE_KEYS.map((key) => key.field),
    chunks: CHUNK_COLUMNS.map((column) => `${column.field}:${column.array}`),
  };
}

/** The database's latest schema version (Dexie's `verno` after the constructor declared every version). */
const LATEST_VERSION = new TabcrawlDatabase('results-columns-test').verno;

describe('results columns and the database schema', () => {
  it('derives the pages schema of every shipped version exactly as it was written when it shipped', () => {
    assert.deepEqual(PAGES_SCHEMAS, SHIPPED_PAGES_SCHEMAS);
  });

  it('declares the index of every sort column in the latest pages schema', () => {
    const versions = Object.keys(PAGES_SCHEMAS).map(Number);
    const latest = Math.max(...versions);
    assert.equal(
      PAGES_SCHEMAS[latest],
      pagesIndexSchema(Number.MAX_SAFE_INTEGER),
      `A results column is indexed since a version whose pages schema database.ts does not declare: add that ` +
        `version with stores({ pages: pagesIndexSchema(version) }) and put it in PAGES_SCHEMAS.`,
    );
  });

  it('derives the schema recorded for the database version that last changed it, so a change needs a new version', () => {
    const now = fingerprint();
    const recordedAt = Math.max(...Object.keys(SCHEMA_FINGERPRINTS).map(Number));
    const howTo =
      `The results columns (src/storage/results-columns.ts) derive a stored schema other than the one database ` +
      `version ${recordedAt} made. Databases users already hold do not have it: add schema version ` +
      `${LATEST_VERSION + 1} in src/storage/database.ts (stores({ pages: pagesIndexSchema(${LATEST_VERSION + 1}) }) ` +
      `for a new index, put into PAGES_SCHEMAS, and .upgrade((trans) => rebuildResults(trans)) so every stored ` +
      `row gets its keys and the chunks their columns), then record under ${LATEST_VERSION + 1} in ` +
      `SCHEMA_FINGERPRINTS of this test: ${JSON.stringify(now)}`;
    assert.deepEqual(now, SCHEMA_FINGERPRINTS[recordedAt], howTo);
  });

  it('records fingerprints only for database versions that exist', () => {
    for (const version of Object.keys(SCHEMA_FINGERPRINTS).map(Number)) {
      assert.ok(
        version <= LATEST_VERSION,
        `SCHEMA_FINGERPRINTS has version ${version}, but database.ts declares up to ${LATEST_VERSION}: add that version`,
      );
    }
  });

  it('records a fingerprint only where it changed from the version before', () => {
    const versions = Object.keys(SCHEMA_FINGERPRINTS)
      .map(Number)
      .sort((a, b) => a - b);
    for (let i = 1; i < versions.length; i += 1) {
      assert.notDeepEqual(
        SCHEMA_FINGERPRINTS[versions[i] ?? 0],
        SCHEMA_FINGERPRINTS[versions[i - 1] ?? 0],
        `version ${versions[i]}`,
      );
    }
  });
});

describe('results columns', () => {
  it('lists the sort columns in table order with their labels and default visibility', () => {
    assert.deepEqual(
      SORT_COLUMNS.map((column) => [
        column,
        RESULT_COLUMNS[column].label,
        RESULT_COLUMNS[column].isShown,
        RESULT_COLUMNS[column].isDefault,
      ]),
      [
        ['seq', 'Order', false, false],
        ['url', 'URL', true, true],
        ['status', 'Status', true, true],
        ['contentType', 'Type', true, true],
        ['size', 'Size', true, true],
        ['responseTime', 'Time (ms)', true, true],
        ['depth', 'Depth', true, true],
        ['title', 'Title', true, true],
        ['inlinks', 'Inlinks', true, true],
        ['indexability', 'Indexability', true, true],
        ['words', 'Words', true, false],
        ['h1Count', 'H1', true, false],
        ['internalLinks', 'Internal', true, false],
        ['outboundLinks', 'Outbound', true, false],
        ['rendered', 'Rendered', true, false],
      ],
    );
  });

  it('walks the URL key for the URL sort, the seq index for the order, and a key-then-seq index for every other column', () => {
    assert.equal(sortIndexOf('url'), '[crawlId+url]');
    assert.equal(sortIndexOf('seq'), '[crawlId+seq]');
    assert.equal(sortIndexOf('status'), '[crawlId+statusKey+seq]');
    assert.equal(sortIndexOf('outboundLinks'), '[crawlId+outboundKey+seq]');
  });

  it('gives every chunk column its own field', () => {
    const fields = CHUNK_COLUMNS.map((column) => column.field);
    assert.equal(new Set(fields).size, fields.length);
  });

  it("fills each sort column's chunk column with the stored row's sort key", () => {
    for (let i = 0; i < 40; i += 1) {
      const row = toPageRow(variedPage('c1', i));
      for (const column of SORT_COLUMNS) {
        const spec: ResultColumnSpec = RESULT_COLUMNS[column];
        const chunk = CHUNK_COLUMNS.find((candidate) => candidate.field === spec.chunk?.field);
        if (spec.chunk === null) continue;
        assert.equal(chunk?.read(row), row[spec.sortKey], `${column} of row ${i}`);
      }
    }
  });

  it('stores a page with every key its columns compute, and reads the stored row back as the page', () => {
    for (let i = 0; i < 40; i += 1) {
      const page = variedPage('c1', i);
      const row = toPageRow(page);
      for (const { field, keyOf } of PAGE_KEYS) assert.equal(row[field], keyOf(page), `${field} of page ${i}`);
      assert.deepEqual(fromPageRow(row), page);
    }
  });

  it('gives a listed row the key its stored row sorts by, or null where the stored key marks a missing value', () => {
    for (let i = 0; i < 40; i += 1) {
      const page = variedPage('c1', i);
      const row = toPageRow(page);
      const listed = toPageListRow(page);
      for (const column of SORT_COLUMNS) {
        const spec: ResultColumnSpec = RESULT_COLUMNS[column];
        const listKey = spec.listKey(listed);
        const stored = row[spec.sortKey];
        if (listKey === null) assert.ok(stored === -1 || stored === '', `${column} of page ${i}: ${String(stored)}`);
        else assert.equal(listKey, stored, `${column} of page ${i}`);
      }
    }
  });

  it('makes an empty chunk with a slot of every chunk column for every row of the chunk', () => {
    const chunk = emptyResultsChunk('c1', 3);
    for (const column of CHUNK_COLUMNS) {
      const slots = chunk[column.field];
      assert.equal(slots.length, RESULTS_CHUNK_ROWS, column.field);
      assert.equal(slots[0], column.array === 'text' ? '' : 0, column.field);
    }
    assert.equal(chunk.present.length, RESULTS_CHUNK_ROWS);
  });
});
