/** The rendering checks (issue 29, `src/audit/render-checks.ts`): what rendering changed or met, on rendered rows only. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAudit } from '../../src/audit/audit.ts';
import { checkInfo, type CheckId } from '../../src/audit/checks.ts';
import type { Finding } from '../../src/audit/engine.ts';
import { QUOTE_MAX_CHARS, quoteOf } from '../../src/audit/render-checks.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { SITE, cleanFacts, page, rendered } from '../support/audit-fixture.ts';
import { scanOf } from '../support/row-scan.ts';

const at = (path: string): string => `${SITE}${path}`;

const RENDER_CHECKS: readonly CheckId[] = [
  'rendered-links-only',
  'rendered-title-differs',
  'rendered-description-differs',
  'rendered-canonical-differs',
  'rendered-noindex-differs',
  'rendered-robots-differs',
  'render-script-errors',
  'render-blocked-request',
  'render-failed',
];

async function findingsOf(rows: PageRecord[], check: CheckId): Promise<readonly Finding[]> {
  return (await runAudit(scanOf(rows))).findings.get(check) ?? [];
}

async function renderFindings(rows: PageRecord[]): Promise<Finding[]> {
  const result = await runAudit(scanOf(rows));
  return RENDER_CHECKS.flatMap((check) => [...(result.findings.get(check) ?? [])]);
}

describe('the rendering checks', () => {
  it('finds nothing on rows that were not rendered, however their fields read', async () => {
    const rows = [
      page('/', { links: [at('/a')], title: 'A title of a good length for the page' }),
      page('/a', { facts: cleanFacts('/a', { robots: ['noindex'], canonical: at('/b') }) }),
    ];
    assert.deepEqual(await renderFindings(rows), []);
  });

  it('finds nothing on a rendered page that reads as its HTML did', async () => {
    assert.deepEqual(await renderFindings([rendered('/app')]), []);
  });

  it('grades each check as the docs say', () => {
    assert.equal(checkInfo('rendered-links-only').severity, 'notice');
    assert.equal(checkInfo('rendered-robots-differs').severity, 'notice');
    for (const check of RENDER_CHECKS.filter((id) => id !== 'rendered-links-only' && id !== 'rendered-robots-differs'))
      assert.equal(checkInfo(check).severity, 'warning', check);
    for (const check of RENDER_CHECKS) assert.equal(checkInfo(check).group, 'rendering', check);
  });

  it('counts and lists the links found only after rendering, in the rendered order', async () => {
    const row = rendered(
      '/app',
      { links: [at('/x'), at('/kept'), at('/y')], linkTexts: ['x', 'kept', 'y'] },
      { links: [at('/kept'), at('/gone')], linkTexts: ['kept', 'gone'] },
    );
    const [finding] = await findingsOf([row], 'rendered-links-only');
    assert.equal(finding?.detail, '2 links found only after rendering');
    assert.deepEqual(finding?.related, [at('/x'), at('/y')]);
    assert.equal(finding?.relatedCount, 2);
  });

  it('keeps the first 100 links found only after rendering and counts them all', async () => {
    const links = Array.from({ length: 150 }, (_, i) => at(`/item/${i}`));
    const row = rendered('/app', { links, linkTexts: links.map(() => '') }, { links: [], linkTexts: [] });
    const [finding] = await findingsOf([row], 'rendered-links-only');
    assert.equal(finding?.detail, '150 links found only after rendering');
    assert.equal(finding?.related.length, 100);
    assert.equal(finding?.relatedCount, 150);
  });

  it('compares titles with white space collapsed, and counts a title present in one version only', async () => {
    const rows = [
      rendered('/same', { title: ' Shop \n  home ' }, { title: 'Shop home' }),
      rendered('/added', { title: 'Shop home' }, { title: null }),
      rendered('/changed', { title: 'Shop home' }, { title: 'Loading…' }),
      rendered('/emptied', { title: '' }, { title: null }),
    ];
    const findings = await findingsOf(rows, 'rendered-title-differs');
    assert.deepEqual(
      findings.map((finding) => [finding.url, finding.detail]),
      [
        [at('/added'), 'HTML no <title> → rendered “Shop home”'],
        [at('/changed'), 'HTML “Loading…” → rendered “Shop home”'],
        [at('/emptied'), 'HTML no <title> → rendered “”'],
      ],
    );
  });

  it('compares descriptions and canonicals the same way, and names both canonicals as related URLs', async () => {
    const rows = [
      rendered(
        '/desc',
        { facts: cleanFacts('/desc', { description: 'Fresh  shoes' }) },
        { facts: cleanFacts('/desc', { description: 'Fresh shoes' }) },
      ),
      rendered(
        '/desc2',
        { facts: cleanFacts('/desc2', { description: 'Shoes' }) },
        { facts: cleanFacts('/desc2', { description: null }) },
      ),
      rendered(
        '/canon',
        { facts: cleanFacts('/canon', { canonical: at('/b') }) },
        { facts: cleanFacts('/canon', { canonical: at('/a') }) },
      ),
    ];
    const descriptions = await findingsOf(rows, 'rendered-description-differs');
    assert.deepEqual(
      descriptions.map((finding) => [finding.url, finding.detail]),
      [[at('/desc2'), 'HTML no description → rendered “Shoes”']],
    );
    const [canonical] = await findingsOf(rows, 'rendered-canonical-differs');
    assert.equal(canonical?.detail, `HTML ${at('/a')} → rendered ${at('/b')}`);
    assert.deepEqual(canonical?.related, [at('/a'), at('/b')]);
  });

  it('makes a noindex in only one version a warning of its own, and other directive changes a notice', async () => {
    const rows = [
      rendered('/added', { facts: cleanFacts('/added', { robots: ['noindex'] }) }, { facts: cleanFacts('/added') }),
      rendered('/removed', { facts: cleanFacts('/removed') }, { facts: cleanFacts('/removed', { robots: ['none'] }) }),
      rendered(
        '/follow',
        { facts: cleanFacts('/follow', { robots: ['noindex', 'nofollow'] }) },
        { facts: cleanFacts('/follow', { robots: ['noindex'] }) },
      ),
      rendered(
        '/order',
        { facts: cleanFacts('/order', { robots: ['nofollow', 'noarchive'] }) },
        { facts: cleanFacts('/order', { robots: ['noarchive', 'nofollow'] }) },
      ),
    ];
    const noindex = await findingsOf(rows, 'rendered-noindex-differs');
    assert.deepEqual(
      noindex.map((finding) => [finding.url, finding.detail]),
      [
        [at('/added'), 'HTML no directives → rendered noindex'],
        [at('/removed'), 'HTML none → rendered no directives'],
      ],
    );
    const others = await findingsOf(rows, 'rendered-robots-differs');
    assert.deepEqual(
      others.map((finding) => [finding.url, finding.detail]),
      [[at('/follow'), 'HTML noindex → rendered noindex, nofollow']],
    );
  });

  it('does not compare descriptions, canonicals or directives when either version has no facts', async () => {
    const rows = [
      rendered('/a', { facts: cleanFacts('/a', { robots: ['noindex'] }) }, { facts: null }),
      rendered('/b', { facts: null }, { facts: cleanFacts('/b', { description: 'other' }) }),
    ];
    assert.deepEqual(await renderFindings(rows), []);
  });

  it('quotes the first script error, white space collapsed and cut, with the count', async () => {
    const long = `TypeError: ${'x'.repeat(200)}`;
    const row = rendered('/app', {}, {}, { scriptErrors: [`${long}\n    at main.js:1`, 'second'] });
    const [finding] = await findingsOf([row], 'render-script-errors');
    assert.equal(finding?.detail, `2 script errors; first: ${long.slice(0, QUOTE_MAX_CHARS)}…`);
  });

  it('keeps hostile script error text as data: markup and controls reach the detail as characters, never run', async () => {
    const hostile = '<img src=x onerror=alert(1)>\u001b[31m\u202Eboom';
    const row = rendered('/app', {}, {}, { scriptErrors: [hostile] });
    const [finding] = await findingsOf([row], 'render-script-errors');
    assert.equal(finding?.detail, `1 script error; first: ${hostile}`);
    assert.equal(quoteOf('a\n\tb'), 'a b');
  });

  it('lists the URLs robots.txt kept from the rendered page, and only those', async () => {
    const row = rendered(
      '/app',
      {},
      {},
      {
        refused: [
          { url: at('/private/a.json'), because: 'robots' },
          { url: at('/poll'), because: 'timeout' },
          { url: at('/private/a.json'), because: 'robots' },
          { url: 'https://other.example/private/b.js', because: 'robots' },
          { url: 'ws://a.example/socket', because: 'scheme' },
        ],
      },
    );
    const [finding] = await findingsOf([row], 'render-blocked-request');
    assert.equal(finding?.detail, '3 requests robots.txt disallows');
    assert.deepEqual(finding?.related, [at('/private/a.json'), 'https://other.example/private/b.js']);
    const refusedOtherwise = rendered('/b', {}, {}, { refused: [{ url: at('/poll'), because: 'timeout' }] });
    assert.deepEqual(await findingsOf([refusedOtherwise], 'render-blocked-request'), []);
  });

  it('reports a failed render with its reason, and compares nothing of it', async () => {
    const rows = [
      rendered(
        '/timeout',
        { links: [at('/x')] },
        {},
        { outcome: 'timeout', message: 'no  quiet\nnetwork', static: null },
      ),
      rendered('/crashed', {}, {}, { outcome: 'crashed', message: null, static: null }),
    ];
    const failed = await findingsOf(rows, 'render-failed');
    assert.deepEqual(
      failed.map((finding) => [finding.url, finding.detail]),
      [
        [at('/timeout'), 'timeout: no quiet network'],
        [at('/crashed'), 'crashed'],
      ],
    );
    assert.deepEqual(await findingsOf(rows, 'rendered-links-only'), []);
  });

  it('still reports script errors and refused URLs of a render that failed', async () => {
    const row = rendered(
      '/app',
      {},
      {},
      {
        outcome: 'timeout',
        static: null,
        scriptErrors: ['Error: boom'],
        refused: [{ url: at('/private/x'), because: 'robots' }],
      },
    );
    const findings = await renderFindings([row]);
    assert.deepEqual(
      findings.map((finding) => finding.check),
      ['render-script-errors', 'render-blocked-request', 'render-failed'],
    );
  });
});

describe('duplicate content of rendered pages', () => {
  it('judges a rendered page by what it showed: shells of one app that render different pages are no duplicates', async () => {
    const shell = { sha256: 'e'.repeat(64) };
    const rows = [
      rendered('/', shell, {}, { sha256: '1'.repeat(64) }),
      rendered('/p1', { ...shell, duplicateOf: at('/') }, {}, { sha256: '2'.repeat(64) }),
      rendered('/p2', { ...shell, duplicateOf: at('/') }, {}, { sha256: '2'.repeat(64) }),
      page('/p3', { ...shell, duplicateOf: at('/') }),
      page('/p4', { ...shell, duplicateOf: at('/') }),
    ];
    const found = (await findingsOf(rows, 'duplicate-content')).map((f) => f.url);
    // /p1 and /p2 rendered the same DOM; /p3 and /p4 were not rendered and share their body; / showed its own.
    assert.deepEqual(found.sort(), ['/p1', '/p2', '/p3', '/p4'].map(at).sort());
  });
});
