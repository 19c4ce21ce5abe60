/**
 * Screenshots the end-to-end tests take of the built extension, for a person
 * to look at: always into `.tmp/screenshots/` (not committed), and, for the
 * ones the README shows, into `docs/images/` as well when the run was asked
 * to refresh them (`npm run screenshots`, which sets
 * `TABCRAWL_README_IMAGES=1`). So the README's pictures are the screens the
 * tests just checked, never copied by hand.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './helpers.ts';

/** Where every screenshot lands. */
export const SHOTS_DIR = resolve(ROOT, '.tmp/screenshots');
/** Where the README's pictures live. */
export const README_IMAGES_DIR = resolve(ROOT, 'docs/images');

/** Whether this run refreshes the README's pictures. */
export const isRefreshingReadmeImages = process.env['TABCRAWL_README_IMAGES'] === '1';

/**
 * Takes a screenshot of `page` as `<name>.png`.
 * @param isReadmeImage the README shows it: refreshed in `docs/images/` when {@link isRefreshingReadmeImages}.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; isReadmeImage?: boolean } = {},
): Promise<string> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const path = resolve(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  if (options.isReadmeImage === true && isRefreshingReadmeImages) {
    mkdirSync(README_IMAGES_DIR, { recursive: true });
    copyFileSync(path, resolve(README_IMAGES_DIR, `${name}.png`));
  }
  return path;
}
