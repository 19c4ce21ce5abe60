/**
 * The options page's view: the user's default crawl settings (the settings
 * form and Save) and the sites with remembered settings (each with Forget).
 *
 * Platform-free: storage comes in as {@link OptionsViewProps.storage}, so
 * tests render it in a plain page with a memory storage. Nothing is saved
 * while a field is invalid: Save then shows the validator's messages next to
 * their fields and takes the keyboard to the first one.
 *
 * Save status (`data-testid="save-status"`, `data-state`):
 * ```
 * (none) ──Save, invalid──► invalid ──edit──► messages follow the edits
 *    └────Save, valid────► saving ──► saved | error
 * ```
 */
import { dateTime } from '../ui/format-time.ts';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { SettingsForm } from '../settings/settings-form.tsx';
import {
  checkForm,
  describeSettings,
  fromSettings,
  toSettings,
  type FieldErrors,
  type FormValues,
} from '../settings/settings-values.ts';
import {
  forgetSite,
  listSites,
  loadDefaultSettings,
  saveDefaultSettings,
  type RememberedSite,
  type SettingsStorage,
} from '../settings/site-settings.ts';

export interface OptionsViewProps {
  /** Where settings are kept: `browser.storage.local` in the extension. */
  storage: SettingsStorage;
  /** Asks for what rendering needs when the user turns it on (see `SettingsFormProps.requestRenderPermission`). */
  requestRenderPermission?: () => Promise<boolean>;
}

/** Where the last Save stands. */
type SaveStatus =
  | { state: 'idle' }
  | { state: 'invalid'; count: number }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'error'; message: string };

