/**
 * The *Not crawled* view of the results page: the URLs the crawl found and
 * left unvisited by its own rules (the depth limit, the page limit, the path
 * prefix, an exclude pattern, the trap rules; see `core/crawl/not-crawled.ts`)
 * and the links to other sites it did not check (past a limit, refused by
 * their robots.txt, checks off), with why, the depth each would have had and the page that linked it. One
 * reason at a time or all; a page of {@link PAGE_SIZE} at a time; every one of
 * them as CSV.
 *
 * They are counted when the crawl finishes (and those it visited after all
 * are dropped then): before that, the view lists what is recorded so far and
 * says so. Platform-free: the URLs come in through {@link NotCrawledSource}.
 * Uses the reports panel's styles (`reports-view.css`).
 */
import { UrlLink } from './url-link.tsx';
import { useEffect, useState } from 'preact/hooks';
import type { CrawlRecord, NotCrawledReason, NotCrawledUrl } from '../core/model.ts';
import { notCrawledCsv } from '../export/not-crawled-csv.ts';
import { NOT_CRAWLED_REASONS, notCrawledReasonText, notCrawledText } from '../ui/not-crawled-text.ts';
import type { SaveCsv } from './reports-view.tsx';

/** URLs read and shown at a time. */
export const PAGE_SIZE = 200;

/** Reads the crawl's URLs left unvisited after `afterUrl` (null: from the first), in URL order; of one reason when given. */
export type NotCrawledSource = (
  crawlId: string,
  afterUrl: string | null,
  limit: number,
  reason: NotCrawledReason | null,
) => Promise<NotCrawledUrl[]>;

export interface NotCrawledViewProps {
  crawl: Pick<CrawlRecord, 'id' | 'state' | 'createdAt' | 'counts' | 'settings'>;
  load: NotCrawledSource;
  saveCsv: SaveCsv;
  /** Opens a URL's detail (the page that linked one); without it, URLs are plain text. */
  onOpenUrl?: (url: string) => void;
}

type Listing =
  | { state: 'loading' }
  | { state: 'ready'; urls: NotCrawledUrl[]; hasMore: boolean }
  | { state: 'failed'; message: string };

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `<host>-<yyyy-mm-dd>-not-crawled[-<reason>].csv`. */
export function notCrawledFileName(
  crawl: Pick<CrawlRecord, 'createdAt' | 'settings'>,
  reason: NotCrawledReason | null,
): string {
  const host = new URL(crawl.settings.startUrl).host.replace(/[^A-Za-z0-9.-]+/g, '_');
  const date = new Date(crawl.createdAt).toISOString().slice(0, 10);
  return `${host}-${date}-not-crawled${reason === null ? '' : `-${reason}`}.csv`;
}

export function NotCrawledView({ crawl, load, saveCsv, onOpenUrl }: NotCrawledViewProps) {
  const [reason, setReason] = useState<NotCrawledReason | null>(null);
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [saveError, setSaveError] = useState<string | null>(null);
  const counts = crawl.counts.notCrawled;
  const isCounted = counts !== undefined;

  useEffect(() => {
    let isCancelled = false;
    setListing({ state: 'loading' });
    load(crawl.id, null, PAGE_SIZE + 1, reason).then(
      (urls) =>
        !isCancelled &&
        setListing({ state: 'ready', urls: urls.slice(0, PAGE_SIZE), hasMore: urls.length > PAGE_SIZE }),
      (error: unknown) => !isCancelled && setListing({ state: 'failed', message: errorMessage(error) }),
    );
    return () => {
      isCancelled = true;
    };
    // Read again when the crawl's count changes (it finished) or another reason is picked.
  }, [crawl.id, reason, JSON.stringify(counts), load]);

  const showMore = async (): Promise<void> => {
    if (listing.state !== 'ready') return;
    const after = listing.urls.at(-1)?.url ?? null;
    try {
      const more = await load(crawl.id, after, PAGE_SIZE + 1, reason);
      setListing({
        state: 'ready',
        urls: [...listing.urls, ...more.slice(0, PAGE_SIZE)],
        hasMore: more.length > PAGE_SIZE,
      });
    } catch (error) {
      setListing({ state: 'failed', message: errorMessage(error) });
    }
  };

  const download = async (): Promise<void> => {
    setSaveError(null);
    try {
      const all: NotCrawledUrl[] = [];
      for (let after: string | null = null; ;) {
        const slice = await load(crawl.id, after, 5000, reason);
        all.push(...slice);
        if (slice.length < 5000) break;
        after = slice.at(-1)?.url ?? null;
      }
      await saveCsv(notCrawledFileName(crawl, reason), notCrawledCsv(all, crawl.settings));
    } catch (error) {
      setSaveError(errorMessage(error));
    }
  };

  const summary = notCrawledText(counts, crawl.settings);
  const reasons = NOT_CRAWLED_REASONS.filter((r) => (counts?.[r] ?? 0) > 0);

  return (
    <section
      class="reports"
      data-testid="not-crawled"
      data-state={listing.state}
      aria-busy={listing.state === 'loading'}
    >
      <p class="reports-count" data-testid="not-crawled-summary">
        {isCounted
          ? (summary ?? 'The crawl left nothing unvisited: every URL it found within its limits and scope was crawled.')
          : crawl.state === 'finished' || crawl.state === 'failed'
            ? 'Not counted for this crawl: it was imported from another tool’s archive, or stored before Tabcrawl counted the URLs a crawl leaves unvisited.'
            : 'What the crawl leaves unvisited is counted when it finishes. Recorded so far (some may still be crawled, found again nearer the start):'}
      </p>
      {(reasons.length > 1 || reason !== null) && (
        <div class="results-tabs not-crawled-reasons" role="group" aria-label="Why">
          <button
            type="button"
            aria-pressed={reason === null}
            data-testid="not-crawled-all"
            onClick={() => setReason(null)}
          >
            All
          </button>
          {reasons.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={reason === r}
              data-testid={`not-crawled-${r}`}
              onClick={() => setReason(r)}
            >
              {notCrawledReasonText(r, crawl.settings)} ({counts?.[r] ?? 0})
            </button>
          ))}
        </div>
      )}
      {listing.state === 'failed' && (
        <p class="reports-status reports-failed" role="alert">
          Could not read them: {listing.message}
        </p>
      )}
      {saveError !== null && (
        <p class="reports-status reports-failed" role="alert" data-testid="not-crawled-save-error">
          Could not save the CSV: {saveError}
        </p>
      )}
      {listing.state === 'ready' && listing.urls.length > 0 && (
        <>
          <div class="reports-bar">
            <button type="button" data-testid="not-crawled-download" onClick={() => void download()}>
              Download CSV
            </button>
          </div>
          <div class="reports-scroll">
            <table class="reports-table" data-testid="not-crawled-table">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Why</th>
                  <th scope="col">Depth</th>
                  <th scope="col">Found on</th>
                </tr>
              </thead>
              <tbody>
                {listing.urls.map((u) => (
                  <tr key={u.url} data-testid="not-crawled-row" data-url={u.url}>
                    <td class="reports-url">{u.url}</td>
                    <td>{notCrawledReasonText(u.reason, crawl.settings)}</td>
                    <td>{u.depth}</td>
                    <td>
                      {u.referrer === null ? (
                        <span class="reports-muted">none</span>
                      ) : (
                        <UrlLink url={u.referrer} onOpen={onOpenUrl} testId="not-crawled-found-on" />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {listing.hasMore && (
            <div class="reports-bar">
              <button type="button" data-testid="not-crawled-more" onClick={() => void showMore()}>
                Show {PAGE_SIZE} more
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
