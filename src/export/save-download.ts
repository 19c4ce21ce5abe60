/**
 * Saves a Blob through the browser's downloads: an object URL for the Blob,
 * `downloads.download`, then waiting for that download to end, so the page
 * says "Saved" only once the file is on disk and revokes the URL only once
 * the browser has read it.
 *
 * The downloads API comes in as a parameter ({@link DownloadsApi}, which
 * `browser.downloads` satisfies), so tests pass a fake.
 */
import { errorMessage, ExportError } from './export-errors.ts';

/** The part of a `downloads.onChanged` event this module reads. */
export interface DownloadDelta {
  id: number;
  state?: { current?: string };
  error?: { current?: string };
}

/** The part of `browser.downloads` this module uses. */
export interface DownloadsApi {
  download(options: { url: string; filename: string; saveAs: boolean; conflictAction: 'uniquify' }): Promise<number>;
  onChanged: {
    addListener(listener: (delta: DownloadDelta) => void): void;
    removeListener(listener: (delta: DownloadDelta) => void): void;
  };
}

/** Object URLs for Blobs; {@link BROWSER_OBJECT_URLS} in the page. */
export interface ObjectUrls {
  create(blob: Blob): string;
  revoke(url: string): void;
}

/** `URL.createObjectURL` and `URL.revokeObjectURL`. */
export const BROWSER_OBJECT_URLS: ObjectUrls = Object.freeze({
  create: (blob: Blob) => URL.createObjectURL(blob),
  revoke: (url: string) => URL.revokeObjectURL(url),
});

type Outcome = { ok: true } | { ok: false; reason: string };

/** The end of a download an `onChanged` event reports, or null when it reports something else. */
function outcomeOf(delta: DownloadDelta): Outcome | null {
  if (delta.state?.current === 'complete') return { ok: true };
  if (delta.state?.current === 'interrupted') return { ok: false, reason: delta.error?.current ?? 'unknown reason' };
  return null;
}

function interruptedError(reason: string): ExportError {
  const message =
    reason === 'USER_CANCELED' ? 'The download was cancelled.' : `The download was interrupted (${reason}).`;
  return new ExportError('download', message);
}

/**
 * Downloads `blob` as `fileName` (no Save As dialog; a number is added when
 * the name is taken) and resolves with the download's id once it is complete.
 *
 * @throws {ExportError} `download` when the browser refuses the download or it is interrupted or cancelled.
 */
export async function saveDownload(
  downloads: DownloadsApi,
  blob: Blob,
  fileName: string,
  urls: ObjectUrls = BROWSER_OBJECT_URLS,
): Promise<number> {
  const url = urls.create(blob);
  // Listening before asking: a small download can end before `download()` resolves.
  const ended = new Map<number, Outcome>();
  let waiter: { id: number; settle: (outcome: Outcome) => void } | null = null;
  const listener = (delta: DownloadDelta): void => {
    const outcome = outcomeOf(delta);
    if (outcome === null) return;
    if (waiter !== null && waiter.id === delta.id) waiter.settle(outcome);
    else ended.set(delta.id, outcome);
  };
  downloads.onChanged.addListener(listener);
  try {
    const downloadId = await downloads
      .download({ url, filename: fileName, saveAs: false, conflictAction: 'uniquify' })
      .catch((error: unknown) => {
        throw new ExportError('download', `The browser refused the download: ${errorMessage(error)}`, { cause: error });
      });
    const outcome =
      ended.get(downloadId) ?? (await new Promise<Outcome>((settle) => (waiter = { id: downloadId, settle })));
    if (!outcome.ok) throw interruptedError(outcome.reason);
    return downloadId;
  } finally {
    downloads.onChanged.removeListener(listener);
    urls.revoke(url);
  }
}
