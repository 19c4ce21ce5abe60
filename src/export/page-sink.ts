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

/**
 * A query parameter (`?…&sink=wait`) telling the export page that a program will expose the sink
 * after the page has loaded, so it waits for it (up to {@link SINK_WAIT_MS}) before exporting. Firefox
 * needs it: WebDriver BiDi can expose a function on an extension page only once it is loaded (its
 * preload scripts do not reach `moz-extension://` documents); Chromium's driver exposes it before.
 */
export const SINK_WAIT_PARAM = 'sink';
/** How long, in ms, a page told to wait for its sink waits before exporting as a download instead. */
export const SINK_WAIT_MS = 30_000;

/** `path` (an export page address) telling the page to wait for its sink. */
export function withSinkWait(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${SINK_WAIT_PARAM}=wait`;
}

/** Most bytes sent in one chunk event: big enough to keep round trips few, small enough to keep memory flat. */
export const SINK_CHUNK_BYTES = 4 * 1024 * 1024;
