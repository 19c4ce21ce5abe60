/**
 * The contract between the export page and a program driving it (the
 * command line): when the page finds `globalThis.tabcrawlSink`, it hands the
 * export to it instead of downloading a file. Chunks travel as base64 text,
 * since the bridge (Playwright's exposed functions) carries JSON only.
 */

export type SinkEvent =
  | { kind: 'progress'; rows: number; totalRows: number }
  | { kind: 'chunk'; base64: string }
  | { kind: 'done'; fileName: string; bytes: number }
  | { kind: 'failed'; message: string };

/** The name of the function the driver exposes on the page. */
export const SINK_NAME = 'tabcrawlSink';

/** Most bytes sent in one chunk event: big enough to keep round trips few, small enough to keep memory flat. */
export const SINK_CHUNK_BYTES = 1024 * 1024;
