/**
 * The popup: the Start form for the current tab's site, then that site's
 * newest crawl with its counters and latest rows.
 *
 * Platform-free: everything it needs from the browser comes in `deps`, so
 * tests render it in a plain page with a fake `send`.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { validateSettings } from '../core/settings.ts';
import { TabcrawlError } from '../messaging/protocol.ts';
import { CrawlForm } from './crawl-form.tsx';
import { CrawlProgress } from './crawl-progress.tsx';
import { DEFAULT_POLL_MS, type PopupDeps } from './deps.ts';
import { ExportMenu } from './export-menu.tsx';
import {
  defaultFormValues,
  describeError,
  httpOrigin,
  parseForm,
  pickCrawlFor,
  splitErrors,
  type FieldErrors,
  type FormValues,
} from './format.ts';
import { ResultsTable } from './results-table.tsx';
import { useCrawl } from './use-crawl.ts';

export const NOT_A_SITE_NOTE = 'This tab is not a web site; type a URL to crawl';

export interface AppProps {
  deps: PopupDeps;
}

export function App({ deps }: AppProps) {
  const { send, currentTabUrl } = deps;
  const view = useCrawl(send, deps.pollMs ?? DEFAULT_POLL_MS);
  const { show } = view;

  const [values, setValues] = useState<FormValues>(defaultFormValues);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [isLoading, setLoading] = useState(true);
  const [isStarting, setStarting] = useState(false);
  /** The user typed in the start URL field: the tab's URL must not overwrite it. */
  const hasEditedUrl = useRef(false);
  const startUrlRef = useRef<HTMLInputElement>(null);

  // On open: the tab's site fills the form, and the newest crawl of that site is shown.
  useEffect(() => {
    let isCancelled = false;
    const load = async (): Promise<void> => {
      const [tab, listing] = await Promise.allSettled([currentTabUrl(), send('crawl/list', {})]);
      if (isCancelled) return;
      const origin = httpOrigin(tab.status === 'fulfilled' ? tab.value : null);
      if (origin === null) setNote(NOT_A_SITE_NOTE);
      else if (!hasEditedUrl.current) setValues((current) => ({ ...current, startUrl: `${origin}/` }));
      if (listing.status === 'rejected') {
        setBanner(`Could not list earlier crawls: ${describeError(listing.reason)}`);
      } else if (origin !== null) {
        const crawl = pickCrawlFor(listing.value.crawls, origin);
        if (crawl !== null) await show(crawl);
      }
    };
    void load().finally(() => {
      if (!isCancelled) setLoading(false);
    });
    return () => {
      isCancelled = true;
    };
  }, [currentTabUrl, send, show]);

  const onChange = (next: FormValues): void => {
    if (next.startUrl !== values.startUrl) hasEditedUrl.current = true;
    setValues(next);
  };

  const onSubmit = async (): Promise<void> => {
    const result = validateSettings(parseForm(values));
    if (!result.ok) {
      const { fields, other } = splitErrors(result.errors);
      setFieldErrors(fields);
      setBanner(other.length > 0 ? other.join('; ') : null);
      return;
    }
    const { startUrl, maxPages, delayMs } = result.settings;
    setFieldErrors({});
    setBanner(null);
    setStarting(true);
    try {
      const reply = await send('crawl/start', { settings: { startUrl, maxPages, delayMs } });
      await show(reply.crawl);
    } catch (err) {
      if (err instanceof TabcrawlError && err.fields.length > 0) {
        const { fields, other } = splitErrors(err.fields);
        setFieldErrors(fields);
        setBanner(other.length > 0 ? other.join('; ') : Object.keys(fields).length > 0 ? null : err.message);
      } else {
        setBanner(describeError(err));
      }
    } finally {
      setStarting(false);
    }
  };

  const onNewCrawl = (): void => {
    const input = startUrlRef.current;
    input?.focus();
    input?.select();
  };

  const { crawl } = view;
  const isRunning = crawl?.state === 'running';
  const errorText = banner ?? view.error;

  return (
    <main class="popup">
      <h1 class="title">Tabcrawl</h1>
      <CrawlForm
        values={values}
        errors={fieldErrors}
        note={note}
        isStarting={isStarting}
        isStartDisabled={isRunning}
        disabledReason={isRunning ? 'A crawl of this site is running: stop it to start again.' : null}
        startUrlRef={startUrlRef}
        onChange={onChange}
        onSubmit={() => void onSubmit()}
      />
      {errorText !== null && (
        <p class="banner" role="alert">
          {errorText}
        </p>
      )}
      {crawl !== null ? (
        <>
          <CrawlProgress crawl={crawl} isStopping={view.isStopping} onStop={() => void view.stop()} onNewCrawl={onNewCrawl}>
            <ExportMenu crawlId={crawl.id} rowCount={crawl.counts.done} onExport={deps.openExportTab} />
          </CrawlProgress>
          <ResultsTable pages={view.pages} origin={httpOrigin(crawl.settings.startUrl)} />
        </>
      ) : (
        isLoading && (
          <p class="loading" aria-busy="true">
            Looking for earlier crawls…
          </p>
        )
      )}
    </main>
  );
}
