/**
 * The filters above the table: status classes as toggle buttons (with the
 * crawl's counts), media type, depth, and a search box over URL and title.
 * Controlled: the owner keeps the values (and debounces the search).
 */
import type { PageFacets, StatusClass } from '../storage/page-queries.ts';
import { STATUS_CLASSES } from './format.ts';

/** What the filters hold; `mediaType` / `depth` null mean "all". */
export interface FilterValues {
  statusClasses: StatusClass[];
  mediaType: string | null;
  depth: number | null;
  /** As typed (the query gets it after the debounce). */
  search: string;
}

export const NO_FILTERS: FilterValues = Object.freeze({ statusClasses: [], mediaType: null, depth: null, search: '' }) as FilterValues;

export interface ResultsFiltersProps {
  values: FilterValues;
  /** Null while loading. */
  facets: PageFacets | null;
  onChange: (values: FilterValues) => void;
  searchRef?: { current: HTMLInputElement | null };
}

const ALL = 'all';
const TYPE_PREFIX = 'type:';

/** The filter bar; every change is reported whole through `onChange`. */
export function ResultsFilters({ values, facets, onChange, searchRef }: ResultsFiltersProps) {
  const toggle = (statusClass: StatusClass): void => {
    const isOn = values.statusClasses.includes(statusClass);
    const statusClasses = isOn
      ? values.statusClasses.filter((other) => other !== statusClass)
      : STATUS_CLASSES.map((entry) => entry.statusClass).filter((other) => other === statusClass || values.statusClasses.includes(other));
    onChange({ ...values, statusClasses });
  };

  return (
    <div class="filters" role="search" aria-label="Filter URLs">
      <div class="status-filters" role="group" aria-label="Status">
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
    </div>
  );
}
