/** Why an export failed, as a code for tests and a sentence for the user. */

/**
 * - `bad-url`: the page's URL names no crawl.
 * - `unknown-format`: the URL names a format Tabcrawl does not write.
 * - `not-found`: no crawl with that id is stored (deleted, or another profile).
 * - `storage`: reading IndexedDB failed.
 * - `export`: the format's writer failed.
 * - `download`: the browser refused or interrupted the download.
 */
export type ExportErrorCode = 'bad-url' | 'unknown-format' | 'not-found' | 'storage' | 'export' | 'download';

/** A failure of the export page; `message` is written for the user. */
export class ExportError extends Error {
  readonly code: ExportErrorCode;

  constructor(code: ExportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExportError';
    this.code = code;
  }
}

/** The message of anything thrown, for the user. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
