import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHROMIUM_CANDIDATES, ChromiumNotFoundError, findChromium } from '../../src/shells/cli/chromium.ts';

const existing =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('findChromium', () => {
  test('honours CHROME_PATH when it exists, before any usual place', () => {
    assert.equal(
      findChromium({ CHROME_PATH: '/opt/chrome/chrome' }, existing('/opt/chrome/chrome', '/usr/bin/chromium')),
      '/opt/chrome/chrome',
    );
  });

  test('fails with chrome-path-missing when CHROME_PATH names nothing', () => {
    assert.throws(
      () => findChromium({ CHROME_PATH: '/nope/chrome' }, existing('/usr/bin/chromium')),
      (error: unknown) =>
        error instanceof ChromiumNotFoundError &&
        error.code === 'chrome-path-missing' &&
        error.message.includes('/nope/chrome'),
    );
  });

  test('takes the first usual place that exists', () => {
    assert.equal(findChromium({}, existing('/usr/bin/google-chrome', '/snap/bin/chromium')), '/usr/bin/google-chrome');
    assert.equal(findChromium({}, existing(...CHROMIUM_CANDIDATES)), '/usr/bin/chromium');
  });

  test('ignores an empty CHROME_PATH', () => {
    assert.equal(findChromium({ CHROME_PATH: '' }, existing('/usr/bin/chromium')), '/usr/bin/chromium');
  });

  test('finds the macOS apps', () => {
    assert.equal(
      findChromium({}, existing('/Applications/Chromium.app/Contents/MacOS/Chromium')),
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    );
  });

  test('fails with not-found and says how to get one when none exists', () => {
    assert.throws(
      () => findChromium({}, existing()),
      (error: unknown) =>
        error instanceof ChromiumNotFoundError &&
        error.code === 'not-found' &&
        /no Chromium found; set CHROME_PATH or install one/.test(error.message) &&
        error.message.includes('apt-get install chromium'),
    );
  });
});
