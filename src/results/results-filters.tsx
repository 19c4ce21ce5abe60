/**
 * The filters above the table: *Errors* (the rows the popup counts as
 * errors: 4xx, 5xx and failed), status classes as toggle buttons (with the
 * crawl's counts), kind (pages, page resources, linked files, sitemaps),
 * media type, depth, indexability (indexable, or one reason a page is not),
 * and a search box over URL and title.
 * Controlled: the owner keeps the values (and debounces the search).
 */
import type { ComponentChildren } from 'preact';
import type { RowKind } from '../core/model.ts';
import {
  INDEXABILITY_VALUES,
  type IndexabilityValue,
  type PageFacets,
  type StatusClass,
} from '../storage/page-queries.ts';
import { KINDS, STATUS_CLASSES } from './format.ts';
import { REASON_TEXT } from './page-facts-detail.tsx';

/** What the filters hold; `kind` / `mediaType` / `depth` / `indexability` null mean "all". */
export interface FilterValues {
  statusClasses: StatusClass[];
  kind: RowKind | null;
  mediaType: string | null;
  depth: number | null;
  indexability: IndexabilityValue | null;
  /** As typed (the query gets it after the debounce). */
  search: string;
}

export const NO_FILTERS: FilterValues = Object.freeze({
  statusClasses: [],
  kind: null,
  mediaType: null,
  depth: null,
  indexability: null,
  search: '',
}) as FilterValues;

/** An indexability value in words, as the filter lists it. */
export function indexabilityLabel(value: IndexabilityValue): string {
  return value === 'indexable' ? 'Indexable' : `Not indexable: ${REASON_TEXT[value]}`;
}

/**
 * The status classes of an error as the crawl counts it (`counts.errors`: an HTTP status of 400 or
 * more, or a network failure), so the *Errors* filter lists exactly the popup's Errors count.
 */
export const ERROR_CLASSES: readonly StatusClass[] = Object.freeze(['4xx', '5xx', 'failed']);

/** Whether the filters hold any condition (the search as typed included). */
export function hasFilters(values: FilterValues): boolean {
  return (
    values.statusClasses.length > 0 ||
    values.kind !== null ||
    values.mediaType !== null ||
    values.depth !== null ||
    values.indexability !== null ||
    values.search.trim() !== ''
  );
}

export interface ResultsFiltersProps {
  values: FilterValues;
  /** Null while loading. */
  facets: PageFacets | null;
  onChange: (values: FilterValues) => void;
  searchRef?: { current: HTMLInputElement | null };
  /** Shown at the end of the bar (the column chooser). */
  children?: ComponentChildren;
}

const ALL = 'all';
const TYPE_PREFIX = 'type:';
const KIND_PREFIX = 'kind:';
const INDEXABILITY_PREFIX = 'indexability:';

