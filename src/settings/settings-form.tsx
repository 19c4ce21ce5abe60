/**
 * Every crawl option but the start URL, as a controlled group of fields:
 * the options page puts it in its form with a Save button, the popup can put
 * it in its Start form. It renders no `<form>` of its own, so it can sit
 * inside one.
 *
 * Each field has a bound label with its unit, help with the allowed range and
 * the built-in default (also the placeholder), and the validator's message
 * under it when {@link SettingsFormProps.errors} has one (the input is then
 * `aria-invalid` and described by it). Styles: `settings-form.css`, which a
 * page's stylesheet imports; the form reads well from 380 px wide.
 *
 * Test ids: each field's input has the `testId` of its {@link FIELDS} entry
 * (`max-pages`, `delay`, …) and its message `<testId>-error`; a choice is a
 * `<select>` (`render`). When rendering is turned on and the browser refuses
 * its permission, the setting goes back to off and `render-permission` says why.
 */
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import {
  defaultText,
  FIELD_GROUPS,
  labelOf,
  rangeText,
  WITH_COOKIES_WARNING,
  type FieldErrors,
  type FieldSpec,
  type FormValues,
} from './settings-values.ts';

export interface SettingsFormProps {
  /** What the fields show. */
  value: FormValues;
  /** Called with the whole new value on every edit. */
  onChange: (value: FormValues) => void;
  /** Messages by setting, e.g. from `checkForm`; shown under their fields. */
  errors: FieldErrors;
  /** Makes every field read-only, e.g. while saving. @default false */
  isDisabled?: boolean;
  /**
   * For a small space (the popup, 600 px high at most): each group folds,
   * one open at a time (the first group with a message opens by itself), and
   * a field's help shows while the field has the focus. @default false
   */
  isCompact?: boolean;
  /**
   * Asks the browser for what rendering needs (Chrome's `debugger` permission), called from the change that
   * turns *Render pages* from off to auto or always, so that the browser sees the user's gesture: it must
   * call the browser before any `await`. Resolves false when the user refuses: the field then goes back to
   * off, with a message. None (tests, or a browser that needs nothing): nothing is asked.
   */
  requestRenderPermission?: () => Promise<boolean>;
}

/** Shown under *Render pages* when the browser refused the permission rendering needs. */
export const RENDER_REFUSED_MESSAGE =
  'Rendering needs your permission for Tabcrawl to debug the pages it renders (Chrome shows a bar while it does). It was not given, so Render pages is back to off.';

/**
 * Shown under *Render pages* when the browser would not even ask (Chrome 156 answers a request for an
 * optional `debugger` with "Only permissions specified in the manifest may be requested."), with its words.
 */
export function renderNotAskedMessage(reason: string): string {
  return `The browser would not ask for the permission rendering needs (${reason}), so Render pages is back to off.`;
}

/** The crawl options' fields, grouped in fieldsets (Limits, Politeness, Scope, Requests (cookies included), Rendering, Archive, Audit). */
export function SettingsForm({
  value,
  onChange,
  errors,
  isDisabled = false,
  isCompact = false,
  requestRenderPermission,
}: SettingsFormProps) {
  const id = useId();
  const [renderNote, setRenderNote] = useState<string | null>(null);
  // The answer comes after the user may have edited more: it changes the values as they are then.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };
  const edit = (next: FormValues) => {
    const isTurningOn = next.render !== 'off' && value.render === 'off';
    if (next.render !== value.render) setRenderNote(null);
    onChange(next);
    latest.current = { value: next, onChange };
    if (!isTurningOn || requestRenderPermission === undefined) return;
    const refused = (why: string) => {
      latest.current.onChange({ ...latest.current.value, render: 'off' });
      setRenderNote(why);
    };
    requestRenderPermission().then(
      (isGranted) => {
        if (!isGranted) refused(RENDER_REFUSED_MESSAGE);
      },
      (error: unknown) => refused(renderNotAskedMessage(error instanceof Error ? error.message : String(error))),
    );
  };
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  // A message in a folded group opens it, so the field the user must fix can be seen and focused.
  const errorGroup =
    FIELD_GROUPS.find((group) => group.fields.some((field) => errors[field.setting] !== undefined))?.title ?? null;
  useLayoutEffect(() => {
    if (errorGroup !== null) setOpenGroup(errorGroup);
  }, [errorGroup]);
  const fieldset = (group: (typeof FIELD_GROUPS)[number]) => (
    <fieldset key={group.title} class="settings-group" disabled={isDisabled}>
      {!isCompact && <legend>{group.title}</legend>}
      <div class="settings-grid">
        {group.fields.map((field) => (
          <SettingField
            key={field.name}
            idPrefix={id}
            field={field}
            value={value}
            onChange={edit}
            error={errors[field.setting]}
            note={field.name === 'render' ? renderNote : null}
          />
        ))}
      </div>
    </fieldset>
  );
  if (!isCompact) {
    return (
      <div class="settings-form" data-testid="settings-form">
        {FIELD_GROUPS.map(fieldset)}
      </div>
    );
  }
  return (
    <div class="settings-form is-compact" data-testid="settings-form">
      {FIELD_GROUPS.map((group) => (
        <details
          key={group.title}
          class="settings-fold"
          data-testid={`settings-group-${group.title.toLowerCase()}`}
          open={openGroup === group.title}
          onToggle={(event) => {
            const isOpen = (event.currentTarget as HTMLDetailsElement).open;
            setOpenGroup((current) => (isOpen ? group.title : current === group.title ? null : current));
          }}
        >
          <summary>{group.title}</summary>
          {fieldset(group)}
        </details>
      ))}
    </div>
  );
}

