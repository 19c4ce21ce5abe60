/**
 * docs/browsertrix.md's mapping table is generated from the hand-off's parts (src/handoff/browsertrix-docs.ts):
 * kept in step here. When it is out of step, `UPDATE_DOCS=1 npx tsx --test test/unit/browsertrix-docs.test.ts`
 * rewrites the block between its markers.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { SETTING_TABLE } from '../../src/core/setting-table.ts';
import {
  MAPPING_TABLE_END,
  MAPPING_TABLE_START,
  mappingTableMarkdown,
  withMappingTable,
} from '../../src/handoff/browsertrix-docs.ts';

const BROWSERTRIX_MD = resolve(import.meta.dirname, '../../docs/browsertrix.md');

describe("docs/browsertrix.md's mapping table", () => {
  it('is the table the hand-off parts generate, between its markers', () => {
    const text = readFileSync(BROWSERTRIX_MD, 'utf8');
    const updated = withMappingTable(text);
    assert.ok(updated !== null, `docs/browsertrix.md has the markers ${MAPPING_TABLE_START} and ${MAPPING_TABLE_END}`);
    if (updated !== text && process.env.UPDATE_DOCS === '1') writeFileSync(BROWSERTRIX_MD, updated);
    else {
      assert.equal(
        updated,
        text,
        "docs/browsertrix.md's mapping table is out of step with src/core/setting-table.ts and src/handoff/browsertrix-parts.ts: run `UPDATE_DOCS=1 npx tsx --test test/unit/browsertrix-docs.test.ts` to rewrite it (edit a row in its part, not in docs/browsertrix.md)",
      );
    }
  });

  it("lists the rows in the order of the config header's sentences, each setting's row from its entry", () => {
    const table = mappingTableMarkdown();
    const rowAt = (cell: string): number => table.indexOf(`| ${cell} |`);
    const order = [
      'start URL',
      '*Also crawl these sites*',
      'max depth',
      'max pages',
      'delay (plus jitter)',
      'sitemaps listed in robots.txt',
      'the archive',
    ].map(rowAt);
    assert.ok(
      order.every((at) => at >= 0),
      'every row is there',
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
    const depthRow = SETTING_TABLE.maxDepth.browsertrix.became?.row;
    assert.ok(depthRow !== undefined);
    assert.ok(table.includes(`| ${depthRow[0]} | ${depthRow[1]} | ${depthRow[2]} |`));
  });

  it('leaves the note cell empty, not padded, when a row has no note', () => {
    assert.match(mappingTableMarkdown(), /^\| max pages \| `pageLimit` \| \|$/m);
  });
});
