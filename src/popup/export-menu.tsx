/**
 * Export of the crawl shown: a format and the Export button. The export runs
 * in a tab of its own (the export page), since the popup closes as soon as it
 * loses focus.
 */
import { useId, useState } from 'preact/hooks';
import { FORMATS, type ExportFormat } from '../export/format-info.ts';
import { describeError } from './crawl-text.ts';

/** The format picked when the menu appears. */
export const DEFAULT_EXPORT_FORMAT: ExportFormat = 'wacz';

export interface ExportMenuProps {
  crawlId: string;
  /** Rows stored for the crawl so far; Export needs at least one. */
  rowCount: number;
  /** Opens the export page for this crawl and format (see `PopupDeps.openExportTab`). */
  onExport: (crawlId: string, format: ExportFormat) => Promise<void>;
}

/** The format select and the Export button; Export is disabled until the crawl has a row stored. */
export function ExportMenu({ crawlId, rowCount, onExport }: ExportMenuProps) {
  const id = useId();
  const [format, setFormat] = useState<ExportFormat>(DEFAULT_EXPORT_FORMAT);
  const [isOpening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isEmpty = rowCount === 0;

  const onClick = async (): Promise<void> => {
    setOpening(true);
    setError(null);
    try {
      await onExport(crawlId, format);
    } catch (err) {
      setError(`Could not open the export page: ${describeError(err)}`);
    } finally {
      setOpening(false);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div class="export-menu">
      <div class="export-row">
        <label for={`${id}-format`}>Export as</label>
        <select
          id={`${id}-format`}
          data-testid="export-format"
          value={format}
          onChange={(event) => setFormat(event.currentTarget.value as ExportFormat)}
        >
          {FORMATS.map((info) => (
            <option key={info.format} value={info.format}>
              {info.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="export"
          disabled={isEmpty || isOpening}
          aria-describedby={
            [isEmpty ? hintId : null, error !== null ? errorId : null].filter((part) => part !== null).join(' ') ||
            undefined
          }
          onClick={() => void onClick()}
        >
          Export
        </button>
      </div>
      {isEmpty && (
        <p id={hintId} class="hint">
          Nothing to export yet: no URL is stored.
        </p>
      )}
      {error !== null && (
        <p id={errorId} class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
