/**
 * `--browsertrix-config FILE.yaml` at the end of a crawl: the crawl's settings, as the extension
 * stored them, written as a Browsertrix Crawler config beside the other outputs (a fake extension).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { emptyCounts } from '../../src/core/model.ts';
import { validateSettings } from '../../src/core/settings.ts';
import type { CrawlSummary, ReplyOf, RequestOf, RequestType } from '../../src/messaging/protocol.ts';
import { crawlAndExport, EXIT, extensionVersion, type CrawlPort } from '../../src/shells/cli/run-cli.ts';
import { configProblems } from '../support/browsertrix-options.ts';

const ROOT = join(import.meta.dirname, '../..');

/** A crawl that is over at once, with the settings the extension stored (the session guard and defaults filled in). */
function finished(): CrawlSummary {
  const checked = validateSettings({
    startUrl: 'http://127.0.0.1:8090/',
    delayMs: 1500,
    excludePatterns: ['*/private/*'],
  });
  assert.ok(checked.ok);
  return {
    id: 'c1',
    startUrl: 'http://127.0.0.1:8090/',
    state: 'finished',
    createdAt: Date.UTC(2026, 10, 21),
    endedAt: Date.UTC(2026, 10, 21, 0, 1),
    counts: { ...emptyCounts(), done: 3, fetched: 3 },
    queued: 0,
    message: null,
    settings: checked.settings,
  };
}

function fakePort(): CrawlPort {
  const request = (<K extends RequestType>(type: K, _payload: RequestOf<K>): Promise<ReplyOf<K>> => {
    const reply = (value: unknown): Promise<ReplyOf<K>> => Promise.resolve(value as ReplyOf<K>);
    if (type === 'crawl/start' || type === 'crawl/get') return reply({ crawl: finished() });
    if (type === 'crawl/issues') return reply({ bySeverity: { error: 0, warning: 0, notice: 0 }, checks: [] });
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as CrawlPort['request'];
  return { request, exportTo: () => Promise.resolve({ rows: 3, bytes: 30 }) };
}

async function run(cwd: string, configPath: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await crawlAndExport(
    fakePort(),
    { startUrl: 'http://127.0.0.1:8090/' },
    [],
    { stderr: (text) => lines.push(text), isStderrTTY: false, cwd, signal: new AbortController().signal },
    (line) => lines.push(line),
    Date.now(),
    { browsertrixConfig: configPath, version: '0.1.0' },
  );
  return { code, lines };
}

describe('--browsertrix-config', () => {
  test("writes the config from the crawl's stored settings at the end, and says where", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-handoff-'));
    try {
      const { code, lines } = await run(dir, 'crawl-config.yaml');
      assert.equal(code, EXIT.ok, lines.join('\n'));
      const path = join(dir, 'crawl-config.yaml');
      assert.ok(lines.includes(`wrote the Browsertrix Crawler config to ${path}`), lines.join('\n'));
      assert.ok(!lines.some((line) => line.includes('no --out given')), 'a config is something written');
      const config = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      assert.deepEqual(configProblems(config), []);
      assert.deepEqual(config['seeds'], [{ url: 'http://127.0.0.1:8090/' }]);
      assert.deepEqual(config['exclude'], ['^.*/private/.*$']);
      assert.equal(config['pageExtraDelay'], 2);
      assert.match(String(config['userAgent']), /tabcrawl\/0\.1\.0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the config's docker run line mounts the file the command line wrote, by its name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-handoff-'));
    try {
      mkdirSync(join(dir, 'handoff'));
      const { code, lines } = await run(dir, 'handoff/site.yaml');
      assert.equal(code, EXIT.ok, lines.join('\n'));
      const text = readFileSync(join(dir, 'handoff', 'site.yaml'), 'utf8');
      assert.match(text, /^# Run it from the folder that holds this file/m);
      assert.match(text, /^# {3}docker run -v \$PWD\/site\.yaml:\/app\/crawl-config\.yaml \\$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file that cannot be written is said, and the run exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-handoff-'));
    try {
      const { code, lines } = await run(dir, 'no/such/folder/c.yaml');
      assert.equal(code, EXIT.failed);
      assert.ok(
        lines.some((line) => line.startsWith(`could not write ${join(dir, 'no/such/folder/c.yaml')}: `)),
        lines.join('\n'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the version in the User-Agent is the extension's, from its manifest", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as { version: string };
    assert.equal(extensionVersion(ROOT), manifest.version);
    assert.equal(extensionVersion('/nonexistent-tabcrawl-root'), 'unknown');
  });
});
