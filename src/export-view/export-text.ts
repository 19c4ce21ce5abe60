/** How the export page words its progress, result and title. Pure functions, no Preact. */
import type { ExportProgress, ExportResult } from '../export/export-crawl.ts';
export type { ExportProgress, ExportResult } from '../export/export-crawl.ts';
export { credentialsNote } from '../ui/credentials-text.ts';

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** `1234` → `1,234`. */
export function countText(count: number): string {
  return COUNT_FORMAT.format(count);
}

/** `1 URL`, `1,234 URLs`. */
export function urlsText(count: number): string {
  return `${countText(count)} ${count === 1 ? 'URL' : 'URLs'}`;
}

/** The status line while working, e.g. `Exporting example.com as WACZ: 1,234 of 10,000 URLs`. */
export function progressText(progress: ExportProgress | null): string {
  if (progress === null) return 'Reading the crawl…';
  const { site, formatName, rowsDone, rowsTotal } = progress;
  if (progress.phase === 'saving') return `Saving ${progress.fileName} (${urlsText(rowsTotal)})…`;
  return `Exporting ${site} as ${formatName}: ${countText(Math.min(rowsDone, rowsTotal))} of ${urlsText(rowsTotal)}`;
}

/** The note shown when the crawl was still running at the start of the export. */
export function runningCrawlNote(rowsTotal: number): string {
  return `This crawl is still running: the file holds the ${urlsText(rowsTotal)} stored when the export started. Export again later for the rest.`;
}

/** `Saved example.com-2026-11-21.wacz`. */
export function savedText(result: ExportResult): string {
  return `Saved ${result.fileName}`;
}

/**
 * How to open the saved file, where it takes more than a double click: a
 * WACZ or WARC opens in a replay tool. Says what replay will show: pages as
 * their visitors saw them when the crawl archived page resources, else
 * their HTML alone (unstyled). Null for CSV and JSON Lines.
 */
export function openingHint(result: Pick<ExportResult, 'fileName' | 'archivedResources'>): string | null {
  const name = result.fileName.toLowerCase();
  const isWacz = name.endsWith('.wacz');
  if (!isWacz && !name.endsWith('.warc') && !name.endsWith('.warc.gz')) return null;
  const tool = isWacz
    ? 'ReplayWeb.page (replayweb.page, or its desktop app)'
    : 'ReplayWeb.page or any WARC reader (warcio, pywb)';
  const holds = result.archivedResources
    ? 'It holds each page with its stylesheets, scripts, images and fonts, and the files it links to; what scripts request only when they run is not in it.'
    : "It holds each page's HTML as fetched, without its stylesheets, scripts and images (the crawl did not archive page resources), so pages show unstyled.";
  return `To browse it, open it in ${tool}. ${holds}`;
}

/** The tab's title in each state, e.g. `Tabcrawl export: working, 12%`. */
export function pageTitle(state: 'working' | 'done' | 'failed', progress: ExportProgress | null): string {
  if (state !== 'working' || progress === null || progress.rowsTotal === 0) return `Tabcrawl export: ${state}`;
  const percent = Math.floor((100 * Math.min(progress.rowsDone, progress.rowsTotal)) / progress.rowsTotal);
  return `Tabcrawl export: ${state}, ${percent}%`;
}
