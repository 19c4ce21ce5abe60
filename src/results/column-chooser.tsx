/**
 * *Columns*: which columns the results table shows, one checkbox each, in
 * table order (URL always). Controlled: the owner keeps and stores the choice.
 */
import { RESULT_COLUMNS } from '../storage/page-queries.ts';
import { FIXED_COLUMN, SHOWN_COLUMNS, toggledColumns, type ShownColumn } from './column-prefs.ts';

export interface ColumnChooserProps {
  columns: readonly ShownColumn[];
  onChange: (columns: ShownColumn[]) => void;
}

export function ColumnChooser({ columns, onChange }: ColumnChooserProps) {
  return (
    <details class="column-chooser" data-testid="column-chooser">
      <summary data-testid="column-chooser-open">Columns</summary>
      <fieldset class="column-chooser-list" aria-label="Columns shown">
        {SHOWN_COLUMNS.map((column) => (
          <label key={column} class="column-choice">
            <input
              type="checkbox"
              data-testid={`column-${column}`}
              checked={columns.includes(column)}
              disabled={column === FIXED_COLUMN}
              onChange={() => onChange(toggledColumns(columns, column))}
            />
            {RESULT_COLUMNS[column].label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
