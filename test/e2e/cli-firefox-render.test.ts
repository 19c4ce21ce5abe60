/**
 * `npm run crawl -- --browser firefox --render always`, as a user runs it (issue 29): the command line drives
 * Firefox with the add-on, whose renderer lets each render tab's own requests be the crawl's. On the
 * client-rendered shop (`test/support/rendered-site.ts`): it exits 0, every page is rendered with its
 * script-written title, and the servers' logs (the crawl's requests and the tabs' together) show robots.txt
 * first and once on each host, no gap under the delay and no URL robots.txt disallows. About a minute.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRenderedSite, type RenderedSite } from '../support/rendered-site.ts';
import { serverGaps } from '../support/server-log.ts';
import { ROOT } from './helpers.ts';

const DELAY_MS = 150;

interface Row {
  url: string;
  title?: string | null;
  render?: { outcome?: string } | null;
}

describe('npm run crawl -- --browser firefox --render always', { timeout: 300_000 }, () => {
  let site: RenderedSite;
  let run: { code: number | null; stderr: string };
  let rows: Row[];
  const out = mkdtempSync(join(tmpdir(), 'tabcrawl-cli-ff-render-'));

  before(async () => {
    site = await startRenderedSite();
    const args = ['src/shells/cli/main.ts', '--browser', 'firefox', site.startUrl, '--render', 'always'];
    args.push('--render-timeout', '4', '--delay', String(DELAY_MS / 1000), '--timeout', '5');
    args.push('--out', join(out, 'x.jsonl'));
    run = await new Promise((done) => {
      const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), args, { cwd: ROOT, env: process.env });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => done({ code, stderr }));
    });
    rows = readFileSync(join(out, 'x.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
  });

  after(async () => {
    await site?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('exits 0, every page rendered with its script-written title', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /rendered 18 of 18/);
    for (const page of site.pages) {
      const row = rows.find((r) => r.url === page.url);
      assert.equal(row?.render?.outcome, 'rendered', page.url);
      assert.equal(row?.title, page.title, page.url);
    }
  });

  it('asks each host for robots.txt first and once, keeps every gap, and never asks a disallowed URL', () => {
    for (const [name, log] of Object.entries(site.logs)) {
      assert.equal(log[0]?.url, '/robots.txt', name);
      assert.equal(log.filter((r) => r.url === '/robots.txt').length, 1, name);
      for (const gap of serverGaps(log)) assert.ok(gap >= DELAY_MS, `${name}: a gap of ${gap.toFixed(1)} ms`);
    }
    assert.deepEqual(site.disallowedRequests(), []);
  });
});
