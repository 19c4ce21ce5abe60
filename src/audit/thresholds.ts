/**
 * The thresholds of the Issues checks, with their defaults. Documented in
 * docs/audit.md; the registry (`checks.ts`) words them for the view.
 */
export interface AuditThresholds {
  /** A title longer than this, in characters (code points), is `title-too-long`. @default 60 */
  titleMaxChars: number;
  /** A non-empty title shorter than this, in characters, is `title-too-short`. @default 30 */
  titleMinChars: number;
  /** An answer slower than this, in ms (request start to the end of the body as read), is `slow-response`. @default 1000 */
  slowResponseMs: number;
  /** An HTML page larger than this, in bytes (`Content-Length`, else the bytes read), is `large-page`. @default 1048576 (1 MiB) */
  largePageBytes: number;
  /** An HTML page more than this many clicks (link hops) from the start URL is `deep-page`. @default 3 */
  deepPageClicks: number;
  /** A redirect chain of this many hops or more is `redirect-chain`. @default 2 */
  redirectChainHops: number;
}

export const DEFAULT_THRESHOLDS: Readonly<AuditThresholds> = Object.freeze({
  titleMaxChars: 60,
  titleMinChars: 30,
  slowResponseMs: 1000,
  largePageBytes: 1024 * 1024,
  deepPageClicks: 3,
  redirectChainHops: 2,
});
