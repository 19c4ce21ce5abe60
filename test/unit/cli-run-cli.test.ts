import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoOutputPath, EXIT, runCli } from '../../src/shells/cli/run-cli.ts';
import { prefixed } from '../../src/shells/cli/message-lines.ts';
import { fakeCliIo } from '../support/cli-io.ts';

const io = (env: Record<string, string> = {}) => fakeCliIo(env);

describe('runCli', () => {
  test('a usage error prints the message and a hint on stderr and exits 2', async () => {
    const streams = io();
    assert.equal(await runCli(['--fast'], streams), EXIT.usage);
    assert.equal(EXIT.usage, 2);
    assert.deepEqual(streams.err, ["tabcrawl: unknown option '--fast'\n", 'run with --help for the options\n']);
    assert.deepEqual(streams.out, []);
  });

  test('bad input exits 2 with its one-line reason before anything is built or launched', async () => {
    for (const [argv, reason] of [
      [['chrome://extensions/'], 'only http and https sites can be crawled, not chrome: URLs'],
      [
        ['https://chromewebstore.google.com/'],
        'Chrome does not let extensions read the Chrome Web Store, so it cannot be crawled',
      ],
      [
        ['https://example.com/', '--exclude', '*example.com/*'],
        '--exclude: the exclude pattern "*example.com/*" matches the start URL itself',
      ],
      [['https://example.com/', '--delay', '7200'], '--delay: delay must be from 0 s to 3600 s, not 7200 s'],
    ] as const) {
      // CHROME_PATH points nowhere and the root has no sources: reaching either would be another error.
      const streams = io({ CHROME_PATH: '/nonexistent/chrome' });
      assert.equal(await runCli([...argv], streams), EXIT.usage, argv.join(' '));
      assert.equal(streams.err[0], `tabcrawl: ${reason}\n`);
    }
  });

  test('prefixes every line of a message of several lines once', () => {
    assert.equal(
      prefixed('could not write out.csv: first\nsecond\n'),
      'tabcrawl: could not write out.csv: first\ntabcrawl: second\n',
    );
    assert.equal(prefixed('one line'), 'tabcrawl: one line\n');
  });

  test('--help prints the usage on stdout and exits 0', async () => {
    const streams = io();
    assert.equal(await runCli(['--help'], streams), 0);
    assert.match(streams.out.join(''), /^Usage:/);
  });

  test('a missing Chromium is reported and exits 1 before anything is built', async () => {
    const streams = io({ CHROME_PATH: '/nonexistent/chrome' });
    assert.equal(await runCli(['https://example.com/'], streams), EXIT.failed);
    assert.match(streams.err.join(''), /^tabcrawl: CHROME_PATH is set to \/nonexistent\/chrome/);
  });
});

describe('demoOutputPath', () => {
  test('names the file after the local date and time', () => {
    assert.equal(demoOutputPath('out', new Date(2024, 4, 1, 9, 5, 7)), 'out/demo-2024-05-01-090507.jsonl');
  });
});
