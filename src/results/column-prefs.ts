/**
 * Which columns the results table shows: the user's choice, kept in the
 * page's storage (the extension page's `localStorage`), or the default set
 * ({@link RESULT_COLUMNS}' `isDefault`). Pure but for the storage handed in.
 */
import { RESULT_COLUMNS, SORT_COLUMNS, type SortColumn } from '../storage/page-queries.ts';

/** A column the table can show (every sort column but `seq`). */
export type ShownColumn = {
  [C in SortColumn]: (typeof RESULT_COLUMNS)[C]['isShown'] extends true ? C : never;
}[SortColumn];

/** Every column the table can show, in table order. */
export const SHOWN_COLUMNS: readonly ShownColumn[] = Object.freeze(
  SORT_COLUMNS.filter((column): column is ShownColumn => RESULT_COLUMNS[column].isShown),
);

/** The columns shown before the user chooses, in table order. */
export const DEFAULT_COLUMNS: readonly ShownColumn[] = Object.freeze(
  SHOWN_COLUMNS.filter((column) => RESULT_COLUMNS[column].isDefault),
);

/** The column always shown (a row is opened by it). */
export const FIXED_COLUMN: ShownColumn = 'url';

/** Where the choice is kept: the part of `Storage` (`localStorage`) used here. */
export interface PrefsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The storage key of the shown columns: a JSON array of column ids. */
export const COLUMNS_PREF_KEY = 'tabcrawl.results.columns';

/** The columns a stored value names, in table order, with the URL; the default set when it names none or cannot be read. */
export function shownColumnsOf(stored: string | null): ShownColumn[] {
  if (stored === null) return [...DEFAULT_COLUMNS];
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [...DEFAULT_COLUMNS];
  }
  if (!Array.isArray(parsed)) return [...DEFAULT_COLUMNS];
  const named = new Set(parsed.filter((value): value is string => typeof value === 'string'));
  return SHOWN_COLUMNS.filter((column) => column === FIXED_COLUMN || named.has(column));
}

/** The shown columns kept in `storage`; the default set without storage or when it cannot be read. */
export function loadShownColumns(storage: PrefsStorage | null): ShownColumn[] {
  if (storage === null) return [...DEFAULT_COLUMNS];
  try {
    return shownColumnsOf(storage.getItem(COLUMNS_PREF_KEY));
  } catch {
    return [...DEFAULT_COLUMNS];
  }
}

/** Keeps the shown columns in `storage` (nothing without storage; a storage that refuses is ignored: the choice lasts until the tab closes). */
export function saveShownColumns(storage: PrefsStorage | null, columns: readonly ShownColumn[]): void {
  if (storage === null) return;
  try {
    storage.setItem(COLUMNS_PREF_KEY, JSON.stringify(columns));
  } catch {
    // Full or refused storage: the choice is still shown.
  }
}

/** `columns` with `column` switched on or off, in table order; the URL stays. */
export function toggledColumns(columns: readonly ShownColumn[], column: ShownColumn): ShownColumn[] {
  if (column === FIXED_COLUMN) return [...columns];
  const isOn = columns.includes(column);
  return SHOWN_COLUMNS.filter((other) => (other === column ? !isOn : columns.includes(other)));
}
