/** The results table's *Rendered* column (issue 29): its words, its sort key and its chunk column. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageRecord, RenderRecord } from '../../src/core/model.ts';
import { toPageRow } from '../../src/storage/database.ts';
import { toPageListRow } from '../../src/storage/page-list-row.ts';
import { renderedLabel } from '../../src/storage/rendered-label.ts';
import { CHUNK_COLUMNS, RESULT_COLUMNS, sortIndexOf } from '../../src/storage/results-columns.ts';
import { page, rendered } from '../support/audit-fixture.ts';

const failed = (outcome: RenderRecord['outcome']): PageRecord =>
  rendered('/f', {}, {}, { outcome, message: 'why', static: null });

describe('the Rendered results column', () => {
  it('says rendered, rendered (capped) or failed with the outcome, and nothing for a row not rendered', () => {
    assert.equal(renderedLabel(page('/').render), '');
    assert.equal(renderedLabel(rendered('/a').render), 'rendered');
    assert.equal(renderedLabel(rendered('/a', {}, {}, { capped: true }).render), 'rendered (capped)');
    assert.equal(renderedLabel(failed('timeout').render), 'failed: timeout');
    assert.equal(renderedLabel(failed('crashed').render), 'failed: crashed');
    assert.equal(renderedLabel(failed('unavailable').render), 'failed: unavailable');
    assert.equal(renderedLabel(failed('stopped').render), 'failed: stopped');
    assert.equal(renderedLabel(failed('failed').render), 'failed');
  });

  it('is offered in the column chooser, hidden until chosen, and sorts by its words through its own index', () => {
    const spec = RESULT_COLUMNS.rendered;
    assert.equal(spec.label, 'Rendered');
    assert.equal(spec.isShown, true);
    assert.equal(spec.isDefault, false);
    assert.equal(sortIndexOf('rendered'), '[crawlId+renderKey+seq]');
    assert.equal(spec.indexedSince, 10);
  });

  it('stores the words as the row key and the chunk column, and shows them in the table row', () => {
    const rows = [page('/'), rendered('/a', {}, {}, { capped: true }), failed('timeout')];
    const chunk = CHUNK_COLUMNS.find((column) => column.field === 'renderKeys');
    assert.deepEqual(
      rows.map((row) => toPageRow(row).renderKey),
      ['', 'rendered (capped)', 'failed: timeout'],
    );
    assert.deepEqual(
      rows.map((row) => chunk?.read(toPageRow(row))),
      ['', 'rendered (capped)', 'failed: timeout'],
    );
    assert.deepEqual(
      rows.map((row) => toPageListRow(row).rendered),
      ['', 'rendered (capped)', 'failed: timeout'],
    );
  });

  it('sorts rows not rendered first in memory, as the index does (their key is missing)', () => {
    const listKey = RESULT_COLUMNS.rendered.listKey;
    assert.equal(listKey(toPageListRow(page('/'))), null);
    assert.equal(listKey(toPageListRow(rendered('/a'))), 'rendered');
  });
});
