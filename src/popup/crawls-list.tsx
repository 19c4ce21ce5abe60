/**
 * The Crawls view: every stored crawl, newest first, each told apart by its
 * site, state, start time, URLs, size, run time and the settings that differ
 * from the defaults, with Open (in the popup), Open in tab (the full results
 * page), Re-run, Delete and Browsertrix config (its settings as a Browsertrix
 * Crawler config, downloaded), all of one weight. Above them, *Open an
 * archive…* opens the import page in a tab (a WARC or WACZ file becomes a
 * crawl of its own, listed here). Delete asks for confirmation
 * in the row itself, naming the crawl as the row does; so does Re-run of an
 * imported crawl, whose settings came from a file: it shows the start URL and
 * the settings the new crawl would run with before anything is sent. Escape or
 * Cancel takes it back.
 */
import type { Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CrawlSummary } from '../messaging/protocol.ts';
import { dateTime } from '../ui/format-time.ts';
import { formatBytes } from '../ui/format-bytes.ts';
import { httpOrigin } from '../core/url/normalize-url.ts';
import { runTimeText } from '../ui/crawl-progress-text.ts';
import { settingsDigest } from './crawl-text.ts';

export interface CrawlsListProps {
  /** The crawls, or null while they load. */
  crawls: CrawlSummary[] | null;
  /** The id of the crawl with an action in flight (its buttons are disabled), or null. */
  busyId: string | null;
  onOpen: (crawl: CrawlSummary) => void;
  onOpenInTab: (crawl: CrawlSummary) => void;
  onRerun: (crawl: CrawlSummary) => void;
  onDelete: (crawl: CrawlSummary) => void;
  /** Downloads the crawl's settings as a Browsertrix Crawler config; no such button without it. */
  onBrowsertrixConfig?: (crawl: CrawlSummary) => void;
  /** Opens the import page in a tab; no *Open an archive…* button without it. */
  onOpenArchive?: () => void;
}

/** The crawls, newest first. */
export function newestFirst(crawls: readonly CrawlSummary[]): CrawlSummary[] {
  return [...crawls].sort((a, b) => b.createdAt - a.createdAt);
}

/** The Crawls view: *Open an archive…* (when given), then the list. */
export function CrawlsList(props: CrawlsListProps) {
  const { onOpenArchive } = props;
  return (
    <>
      {onOpenArchive !== undefined && (
        <div class="crawls-toolbar">
          <button
            type="button"
            data-testid="open-archive"
            title="Open a WARC or WACZ file (.warc, .warc.gz, .wacz) as a crawl of its own, in a new tab"
            onClick={onOpenArchive}
          >
            Open an archive…
          </button>
        </div>
      )}
      <CrawlRows {...props} />
    </>
  );
}

