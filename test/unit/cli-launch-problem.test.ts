import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromiumLaunchProblem } from '../../src/shells/cli/launch-problem.ts';

/** Playwright's launch error for a Chromium that could not load a library, as it reads (shortened command lines). */
const MISSING_LIBRARY = [
  'browserType.launchPersistentContext: Target page, context or browser has been closed',
  'Browser logs:',
  '',
  '<launching> /opt/chromium --disable-field-trial-config --headless=new about:blank',
  '<launched> pid=24734',
  '[pid=24734][err] chromium: error while loading shared libraries: libnss3.so: cannot open shared object file',
  'Call log:',
  '\x1b[2m  - <launching> /opt/chromium --disable-field-trial-config --headless=new about:blank\x1b[22m',
  '\x1b[2m  - [pid=24734][err] chromium: error while loading shared libraries: libnss3.so: cannot open shared object file\x1b[22m',
  '\x1b[2m  - [pid=24734] <process did exit: exitCode=127, signal=null>\x1b[22m',
  '\x1b[2m  - [pid=24734] <gracefully close end>\x1b[22m',
  '',
].join('\n');

describe('chromiumLaunchProblem', () => {
  test('says on one line which Chromium did not start, how it exited and what it wrote', () => {
    assert.equal(
      chromiumLaunchProblem(MISSING_LIBRARY, '/opt/chromium'),
      'Chromium (/opt/chromium) did not start (exit code 127): chromium: error while loading shared libraries: libnss3.so: cannot open shared object file; set CHROME_PATH to a Chromium that runs',
    );
  });

  test('says when Chromium wrote nothing', () => {
    const silent = MISSING_LIBRARY.split('\n')
      .filter((line) => !line.includes('[err]'))
      .join('\n')
      .replace('exitCode=127', 'exitCode=1');
    assert.equal(
      chromiumLaunchProblem(silent, '/bin/false'),
      'Chromium (/bin/false) did not start (exit code 1): it wrote nothing; set CHROME_PATH to a Chromium that runs',
    );
  });

  test('keeps the first line of any other error', () => {
    assert.equal(
      chromiumLaunchProblem("the extension's service worker did not start within 15000 ms\nmore", '/usr/bin/chromium'),
      "the extension's service worker did not start within 15000 ms",
    );
  });
});