/** The filter bar; every change is reported whole through `onChange`. */
export function ResultsFilters({ values, facets, onChange, searchRef, children }: ResultsFiltersProps) {
  const toggle = (statusClass: StatusClass): void => {
    const isOn = values.statusClasses.includes(statusClass);
    const statusClasses = isOn
      ? values.statusClasses.filter((other) => other !== statusClass)
      : STATUS_CLASSES.map((entry) => entry.statusClass).filter(
          (other) => other === statusClass || values.statusClasses.includes(other),
        );
    onChange({ ...values, statusClasses });
  };

  const isErrors =
    values.statusClasses.length === ERROR_CLASSES.length &&
    ERROR_CLASSES.every((c) => values.statusClasses.includes(c));
  const errorCount =
    facets === null ? undefined : ERROR_CLASSES.reduce((sum, c) => sum + (facets.statusClasses[c] ?? 0), 0);

  return (
    <div class="filters" role="search" aria-label="Filter URLs">
      <div class="status-filters" role="group" aria-label="Status">
        <button
          type="button"
          class="toggle status-errors"
          aria-pressed={isErrors}
          data-testid="filter-errors"
          title="4xx, 5xx and failed: what the popup counts as errors"
          onClick={() => onChange({ ...values, statusClasses: isErrors ? [] : [...ERROR_CLASSES] })}
        >
          Errors
          {errorCount !== undefined && <span class="toggle-count">{errorCount.toLocaleString('en-US')}</span>}
        </button>
        {STATUS_CLASSES.map(({ statusClass, label }) => {
          const count = facets?.statusClasses[statusClass];
          return (
            <button
              key={statusClass}
              type="button"
              class={`toggle status-${statusClass}`}
              aria-pressed={values.statusClasses.includes(statusClass)}
              data-testid={`filter-${statusClass}`}
              onClick={() => toggle(statusClass)}
            >
              {label}
              {count !== undefined && <span class="toggle-count">{count.toLocaleString('en-US')}</span>}
            </button>
          );
        })}
      </div>
      <label class="select-field">
        <span>Kind</span>
        <select
          data-testid="filter-kind"
          value={values.kind === null ? ALL : `${KIND_PREFIX}${values.kind}`}
          onChange={(event) => {
            const value = event.currentTarget.value;
            const kind = KINDS.find((entry) => `${KIND_PREFIX}${entry.kind}` === value)?.kind ?? null;
            onChange({ ...values, kind });
          }}
        >
          <option value={ALL}>All kinds</option>
          {/* The kinds the crawl has (and the one chosen, even when none is left). */}
          {KINDS.filter(({ kind }) => (facets?.kinds[kind] ?? 0) > 0 || kind === values.kind).map(
            ({ kind, label, title }) => (
              <option key={kind} value={`${KIND_PREFIX}${kind}`} title={title}>
                {label}
                {facets === null ? '' : ` (${facets.kinds[kind].toLocaleString('en-US')})`}
              </option>
            ),
          )}
        </select>
      </label>
      <label class="select-field">
        <span>Type</span>
        <select
          data-testid="filter-media-type"
          value={values.mediaType === null ? ALL : `${TYPE_PREFIX}${values.mediaType}`}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onChange({ ...values, mediaType: value.startsWith(TYPE_PREFIX) ? value.slice(TYPE_PREFIX.length) : null });
          }}
        >
          <option value={ALL}>All types</option>
          {(facets?.mediaTypes ?? []).map(({ mediaType, count }) => (
            <option key={mediaType} value={`${TYPE_PREFIX}${mediaType}`}>
              {mediaType === '' ? '(none)' : mediaType} ({count.toLocaleString('en-US')})
            </option>
          ))}
        </select>
      </label>
      <label class="select-field">
        <span>Depth</span>
        <select
          data-testid="filter-depth"
          value={values.depth === null ? ALL : String(values.depth)}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onChange({ ...values, depth: value === ALL ? null : Number(value) });
          }}
        >
          <option value={ALL}>All depths</option>
          {(facets?.depths ?? []).map((depth) => (
            <option key={depth} value={String(depth)}>
              {depth}
            </option>
          ))}
        </select>
      </label>
      <label class="select-field">
        <span>Indexability</span>
        <select
          data-testid="filter-indexability"
          title="Pages and linked files a search engine may index, or why not"
          value={values.indexability === null ? ALL : `${INDEXABILITY_PREFIX}${values.indexability}`}
          onChange={(event) => {
            const value = event.currentTarget.value;
            const indexability =
              INDEXABILITY_VALUES.find((entry) => `${INDEXABILITY_PREFIX}${entry}` === value) ?? null;
            onChange({ ...values, indexability });
          }}
        >
          <option value={ALL}>All</option>
          {/* The values the crawl has (and the one chosen, even when none is left). */}
          {INDEXABILITY_VALUES.filter(
            (value) => (facets?.indexability[value] ?? 0) > 0 || value === values.indexability,
          ).map((value) => (
            <option key={value} value={`${INDEXABILITY_PREFIX}${value}`}>
              {indexabilityLabel(value)}
              {facets === null ? '' : ` (${facets.indexability[value].toLocaleString('en-US')})`}
            </option>
          ))}
        </select>
      </label>
      <label class="search-field">
        <span>Search</span>
        <input
          ref={searchRef}
          type="search"
          placeholder="URL or title  ( / )"
          data-testid="results-search"
          value={values.search}
          onInput={(event) => onChange({ ...values, search: event.currentTarget.value })}
        />
      </label>
      {children}
    </div>
  );
}