function CrawlRows({ crawls, busyId, onOpen, onOpenInTab, onRerun, onDelete, onBrowsertrixConfig }: CrawlsListProps) {
  /** The row asking for confirmation, and of what. */
  const [confirming, setConfirming] = useState<{ id: string; action: 'delete' | 'rerun' } | null>(null);
  const confirmingId = confirming?.id ?? null;
  const setConfirmingId = (id: string | null): void => setConfirming(id === null ? null : { id, action: 'delete' });
  const confirmRef = useRef<HTMLButtonElement>(null);

  // Focus moves to the confirmation, so a keyboard user lands on it.
  useEffect(() => {
    if (confirming !== null) confirmRef.current?.focus();
  }, [confirming]);

  if (crawls === null) {
    return (
      <p class="loading" aria-busy="true">
        Loading crawls…
      </p>
    );
  }
  if (crawls.length === 0) {
    return (
      <p class="empty" data-testid="crawls-empty">
        No crawls stored yet.
      </p>
    );
  }
  return (
    <ul class="crawls-list" data-testid="crawls-list" aria-label="Stored crawls">
      {newestFirst(crawls).map((crawl) => {
        const site = httpOrigin(crawl.settings.startUrl) ?? crawl.settings.startUrl;
        const isBusy = busyId === crawl.id;
        const isConfirming = confirmingId === crawl.id && confirming?.action === 'delete';
        const isConfirmingRerun = confirmingId === crawl.id && confirming?.action === 'rerun';
        const urls = `${crawl.counts.done} ${crawl.counts.done === 1 ? 'URL' : 'URLs'}`;
        const size = formatBytes(crawl.counts.bytesStored ?? 0);
        const digest = settingsDigest(crawl.settings);
        return (
          <li key={crawl.id} class="crawl-row" data-testid="crawl-row" data-crawl-id={crawl.id}>
            <div class="crawl-row-head">
              <span class="crawl-row-site" title={crawl.settings.startUrl}>
                {site}
              </span>
              <span class={`crawl-state state-${crawl.state}`}>{crawl.state}</span>
            </div>
            <div class="crawl-row-meta">
              <span>{dateTime(crawl.createdAt)}</span>
              <span data-testid="crawl-row-count">
                {urls} ·{' '}
                <span
                  data-testid="crawl-row-size"
                  title="Stored bodies, each counted once; rows and indexes not counted"
                >
                  {size}
                </span>
              </span>
              {crawl.activeMs !== undefined && (
                <span data-testid="crawl-row-time">{runTimeText(crawl.state, crawl.activeMs)}</span>
              )}
            </div>
            {digest !== '' && (
              <div
                class="crawl-row-settings"
                data-testid="crawl-row-settings"
                title="Settings that differ from the defaults"
              >
                {digest}
              </div>
            )}
            {isConfirmingRerun ? (
              <RerunConfirm
                crawl={crawl}
                isBusy={isBusy}
                confirmRef={confirmRef}
                onCancel={() => setConfirming(null)}
                onStart={() => {
                  setConfirming(null);
                  onRerun(crawl);
                }}
              />
            ) : isConfirming ? (
              <div
                class="crawl-row-confirm"
                role="group"
                aria-label={`Delete the crawl of ${site} from ${dateTime(crawl.createdAt)}?`}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') setConfirmingId(null);
                }}
              >
                <span data-testid="confirm-delete-text">
                  Delete the crawl of {site} from {dateTime(crawl.createdAt)} ({urls}, {size})?
                </span>
                <button
                  type="button"
                  class="danger"
                  ref={confirmRef}
                  data-testid="confirm-delete"
                  disabled={isBusy}
                  onClick={() => {
                    setConfirmingId(null);
                    onDelete(crawl);
                  }}
                >
                  Delete
                </button>
                <button type="button" data-testid="cancel-delete" onClick={() => setConfirmingId(null)}>
                  Cancel
                </button>
              </div>
            ) : (
              <div class="crawl-row-actions">
                <button type="button" data-testid="open-crawl" disabled={isBusy} onClick={() => onOpen(crawl)}>
                  Open
                </button>
                <button type="button" data-testid="open-in-tab" onClick={() => onOpenInTab(crawl)}>
                  Open in tab
                </button>
                <button
                  type="button"
                  data-testid="rerun-crawl"
                  disabled={isBusy}
                  onClick={() =>
                    crawl.importedFrom === undefined ? onRerun(crawl) : setConfirming({ id: crawl.id, action: 'rerun' })
                  }
                >
                  Re-run
                </button>
                <button
                  type="button"
                  data-testid="delete-crawl"
                  disabled={isBusy}
                  onClick={() => setConfirmingId(crawl.id)}
                >
                  Delete
                </button>
                {onBrowsertrixConfig !== undefined && (
                  <button
                    type="button"
                    data-testid="browsertrix-config"
                    title="This crawl's settings as a config for Browsertrix Crawler (YAML), to crawl the site at scale"
                    onClick={() => onBrowsertrixConfig(crawl)}
                  >
                    Browsertrix config
                  </button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Re-run of an imported crawl: where it would start and with what, before anything is sent. The settings came
 * from a file (the import checked them and turned cookies off); the user reads them and starts, or cancels.
 */
function RerunConfirm({
  crawl,
  isBusy,
  confirmRef,
  onStart,
  onCancel,
}: {
  crawl: CrawlSummary;
  isBusy: boolean;
  confirmRef: Ref<HTMLButtonElement>;
  onStart: () => void;
  onCancel: () => void;
}) {
  const digest = settingsDigest(crawl.settings);
  return (
    <div
      class="crawl-row-confirm"
      role="group"
      aria-label={`Re-run the crawl imported from ${crawl.importedFrom ?? 'an archive'}?`}
      data-testid="confirm-rerun-group"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <span data-testid="confirm-rerun-text">
        Re-run the crawl imported from {crawl.importedFrom}? Its settings came from that file. It would start at{' '}
        <code data-testid="confirm-rerun-start">{crawl.settings.startUrl}</code> with{' '}
        <span data-testid="confirm-rerun-settings">{digest === '' ? 'the default settings' : digest}</span>, without
        your cookies.
      </span>
      <button
        type="button"
        class="primary"
        ref={confirmRef}
        data-testid="confirm-rerun"
        disabled={isBusy}
        onClick={onStart}
      >
        Start
      </button>
      <button type="button" data-testid="cancel-rerun" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
