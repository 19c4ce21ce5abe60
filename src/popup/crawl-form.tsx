/**
 * The Start form: start URL, max pages, delay and the Start button, and a
 * "More settings" disclosure with every other crawl option.
 *
 * Max pages and delay are shown once: in the form's own row while the
 * disclosure is closed, inside the settings form (in their groups, with
 * their help) while it is open. Either way they edit the same values and
 * keep the `max-pages` and `delay` test ids.
 *
 * ```
 * closed: Start URL │ Max pages, Delay, Start │ [More settings ▸]
 * open:   Start URL │ [More settings ▾] │ SettingsForm (all options) │ Start
 * ```
 */
import type { RefObject } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { SettingsForm } from '../settings/settings-form.tsx';
import { DEFAULT_SETTINGS } from '../core/settings.ts';
import type { StartFormErrors, StartFormValues } from './start-form.ts';

import { hiddenErrorCount } from './popup-state.ts';

export interface CrawlFormProps {
  values: StartFormValues;
  errors: StartFormErrors;
  /** Shown under the start URL, e.g. when the tab is not a web site. */
  note: string | null;
  /** A start request is in flight. */
  isStarting: boolean;
  /** Start is not offered, e.g. while the crawl shown still runs. */
  isStartDisabled: boolean;
  /** Why Start is disabled, shown next to it. */
  disabledReason: string | null;
  /** The "More settings" disclosure is open. */
  isMoreOpen: boolean;
  onMoreOpenChange: (isOpen: boolean) => void;
  /** Bumped to take the keyboard to the first field with a problem after the next render. */
  focusRequest: number;
  startUrlRef: RefObject<HTMLInputElement | null>;
  onChange: (values: StartFormValues) => void;
  onSubmit: () => void;
  /** Asks for what rendering needs when the user turns it on (see `SettingsFormProps.requestRenderPermission`). */
  requestRenderPermission?: () => Promise<boolean>;
}

export function CrawlForm(props: CrawlFormProps) {
  const {
    values,
    errors,
    note,
    isStarting,
    isStartDisabled,
    disabledReason,
    isMoreOpen,
    onMoreOpenChange,
    focusRequest,
    startUrlRef,
    onChange,
    onSubmit,
    requestRenderPermission,
  } = props;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);

  // Take the keyboard to the first field with a problem whenever new problems arrive.
  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const setting = (name: 'maxPages' | 'delaySeconds') => (event: Event) => {
    onChange({ ...values, settings: { ...values.settings, [name]: (event.currentTarget as HTMLInputElement).value } });
  };

  const errorId = (name: string) => `${id}-${name}-error`;
  const describedBy = (name: string, error: string | undefined, extra?: string | null) =>
    [error !== undefined ? errorId(name) : null, extra ?? null].filter((part) => part !== null).join(' ') || undefined;
  const noteId = `${id}-note`;
  const panelId = `${id}-more`;
  const hiddenErrors = isMoreOpen ? 0 : hiddenErrorCount(errors);

  const startButton = (
    <button
      type="submit"
      class="primary"
      data-testid="start"
      disabled={isStarting || isStartDisabled}
      aria-describedby={disabledReason !== null ? `${id}-disabled` : undefined}
    >
      {isStarting ? 'Starting…' : 'Start'}
    </button>
  );

  return (
    <form
      ref={formRef}
      class="crawl-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!isStarting && !isStartDisabled) onSubmit();
      }}
    >
      <div class="field">
        <label for={`${id}-start-url`}>Start URL</label>
        <input
          id={`${id}-start-url`}
          ref={startUrlRef}
          data-testid="start-url"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellcheck={false}
          placeholder="https://example.com/"
          value={values.startUrl}
          aria-invalid={errors.startUrl !== undefined}
          aria-describedby={describedBy('start-url', errors.startUrl, note !== null ? noteId : null)}
          onInput={(event) => onChange({ ...values, startUrl: event.currentTarget.value })}
        />
        {note !== null && (
          <p id={noteId} class="note">
            {note}
          </p>
        )}
        {errors.startUrl !== undefined && (
          <p id={errorId('start-url')} class="field-error">
            {errors.startUrl}
          </p>
        )}
      </div>
      {!isMoreOpen && (
        <div class="form-row">
          <div class="field field-number">
            <label for={`${id}-max-pages`}>Max pages</label>
            <input
              id={`${id}-max-pages`}
              data-testid="max-pages"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              placeholder={String(DEFAULT_SETTINGS.maxPages)}
              value={values.settings.maxPages}
              aria-invalid={errors.maxPages !== undefined}
              aria-describedby={describedBy('max-pages', errors.maxPages)}
              onInput={setting('maxPages')}
            />
            {errors.maxPages !== undefined && (
              <p id={errorId('max-pages')} class="field-error" data-testid="max-pages-error">
                {errors.maxPages}
              </p>
            )}
          </div>
          <div class="field field-number">
            <label for={`${id}-delay`}>Delay (s)</label>
            <input
              id={`${id}-delay`}
              data-testid="delay"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              placeholder={String(DEFAULT_SETTINGS.delayMs / 1000)}
              value={values.settings.delaySeconds}
              aria-invalid={errors.delayMs !== undefined}
              aria-describedby={describedBy('delay', errors.delayMs)}
              onInput={setting('delaySeconds')}
            />
            {errors.delayMs !== undefined && (
              <p id={errorId('delay')} class="field-error" data-testid="delay-error">
                {errors.delayMs}
              </p>
            )}
          </div>
          {startButton}
        </div>
      )}
      <div class="more-settings-row">
        <button
          type="button"
          class="disclosure"
          data-testid="more-settings"
          aria-expanded={isMoreOpen}
          aria-controls={panelId}
          aria-describedby={hiddenErrors > 0 ? `${id}-hidden-errors` : undefined}
          onClick={() => onMoreOpenChange(!isMoreOpen)}
        >
          More settings
        </button>
        {hiddenErrors > 0 && (
          <span id={`${id}-hidden-errors`} class="field-error" data-testid="more-settings-errors">
            {hiddenErrors === 1 ? 'One setting here needs fixing' : `${hiddenErrors} settings here need fixing`}
          </span>
        )}
      </div>
      <div id={panelId} class="more-settings" hidden={!isMoreOpen}>
        {isMoreOpen && (
          <>
            <SettingsForm
              value={values.settings}
              onChange={(settings) => onChange({ ...values, settings })}
              errors={errors}
              isDisabled={isStarting}
              isCompact
              requestRenderPermission={requestRenderPermission}
            />
            <div class="form-actions">{startButton}</div>
          </>
        )}
      </div>
      {disabledReason !== null && (
        <p id={`${id}-disabled`} class="hint">
          {disabledReason}
        </p>
      )}
    </form>
  );
}
