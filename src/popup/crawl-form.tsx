/** The Start form: start URL, max pages, delay, and the Start button. */
import type { RefObject } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { FieldErrors, FormValues } from './format.ts';

export interface CrawlFormProps {
  values: FormValues;
  errors: FieldErrors;
  /** Shown under the start URL, e.g. when the tab is not a web site. */
  note: string | null;
  /** A start request is in flight. */
  isStarting: boolean;
  /** Start is not offered, e.g. while the crawl shown still runs. */
  isStartDisabled: boolean;
  /** Why Start is disabled, shown next to it. */
  disabledReason: string | null;
  startUrlRef: RefObject<HTMLInputElement | null>;
  onChange: (values: FormValues) => void;
  onSubmit: () => void;
}

export function CrawlForm(props: CrawlFormProps) {
  const { values, errors, note, isStarting, isStartDisabled, disabledReason, startUrlRef, onChange, onSubmit } = props;
  const id = useId();
  const maxPagesRef = useRef<HTMLInputElement>(null);
  const delayRef = useRef<HTMLInputElement>(null);

  // Take the keyboard to the first field with a problem whenever new problems arrive.
  useEffect(() => {
    const first = errors.startUrl !== undefined ? startUrlRef : errors.maxPages !== undefined ? maxPagesRef : errors.delayMs !== undefined ? delayRef : null;
    first?.current?.focus();
  }, [errors, startUrlRef]);

  const field = (name: keyof FormValues) => (event: Event) => {
    onChange({ ...values, [name]: (event.currentTarget as HTMLInputElement).value });
  };

  const errorId = (name: string) => `${id}-${name}-error`;
  const describedBy = (name: string, error: string | undefined, extra?: string | null) =>
    [error !== undefined ? errorId(name) : null, extra ?? null].filter((part) => part !== null).join(' ') || undefined;
  const noteId = `${id}-note`;

  return (
    <form
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
          onInput={field('startUrl')}
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
      <div class="form-row">
        <div class="field field-number">
          <label for={`${id}-max-pages`}>Max pages</label>
          <input
            id={`${id}-max-pages`}
            ref={maxPagesRef}
            data-testid="max-pages"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={values.maxPages}
            aria-invalid={errors.maxPages !== undefined}
            aria-describedby={describedBy('max-pages', errors.maxPages)}
            onInput={field('maxPages')}
          />
          {errors.maxPages !== undefined && (
            <p id={errorId('max-pages')} class="field-error">
              {errors.maxPages}
            </p>
          )}
        </div>
        <div class="field field-number">
          <label for={`${id}-delay`}>Delay (s)</label>
          <input
            id={`${id}-delay`}
            ref={delayRef}
            data-testid="delay"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={values.delaySeconds}
            aria-invalid={errors.delayMs !== undefined}
            aria-describedby={describedBy('delay', errors.delayMs)}
            onInput={field('delaySeconds')}
          />
          {errors.delayMs !== undefined && (
            <p id={errorId('delay')} class="field-error">
              {errors.delayMs}
            </p>
          )}
        </div>
        <button type="submit" class="primary" data-testid="start" disabled={isStarting || isStartDisabled} aria-describedby={disabledReason !== null ? `${id}-disabled` : undefined}>
          {isStarting ? 'Starting…' : 'Start'}
        </button>
      </div>
      {disabledReason !== null && (
        <p id={`${id}-disabled`} class="hint">
          {disabledReason}
        </p>
      )}
    </form>
  );
}
