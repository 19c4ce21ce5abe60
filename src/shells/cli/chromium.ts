/**
 * Finds a Chromium to drive. We never download one: the machine's own
 * browser is used, or the one `CHROME_PATH` names.
 */
import { existsSync } from 'node:fs';

/** Where Chromium-based browsers usually live, tried in order. */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export type ChromiumNotFoundCode =
  /** `CHROME_PATH` is set but names no file. */
  | 'chrome-path-missing'
  /** `CHROME_PATH` is not set and no candidate exists. */
  | 'not-found';

/** No usable Chromium; the message says what to do. */
export class ChromiumNotFoundError extends Error {
  readonly code: ChromiumNotFoundCode;
  constructor(code: ChromiumNotFoundCode, message: string) {
    super(message);
    this.name = 'ChromiumNotFoundError';
    this.code = code;
  }
}

/**
 * Path of the Chromium to launch: `CHROME_PATH` when set, else the first
 * existing of {@link CHROMIUM_CANDIDATES}.
 * @param env the environment to read `CHROME_PATH` from (usually `process.env`).
 * @param exists whether a path exists; injectable for tests.
 * @throws {ChromiumNotFoundError} when `CHROME_PATH` names nothing, or no candidate exists.
 */
export function findChromium(
  env: Readonly<Record<string, string | undefined>>,
  exists: (path: string) => boolean = existsSync,
): string {
  const fromEnv = env['CHROME_PATH'];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!exists(fromEnv)) {
      throw new ChromiumNotFoundError(
        'chrome-path-missing',
        `CHROME_PATH is set to ${fromEnv}, but there is no file there`,
      );
    }
    return fromEnv;
  }
  const found = CHROMIUM_CANDIDATES.find((path) => exists(path));
  if (found !== undefined) return found;
  throw new ChromiumNotFoundError(
    'not-found',
    'no Chromium found; set CHROME_PATH or install one (Debian/Ubuntu: `apt-get install chromium`)',
  );
}
