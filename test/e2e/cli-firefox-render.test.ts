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
  status?: number | null;
  error?: string | null;
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
    // A render's cap of 15 s: in Firefox every request of the page waits for its host's turn. Under the load
    // of a full `npm test` one page once took longer than 4 s, and four in a row once took longer than 8 s.
    // The default request timeout (30 s): a fetch Firefox held back once timed out at 5 s (docs/rendering-firefox.md).
    args.push('--render-timeout', '15', '--delay', String(DELAY_MS / 1000));
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
    // Which rows went wrong, and how (the whole render record): the progress lines alone do not say.
    const wrong = rows.filter((r) => r.error || (r.render && r.render.outcome !== 'rendered'));
    const why = wrong.map((r) => `${r.url}: status ${r.status}, error ${r.error}, render ${JSON.stringify(r.render)}`);
    const logs = Object.entries(site.logs).map(([name, log]) => `${name}: ${JSON.stringify(log)}`);
    assert.deepEqual(why, [], `${run.stderr}\n${logs.join('\n')}`);
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