/** The remembered sites, or why they could not be read. */
type SitesState =
  { state: 'loading' } | { state: 'ready'; sites: RememberedSite[] } | { state: 'failed'; message: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function saveStatusText(status: SaveStatus): string {
  switch (status.state) {
    case 'idle':
      return '';
    case 'invalid':
      return `Not saved: ${status.count === 1 ? 'one setting needs' : `${status.count} settings need`} fixing (see the message under ${status.count === 1 ? 'it' : 'each'}).`;
    case 'saving':
      return 'Saving…';
    case 'saved':
      return 'Saved. Crawls of sites without remembered settings now start with these.';
    case 'error':
      return `Not saved: ${status.message}`;
  }
}

/** The whole options page. */
export function OptionsView({ storage, requestRenderPermission }: OptionsViewProps) {
  const [values, setValues] = useState<FormValues | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  /** After a refused Save, messages follow every edit until the form is valid. */
  const [isChecking, setIsChecking] = useState(false);
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });
  const [sites, setSites] = useState<SitesState>({ state: 'loading' });
  const [sitesNote, setSitesNote] = useState<string | null>(null);
  /** Bumped to take the keyboard to the first invalid field after the next render. */
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const sitesHeadingRef = useRef<HTMLHeadingElement>(null);

  const refreshSites = useCallback(async () => {
    try {
      setSites({ state: 'ready', sites: await listSites(storage) });
    } catch (error) {
      setSites({ state: 'failed', message: messageOf(error) });
    }
  }, [storage]);

  useEffect(() => {
    let isCancelled = false;
    loadDefaultSettings(storage).then(
      (settings) => {
        if (!isCancelled) setValues(fromSettings(settings));
      },
      (error: unknown) => {
        if (isCancelled) return;
        setLoadError(messageOf(error));
        setValues(fromSettings({}));
      },
    );
    void refreshSites();
    return () => {
      isCancelled = true;
    };
  }, [storage, refreshSites]);

  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const edit = (next: FormValues) => {
    setValues(next);
    if (status.state === 'saved' || status.state === 'error') setStatus({ state: 'idle' });
    if (isChecking) {
      const result = checkForm(next);
      setErrors(result.ok ? {} : result.errors);
      setStatus(result.ok ? { state: 'idle' } : { state: 'invalid', count: Object.keys(result.errors).length });
      if (result.ok) setIsChecking(false);
    }
  };

  const save = async () => {
    if (values === null || status.state === 'saving') return;
    const checked = checkForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      setIsChecking(true);
      setStatus({ state: 'invalid', count: Object.keys(checked.errors).length });
      setFocusRequest((count) => count + 1);
      return;
    }
    setErrors({});
    setIsChecking(false);
    setStatus({ state: 'saving' });
    try {
      const result = await saveDefaultSettings(storage, toSettings(values));
      if (!result.ok) {
        // checkForm already refused these; kept so a store-side refusal still shows.
        setStatus({ state: 'error', message: result.errors.map((error) => error.message).join('; ') });
        return;
      }
      setValues(fromSettings(await loadDefaultSettings(storage)));
      setStatus({ state: 'saved' });
    } catch (error) {
      setStatus({ state: 'error', message: messageOf(error) });
    }
  };

  const resetToBuiltIn = () => {
    edit(fromSettings({}));
    setStatus({ state: 'idle' });
    setSitesNote(null);
  };

  const forget = async (origin: string) => {
    try {
      await forgetSite(storage, origin);
      setSitesNote(`Forgot ${origin}: its next crawl starts with your defaults.`);
    } catch (error) {
      setSitesNote(`Could not forget ${origin}: ${messageOf(error)}`);
    }
    await refreshSites();
    sitesHeadingRef.current?.focus();
  };

  const statusText = saveStatusText(status);
  const isStatusBad = status.state === 'invalid' || status.state === 'error';

  return (
    <main class="options-page" data-testid="options-page">
      <h1 class="page-title">Tabcrawl options</h1>

      <section class="panel" aria-labelledby="defaults-heading">
        <h2 id="defaults-heading" class="panel-title">
          Default crawl settings
        </h2>
        {/* The fields show the saved defaults, all filled: the intro says how the built-in ones come back. */}
        <p class="panel-intro" data-testid="defaults-intro">
          Every crawl starts with these, unless its site has remembered settings. Each field's built-in default is shown
          under it; <em>Built-in defaults</em> puts every field back to it, and a field you empty takes it too.
        </p>
        {loadError !== null && (
          <p class="banner" role="alert" data-testid="load-error">
            Could not read your saved defaults ({loadError}); the built-in defaults are shown.
          </p>
        )}
        {values === null ? (
          <p class="loading" aria-busy="true">
            Loading…
          </p>
        ) : (
          <form
            ref={formRef}
            noValidate
            aria-labelledby="defaults-heading"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <SettingsForm
              value={values}
              onChange={edit}
              errors={errors}
              isDisabled={status.state === 'saving'}
              requestRenderPermission={requestRenderPermission}
            />
            <div class="actions">
              <button type="submit" class="primary" data-testid="save-defaults" disabled={status.state === 'saving'}>
                Save
              </button>
              <button
                type="button"
                data-testid="reset-defaults"
                onClick={resetToBuiltIn}
                disabled={status.state === 'saving'}
              >
                Built-in defaults
              </button>
              <p
                class={
                  isStatusBad
                    ? 'save-status save-status-bad'
                    : status.state === 'saved'
                      ? 'save-status save-status-ok'
                      : 'save-status'
                }
                role="status"
                data-testid="save-status"
                data-state={status.state}
              >
                {statusText}
              </p>
            </div>
          </form>
        )}
      </section>

      <section class="panel" aria-labelledby="sites-heading">
        <h2 id="sites-heading" ref={sitesHeadingRef} tabIndex={-1} class="panel-title">
          Remembered sites
        </h2>
        <p class="panel-intro">
          Sites whose settings Tabcrawl remembers. Forget a site to crawl it with your defaults again.
        </p>
        <p class="note" role="status" data-testid="sites-status">
          {sitesNote ?? ''}
        </p>
        <SitesList sites={sites} onForget={(origin) => void forget(origin)} />
      </section>
    </main>
  );
}

function SitesList({ sites, onForget }: { sites: SitesState; onForget: (origin: string) => void }) {
  if (sites.state === 'loading') return <p class="loading">Loading…</p>;
  if (sites.state === 'failed') {
    return (
      <p class="banner" role="alert" data-testid="sites-error">
        Could not read the remembered sites: {sites.message}
      </p>
    );
  }
  if (sites.sites.length === 0) {
    return (
      <p class="empty" data-testid="sites-empty">
        No remembered sites yet.
      </p>
    );
  }
  return (
    <ul class="sites" data-testid="sites-list">
      {sites.sites.map((site) => {
        const changes = describeSettings(site.settings);
        return (
          <li key={site.origin} class="site" data-testid="site-row" data-origin={site.origin}>
            <div class="site-text">
              <p class="site-origin" data-testid="site-origin">
                {site.origin}
              </p>
              <p class="site-summary" data-testid="site-summary">
                {changes.length === 0 ? 'Same as the built-in defaults' : changes.join(' · ')}
                {/* As the popup's Crawls list writes times: `2026-01-31 12:03`, local time. */}
                {site.savedAt > 0 && <span class="site-saved"> · saved {dateTime(site.savedAt)}</span>}
              </p>
            </div>
            <button
              type="button"
              data-testid="forget-site"
              aria-label={`Forget ${site.origin}`}
              onClick={() => onForget(site.origin)}
            >
              Forget
            </button>
          </li>
        );
      })}
    </ul>
  );
}
