/**
 * Finds a Firefox to drive. As for Chromium, we never download one: the
 * machine's own Firefox is used (Debian's `firefox-esr`), or the one
 * `FIREFOX_PATH` names.
 */
import { existsSync } from 'node:fs';

/** Where Firefox usually lives, tried in order. */
export const FIREFOX_CANDIDATES: readonly string[] = [
  '/usr/bin/firefox-esr',
  '/usr/bin/firefox',
  '/usr/lib/firefox-esr/firefox-esr',
  '/usr/lib/firefox/firefox',
  '/snap/bin/firefox',
  '/Applications/Firefox.app/Contents/MacOS/firefox',
];

/** No usable Firefox; the message says what to do. */
export class FirefoxNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FirefoxNotFoundError';
  }
}

/**
 * Path of the Firefox to launch: `FIREFOX_PATH` when set, else the first existing of {@link FIREFOX_CANDIDATES}.
 * @throws {FirefoxNotFoundError} when `FIREFOX_PATH` names nothing, or no candidate exists.
 */
export function findFirefox(
  env: Readonly<Record<string, string | undefined>>,
  exists: (path: string) => boolean = existsSync,
): string {
  const fromEnv = env['FIREFOX_PATH'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!exists(fromEnv))
      throw new FirefoxNotFoundError(`FIREFOX_PATH is set to ${fromEnv}, but there is no file there`);
    return fromEnv;
  }
  const found = FIREFOX_CANDIDATES.find((path) => exists(path));
  if (found !== undefined) return found;
  throw new FirefoxNotFoundError(
    'no Firefox found; set FIREFOX_PATH or install one (Debian/Ubuntu: `apt-get install firefox-esr`)',
  );
}
