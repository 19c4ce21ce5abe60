/**
 * The settings *Render pages (run their scripts)* and *Render cap* (issue 29): the first choice setting of
 * the table, read and checked by the validator, the command line, the popup's digest, the warcinfo and the
 * Browsertrix hand-off; and how the pages ask for the permission rendering needs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SETTING_TABLE } from '../../src/core/setting-table.ts';
import { DEFAULT_SETTINGS, renderModeOf, validateSettings, type CrawlSettings } from '../../src/core/settings.ts';
import { parseCliArgs, USAGE } from '../../src/shells/cli/args.ts';
import { settingsDigest } from '../../src/popup/crawl-text.ts';
import { browsertrixConfig } from '../../src/handoff/browsertrix-config.ts';
import { renderPermissionRequester } from '../../src/settings/render-permission.ts';

const START_URL = 'https://example.org/';
const SETTINGS = { ...DEFAULT_SETTINGS, startUrl: START_URL } as CrawlSettings;

/** The crawl settings a command line gives, or its usage error. */
function cli(...args: string[]): Partial<CrawlSettings> | string {
  const parsed = parseCliArgs([START_URL, ...args]);
  if (parsed.kind === 'usage-error') return parsed.message;
  assert.equal(parsed.kind, 'crawl');
  return parsed.kind === 'crawl' ? parsed.settings : 'not a crawl';
}

