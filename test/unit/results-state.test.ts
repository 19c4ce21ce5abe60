import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResultsShown } from '../../src/results/use-results-address.ts';
import { initialResultsState, reduceResults, type ResultsState } from '../../src/results/results-state.ts';
import type { FilterValues } from '../../src/results/results-filters.tsx';

const NONE: FilterValues = {
  statusClasses: [],
  kind: null,
  mediaType: null,
  depth: null,
  indexability: null,
  search: '',
};
const opened: ResultsShown = {
  view: 'issues',
  url: 'https://a.test/x',
  checks: ['redirect-chain'],
  filters: { ...NONE, search: 'doc' },
  search: 'doc',
  sort: { column: 'url', descending: true },
};
const start = initialResultsState({ ...opened, view: 'table', url: null, checks: [] }, ['url', 'status']);

describe('results state', () => {
  it('opens with what the address said, the columns given, the first row selected and no issue filter', () => {
    const state = initialResultsState(opened, ['url']);
    assert.deepEqual(
      [
        state.view,
        state.openUrl,
        state.openChecks,
        state.search,
        state.sort,
        state.columns,
        state.selectedIndex,
        state.issueFilter,
      ],
      ['issues', 'https://a.test/x', ['redirect-chain'], 'doc', { column: 'url', descending: true }, ['url'], 0, null],
    );
  });

  it('shows everything the address says after Back or Forward, and keeps the columns and the selection', () => {
    const moved: ResultsState = { ...start, selectedIndex: 4 };
    const shown = reduceResults(moved, { type: 'address-shown', shown: opened });
    assert.deepEqual(
      [shown.view, shown.openUrl, shown.openChecks, shown.filters, shown.search, shown.sort],
      [opened.view, opened.url, opened.checks, opened.filters, opened.search, opened.sort],
    );
    assert.deepEqual([shown.columns, shown.selectedIndex], [['url', 'status'], 4]);
  });

  it('sorts by a new column ascending, and reverses on a second click', () => {
    const byStatus = reduceResults(start, { type: 'sorted', column: 'status' });
    assert.deepEqual(byStatus.sort, { column: 'status', descending: false });
    assert.deepEqual(reduceResults(byStatus, { type: 'sorted', column: 'status' }).sort, {
      column: 'status',
      descending: true,
    });
  });

  it('runs the search typed only once it settles', () => {
    const typed = reduceResults(start, { type: 'filters-changed', filters: { ...NONE, search: 'api' } });
    assert.equal(typed.filters.search, 'api');
    assert.equal(typed.search, 'doc');
    assert.equal(reduceResults(typed, { type: 'search-settled', search: 'api' }).search, 'api');
  });

  it('selects the first row again when the query changes, and leaves the state as it is when it already was', () => {
    const selected = reduceResults(start, { type: 'row-selected', index: 7 });
    assert.equal(selected.selectedIndex, 7);
    assert.equal(reduceResults(selected, { type: 'query-changed' }).selectedIndex, 0);
    assert.equal(reduceResults(start, { type: 'query-changed' }), start);
  });

  it('returns the same state for a view, a detail or a search already shown (nothing renders again)', () => {
    assert.equal(reduceResults(start, { type: 'view-opened', view: 'table' }), start);
    assert.equal(reduceResults(start, { type: 'detail-opened', url: null }), start);
    assert.equal(reduceResults(start, { type: 'search-settled', search: 'doc' }), start);
  });

  it('opens and closes a detail, views and Issues checks', () => {
    assert.equal(reduceResults(start, { type: 'detail-opened', url: 'https://a.test/' }).openUrl, 'https://a.test/');
    assert.equal(reduceResults(start, { type: 'view-opened', view: 'reports' }).view, 'reports');
    assert.deepEqual(reduceResults(start, { type: 'checks-opened', checks: ['broken-resource'] }).openChecks, [
      'broken-resource',
    ]);
  });

  it("narrows the table to one issue's URLs, and back to every URL", () => {
    const narrowed = reduceResults(start, {
      type: 'issue-filter-set',
      filter: { check: 'missing-anchor', urls: ['https://a.test/1'] },
    });
    assert.deepEqual(narrowed.issueFilter, { check: 'missing-anchor', urls: ['https://a.test/1'] });
    assert.equal(reduceResults(narrowed, { type: 'issue-filter-set', filter: null }).issueFilter, null);
  });

  it('keeps the columns chosen', () => {
    assert.deepEqual(reduceResults(start, { type: 'columns-chosen', columns: ['url', 'depth'] }).columns, [
      'url',
      'depth',
    ]);
  });

  it('counts the reads asked for: more rows, and rows the table got', () => {
    const grown = reduceResults(reduceResults(start, { type: 'rows-grew' }), { type: 'rows-grew' });
    assert.equal(grown.rowsVersion, 2);
    assert.equal(reduceResults(start, { type: 'windows-changed' }).windowsVersion, 1);
  });
});