interface SettingFieldProps {
  idPrefix: string;
  field: FieldSpec;
  value: FormValues;
  onChange: (value: FormValues) => void;
  error: string | undefined;
  /** A sentence shown under the field, as an alert (the refused permission's). */
  note: string | null;
}

/** One field: label, input, help and, when there is one, the validator's message. */
function SettingField({ idPrefix, field, value, onChange, error, note }: SettingFieldProps) {
  const inputId = `${idPrefix}-${field.testId}`;
  const helpId = `${inputId}-help`;
  const errorId = `${inputId}-error`;
  const describedBy = error === undefined ? helpId : `${errorId} ${helpId}`;
  const range = rangeText(field);
  const help = `${field.help}${range === null ? '' : ` ${range}.`} Default: ${defaultText(field)}.`;
  const message =
    error === undefined ? null : (
      <p id={errorId} class="settings-error" data-testid={`${field.testId}-error`}>
        {error}
      </p>
    );
  const helpText = (
    <p id={helpId} class="settings-help">
      {help}
    </p>
  );

  if (field.kind === 'flag') {
    return (
      <div class={field.narrow === true ? 'settings-field settings-flag is-narrow' : 'settings-field settings-flag'}>
        <input
          id={inputId}
          type="checkbox"
          data-testid={field.testId}
          checked={value[field.name]}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange({ ...value, [field.name]: event.currentTarget.checked })}
        />
        <label for={inputId}>{labelOf(field)}</label>
        {helpText}
        {message}
        {field.name === 'withCookies' && value.withCookies && (
          <p class="settings-warning" role="alert" data-testid="with-cookies-warning">
            {WITH_COOKIES_WARNING}
          </p>
        )}
      </div>
    );
  }

  if (field.kind === 'lines') {
    return (
      <div class="settings-field settings-wide">
        <label for={inputId}>{labelOf(field)}</label>
        <textarea
          id={inputId}
          data-testid={field.testId}
          rows={2}
          spellcheck={false}
          autoComplete="off"
          placeholder={field.placeholder}
          value={value[field.name]}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onInput={(event) => onChange({ ...value, [field.name]: event.currentTarget.value })}
        />
        {message}
        {helpText}
      </div>
    );
  }

  if (field.kind === 'choice') {
    return (
      <div class="settings-field settings-cell">
        <label for={inputId}>{labelOf(field)}</label>
        <div class="settings-control">
          <select
            id={inputId}
            data-testid={field.testId}
            value={value[field.name]}
            aria-invalid={error !== undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange({ ...value, [field.name]: event.currentTarget.value })}
          >
            {field.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          {message}
          {note !== null && (
            <p class="settings-warning" role="alert" data-testid={`${field.testId}-permission`}>
              {note}
            </p>
          )}
          {helpText}
        </div>
      </div>
    );
  }

  const isNumber = field.kind === 'number';
  // The label on the grid's row of labels, the rest on the row under it, so the inputs of a row line up
  // even when one label wraps (`settings-form.css`, `.settings-cell`).
  return (
    <div class="settings-field settings-cell">
      <label for={inputId}>{labelOf(field)}</label>
      <div class="settings-control">
        <input
          id={inputId}
          data-testid={field.testId}
          type="text"
          inputMode={isNumber ? (field.scale === 1 ? 'numeric' : 'decimal') : 'text'}
          autoComplete="off"
          spellcheck={false}
          placeholder={isNumber || defaultText(field) !== 'none' ? defaultText(field) : '/docs/'}
          value={value[field.name]}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onInput={(event) => onChange({ ...value, [field.name]: event.currentTarget.value })}
        />
        {message}
        {helpText}
      </div>
    </div>
  );
}
