/**
 * The line above the table: how many URLs the view holds and, when it holds
 * none, why (the filters match nothing, with *Clear filters*; or the crawl
 * has no row yet, or never recorded one).
 */
import type { CrawlState } from '../core/model.ts';
import { countText } from './format.ts';

export interface ResultsCountProps {
  /** Rows matching the view; null while the first window is read. */
  total: number | null;
  /** Whether any filter or search narrows the view. */
  isFiltered: boolean;
  /** The crawl's state; undefined while it is read. */
  state: CrawlState | undefined;
  /** Clears every filter and the search. */
  onClear: () => void;
}

export function ResultsCount({ total, isFiltered, state, onClear }: ResultsCountProps) {
  return (
    <>
      <p class="results-total" role="status" data-testid="results-total">
        {total === null ? 'Loading…' : countText(total, 'URL')}
      </p>
      {total === 0 && isFiltered && (
        <p class="empty-state" data-testid="results-empty">
          No URL matches these filters.{' '}
          <button type="button" class="link" data-testid="clear-filters" onClick={onClear}>
            Clear filters
          </button>
        </p>
      )}
      {total === 0 && !isFiltered && state !== undefined && (
        <p class="empty-state" data-testid="results-none">
          {state === 'running' || state === 'paused'
            ? 'No URL recorded yet: rows appear here as the crawl finishes them.'
            : 'This crawl recorded no URL.'}
        </p>
      )}
    </>
  );
}
