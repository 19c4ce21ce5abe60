/** The newest rows of the crawl table: URL, Status, Type. */
import type { PageSummary } from '../messaging/protocol.ts';
import { mediaType, rowTone, shortUrl } from '../ui/row-format.ts';
import { statusText } from './crawl-text.ts';

export interface ResultsTableProps {
  pages: readonly PageSummary[];
  /** Origin of the crawl: URLs on it are shown by path, the full URL stays in the cell's title. */
  origin: string | null;
  /** The crawl has ended (finished, failed, stopped): an empty table is final, not "yet". @default false */
  isOver?: boolean;
}

export function ResultsTable({ pages, origin, isOver = false }: ResultsTableProps) {
  if (pages.length === 0) return <p class="empty">{isOver ? 'No pages were recorded.' : 'No pages recorded yet.'}</p>;
  return (
    <table class="results" data-testid="results">
      <caption>Latest results</caption>
      <colgroup>
        <col class="col-url" />
        <col class="col-status" />
        <col class="col-type" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Status</th>
          <th scope="col">Type</th>
        </tr>
      </thead>
      <tbody>
        {pages.map((page) => {
          const status = statusText(page);
          const type = mediaType(page.contentType);
          return (
            <tr key={page.seq} class={`tone-${rowTone(page)}`}>
              <td class="cell-url" title={page.url}>
                {shortUrl(page.url, origin)}
              </td>
              <td
                class="cell-status"
                title={page.error !== null ? `${page.error.code}: ${page.error.message}` : status}
              >
                {status}
              </td>
              <td class="cell-type" title={page.contentType ?? undefined}>
                {type}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