describe('the render setting', () => {
  it('is auto with a 15 s cap by default (the default measured: docs/rendering.md)', () => {
    const result = validateSettings({ startUrl: START_URL });
    assert.ok(result.ok);
    assert.equal(result.settings.render, 'auto');
    assert.equal(result.settings.renderTimeoutMs, 15_000);
  });

  it('takes off, auto and always, and refuses anything else naming the three', () => {
    for (const render of ['off', 'auto', 'always'] as const)
      assert.equal(validateSettings({ startUrl: START_URL, render }).ok, true, render);
    for (const render of ['Auto', '', 'on', 1, true, null, ['auto']]) {
      const result = validateSettings({ startUrl: START_URL, render } as unknown as CrawlSettings);
      assert.equal(result.ok, false, String(render));
      assert.deepEqual(result.ok ? [] : result.errors, [
        { field: 'render', message: 'Render pages (run their scripts) must be off, auto or always' },
      ]);
    }
  });

  it('caps one render from 2 s to 120 s', () => {
    assert.equal(validateSettings({ startUrl: START_URL, renderTimeoutMs: 2000 }).ok, true);
    assert.equal(validateSettings({ startUrl: START_URL, renderTimeoutMs: 120_000 }).ok, true);
    const result = validateSettings({ startUrl: START_URL, renderTimeoutMs: 1999 });
    assert.deepEqual(result.ok ? [] : result.errors, [
      { field: 'renderTimeoutMs', message: 'Render cap must be from 2 s to 120 s, not 1.999 s' },
    ]);
  });

  it('reads a crawl stored before the setting existed as off, whatever the default', () => {
    const { render: _render, renderTimeoutMs: _cap, ...stored } = SETTINGS;
    assert.equal(renderModeOf(stored), 'off');
    assert.equal(renderModeOf({ render: 'always' }), 'always');
    assert.equal(renderModeOf({ render: 'bogus' as 'off' }), 'off');
    assert.equal(settingsDigest(stored as CrawlSettings), 'render off');
  });

  it('shows in the digest only when it is not auto, and the cap only when it is not 15 s', () => {
    assert.equal(settingsDigest(SETTINGS), '');
    assert.equal(settingsDigest({ ...SETTINGS, render: 'off' }), 'render off');
    assert.equal(settingsDigest({ ...SETTINGS, render: 'auto', renderTimeoutMs: 20_000 }), 'render cap 20 s');
    assert.equal(
      settingsDigest({ ...SETTINGS, render: 'always', renderTimeoutMs: 30_000 }),
      'render always · render cap 30 s',
    );
  });

  it('writes the mode in the warcinfo, and the cap only for a crawl that renders', () => {
    const fields = (settings: CrawlSettings) => [
      ...(SETTING_TABLE.render.warcinfo?.fields(settings) ?? []),
      ...(SETTING_TABLE.renderTimeoutMs.warcinfo?.fields(settings) ?? []),
    ];
    assert.deepEqual(fields(SETTINGS), [
      ['render', 'auto'],
      ['renderTimeoutMs', '15000'],
    ]);
    assert.deepEqual(fields({ ...SETTINGS, render: 'off' }), [['render', 'off']]);
    assert.deepEqual(fields({ ...SETTINGS, render: 'auto', renderTimeoutMs: 20_000 }), [
      ['render', 'auto'],
      ['renderTimeoutMs', '20000'],
    ]);
  });

  it('tells the Browsertrix hand-off that Browsertrix renders every page, without the politeness, whatever the mode', () => {
    for (const render of ['off', 'auto', 'always'] as const) {
      const { notCarried } = browsertrixConfig({ settings: { ...SETTINGS, render }, version: '1.0.0' });
      const text = notCarried.join('\n');
      assert.match(text, new RegExp(`Render pages: ${render}`), render);
      assert.match(text, /requests a page's scripts make go out without robots\.txt/, render);
      assert.equal(text.includes('Render cap 15 s'), render !== 'off', render);
    }
  });
});

describe('the render options of the command line', () => {
  it('reads --render off, auto and always, in any case', () => {
    assert.deepEqual(cli('--render', 'auto'), { startUrl: START_URL, render: 'auto' });
    assert.deepEqual(cli('--render=ALWAYS'), { startUrl: START_URL, render: 'always' });
    assert.deepEqual(cli('--render', 'off'), { startUrl: START_URL, render: 'off' });
    assert.deepEqual(cli(), { startUrl: START_URL });
  });

  it('refuses another mode, naming the allowed ones', () => {
    assert.equal(cli('--render', 'sometimes'), "--render must be off, auto or always, got 'sometimes'");
    assert.equal(cli('--render'), '--render needs a value');
  });

  it('reads --render-timeout in seconds, within the cap bounds', () => {
    assert.deepEqual(cli('--render', 'always', '--render-timeout', '7.5'), {
      startUrl: START_URL,
      render: 'always',
      renderTimeoutMs: 7500,
    });
    assert.equal(cli('--render-timeout', '1'), '--render-timeout: render cap must be from 2 s to 120 s, not 1 s');
  });

  it('lists both options in --help with their defaults', () => {
    assert.match(USAGE, /--render MODE\s+render pages/);
    assert.match(USAGE, /off, auto \(when the HTML suggests scripts build the page\) or always \(default: auto\)/);
    assert.match(USAGE, /--render-timeout SECONDS\n\s+most time one page's render takes \(default: 15\)/);
  });
});

describe('asking for the permission rendering needs', () => {
  /** A permissions API that records what it was asked and answers `answer`. */
  function permissions(answer: boolean) {
    const asked: unknown[] = [];
    return {
      asked,
      request(request: { permissions?: string[] }) {
        asked.push(request);
        return Promise.resolve(answer);
      },
    };
  }

  it('asks Chrome for debugger when the manifest lists it as optional, and says what the user answered', async () => {
    const api = permissions(false);
    const request = renderPermissionRequester(api, { permissions: ['storage'], optional_permissions: ['debugger'] });
    assert.equal(await request(), false);
    assert.deepEqual(api.asked, [{ permissions: ['debugger'] }]);
  });

  it('asks nothing when the permission is granted already (the command line) or not needed (Firefox)', async () => {
    for (const manifest of [{ permissions: ['storage', 'debugger'] }, { permissions: ['storage'] }, {}]) {
      const api = permissions(false);
      assert.equal(await renderPermissionRequester(api, manifest)(), true);
      assert.deepEqual(api.asked, []);
    }
  });
});
