import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, validateSettings } from '../../src/core/settings.ts';
import {
  BYTES_PER_MIB,
  checkForm,
  describeSettings,
  fieldErrors,
  FIELDS,
  fromSettings,
  toSettings,
} from '../../src/settings/settings-values.ts';
import {
  DEFAULTS_KEY,
  forgetSite,
  listSites,
  loadDefaultSettings,
  loadSiteSettings,
  memorySettingsStorage,
  saveDefaultSettings,
  saveSiteSettings,
  siteOrigin,
  SITES_KEY,
  storageAreaAdapter,
} from '../../src/settings/site-settings.ts';

const BUILT_IN = { ...DEFAULT_SETTINGS, excludePatterns: [] };

describe('site settings store', () => {
  it('gives the built-in defaults when nothing was saved', async () => {
    const storage = memorySettingsStorage();
    assert.deepEqual(await loadSiteSettings(storage, 'https://example.com'), BUILT_IN);
    assert.deepEqual(await loadDefaultSettings(storage), BUILT_IN);
  });

  it("gives the user's defaults to a site with no settings of its own", async () => {
    const storage = memorySettingsStorage();
    assert.deepEqual(await saveDefaultSettings(storage, { delayMs: 2500, maxPages: 50 }), {
      ok: true,
      saved: { delayMs: 2500, maxPages: 50 },
    });
    const settings = await loadSiteSettings(storage, 'https://example.com');
    assert.deepEqual(settings, { ...BUILT_IN, delayMs: 2500, maxPages: 50 });
  });

  it("layers a site's settings over the user's defaults, field by field", async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { delayMs: 2500, maxPages: 50 });
    await saveSiteSettings(storage, 'https://example.com', { maxPages: 7, excludePatterns: ['*?session=*'] });
    const settings = await loadSiteSettings(storage, 'https://example.com/docs/page?q=1');
    assert.deepEqual(settings, { ...BUILT_IN, delayMs: 2500, maxPages: 7, excludePatterns: ['*?session=*'] });
    assert.deepEqual(await loadSiteSettings(storage, 'https://other.example'), {
      ...BUILT_IN,
      delayMs: 2500,
      maxPages: 50,
    });
  });

  it('keys sites by origin, so a URL of the site and its origin are one site', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'HTTPS://Example.com:443/a/b', { maxDepth: 3 });
    const sites = await listSites(storage);
    assert.deepEqual(
      sites.map((site) => site.origin),
      ['https://example.com'],
    );
    assert.equal((await loadSiteSettings(storage, 'https://example.com')).maxDepth, 3);
    assert.equal((await loadSiteSettings(storage, 'http://example.com')).maxDepth, DEFAULT_SETTINGS.maxDepth);
  });

  it('stores nothing and returns the validator errors when a setting is invalid', async () => {
    const storage = memorySettingsStorage();
    const result = await saveSiteSettings(storage, 'https://example.com', { maxPages: 0, delayMs: 5000 });
    assert.equal(result.ok, false);
    assert.deepEqual(result.ok ? [] : result.errors.map((error) => error.field), ['maxPages']);
    assert.equal(storage.entries.size, 0);
    const defaults = await saveDefaultSettings(storage, { productToken: 'bad token!' });
    assert.equal(defaults.ok, false);
    assert.equal(storage.entries.has(DEFAULTS_KEY), false);
  });

  it('refuses a site that is not an http(s) origin', async () => {
    const storage = memorySettingsStorage();
    const result = await saveSiteSettings(storage, 'chrome://extensions', { maxPages: 5 });
    assert.deepEqual(result.ok ? [] : result.errors.map((error) => error.field), ['startUrl']);
    assert.equal(storage.entries.size, 0);
    assert.equal(siteOrigin('not a url'), null);
    assert.equal(siteOrigin('http://a.test:8080/x'), 'http://a.test:8080');
  });

  it('stores a versioned record of only the given settings, with when it was saved', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(
      storage,
      'https://example.com',
      { jitterMs: 250, startUrl: 'https://example.com/ignored' },
      1_700_000_000_000,
    );
    assert.deepEqual(storage.entries.get(SITES_KEY), {
      'https://example.com': { version: 1, settings: { jitterMs: 250 }, savedAt: 1_700_000_000_000 },
    });
  });

  it('drops a corrupted stored value and uses the next layer, never throwing', async () => {
    const storage = memorySettingsStorage([
      [
        DEFAULTS_KEY,
        {
          version: 1,
          settings: { maxPages: 'lots', delayMs: 3000, pathPrefix: 5, excludePatterns: [1, 2] },
          savedAt: 'x',
        },
      ],
      [
        SITES_KEY,
        {
          'https://example.com': {
            version: 1,
            settings: { maxDepth: -4, timeoutMs: 5000, unknownSetting: true, headBeforeGet: 'yes' },
          },
          'https://broken.example': 'not a record',
          'not an origin': { version: 1, settings: { maxPages: 3 } },
        },
      ],
    ]);
    const settings = await loadSiteSettings(storage, 'https://example.com');
    assert.deepEqual(settings, { ...BUILT_IN, delayMs: 3000, timeoutMs: 5000 });
    assert.deepEqual(
      (await listSites(storage)).map((site) => [site.origin, site.savedAt]),
      [['https://example.com', 0]],
    );
  });

  it('ignores stored settings of an unknown version or shape', async () => {
    for (const stored of [
      null,
      42,
      'text',
      [],
      { settings: { maxPages: 3 } },
      { version: 2, settings: { maxPages: 3 } },
      { version: 1, settings: [] },
    ]) {
      const storage = memorySettingsStorage([
        [DEFAULTS_KEY, stored],
        [SITES_KEY, { 'https://example.com': stored }],
      ]);
      assert.deepEqual(await loadSiteSettings(storage, 'https://example.com'), BUILT_IN, JSON.stringify(stored));
    }
    const storage = memorySettingsStorage([[SITES_KEY, ['https://example.com']]]);
    assert.deepEqual(await listSites(storage), []);
  });

  it('forgets a site, which then follows the user defaults again', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { maxPages: 50 });
    await saveSiteSettings(storage, 'https://a.example', { maxPages: 5 });
    await saveSiteSettings(storage, 'https://b.example', { maxPages: 6 });
    assert.equal(await forgetSite(storage, 'https://a.example/'), true);
    assert.equal(await forgetSite(storage, 'https://a.example/'), false);
    assert.equal(await forgetSite(storage, 'about:blank'), false);
    assert.deepEqual(
      (await listSites(storage)).map((site) => site.origin),
      ['https://b.example'],
    );
    assert.equal((await loadSiteSettings(storage, 'https://a.example')).maxPages, 50);
  });

  it('lists sites in alphabetical order with their saved settings', async () => {
    const storage = memorySettingsStorage();
    await saveSiteSettings(storage, 'https://z.example', { followNofollow: true }, 2);
    await saveSiteSettings(storage, 'http://a.example', { maxPages: 9 }, 1);
    assert.deepEqual(await listSites(storage), [
      { origin: 'http://a.example', settings: { maxPages: 9 }, savedAt: 1 },
      { origin: 'https://z.example', settings: { followNofollow: true }, savedAt: 2 },
    ]);
  });

  it('remembers requests at once per host per site, over the user default, and drops a stored value out of range', async () => {
    const storage = memorySettingsStorage();
    await saveDefaultSettings(storage, { requestsPerHost: 2 });
    assert.deepEqual(await saveSiteSettings(storage, 'https://staging.example', { delayMs: 0, requestsPerHost: 8 }), {
      ok: true,
      saved: { delayMs: 0, requestsPerHost: 8 },
    });
    assert.equal((await loadSiteSettings(storage, 'https://staging.example/a')).requestsPerHost, 8);
    assert.equal((await loadSiteSettings(storage, 'https://other.example')).requestsPerHost, 2);
    for (const requestsPerHost of [0, 17, 1.5]) {
      const refused = await saveSiteSettings(storage, 'https://staging.example', { requestsPerHost });
      assert.deepEqual(
        refused.ok ? [] : refused.errors.map((error) => error.field),
        ['requestsPerHost'],
        String(requestsPerHost),
      );
    }
    assert.equal((await loadSiteSettings(storage, 'https://staging.example')).requestsPerHost, 8);

    const corrupted = memorySettingsStorage([
      [SITES_KEY, { 'https://example.com': { version: 1, settings: { requestsPerHost: 99, maxPages: 3 } } }],
    ]);
    assert.deepEqual(await loadSiteSettings(corrupted, 'https://example.com'), { ...BUILT_IN, maxPages: 3 });
    const wrongType = memorySettingsStorage([
      [DEFAULTS_KEY, { version: 1, settings: { requestsPerHost: '4' }, savedAt: 1 }],
    ]);
    assert.equal((await loadDefaultSettings(wrongType)).requestsPerHost, DEFAULT_SETTINGS.requestsPerHost);
  });

  it('reads and writes a storage area by key through the adapter', async () => {
    const items: Record<string, unknown> = {};
    const area = {
      get: (key: string) => Promise.resolve(key in items ? { [key]: items[key] } : {}),
      set: (values: Record<string, unknown>) => {
        Object.assign(items, values);
        return Promise.resolve();
      },
    };
    const storage = storageAreaAdapter(area);
    assert.equal(await storage.get('missing'), undefined);
    await saveDefaultSettings(storage, { maxRetries: 4 });
    assert.equal((await loadDefaultSettings(storage)).maxRetries, 4);
  });
});

describe('settings form values', () => {
  it('shows the built-in defaults in the form units', () => {
    assert.deepEqual(fromSettings({}), {
      maxPages: '500',
      maxDepth: '20',
      delaySeconds: '1',
      productToken: 'tabcrawl',
      includeSubdomains: false,
      pathPrefix: '',
      excludePatterns: '',
      extraOrigins: '',
      headBeforeGet: false,
      timeoutSeconds: '30',
      followNofollow: false,
      maxRetries: '2',
      hostConcurrency: '8',
      requestsPerHost: '1',
      jitterSeconds: '0',
      maxBodyMiB: '10',
      archiveResources: true,
      downloadFiles: true,
      maxFileMiB: '50',
      maxResources: '10000',
      checkExternal: true,
      maxExternal: '10000',
      maxExternalPerHost: '100',
      withCookies: false,
      allowPrivateAddresses: false,
      render: 'auto',
      renderTimeoutSeconds: '15',
      searches: '',
      extractions: '',
    });
  });

  it('turns seconds into ms and MiB into bytes, and back', () => {
    const values = {
      ...fromSettings({}),
      delaySeconds: '1.5',
      timeoutSeconds: '2.25',
      jitterSeconds: '0.3',
      maxBodyMiB: '0.5',
    };
    const settings = toSettings(values);
    assert.equal(settings.delayMs, 1500);
    assert.equal(settings.timeoutMs, 2250);
    assert.equal(settings.jitterMs, 300);
    assert.equal(settings.maxBodyBytes, BYTES_PER_MIB / 2);
    assert.deepEqual(fromSettings(settings), values);
  });

  it('round-trips every valid setting through the form unchanged', () => {
    const settings = {
      ...BUILT_IN,
      maxPages: 12,
      maxDepth: 0,
      delayMs: 1234,
      productToken: 'my-bot',
      includeSubdomains: true,
      pathPrefix: '/docs/',
      excludePatterns: ['*?a=*', 'http*://*/cgi-bin/*'],
      extraOrigins: ['https://docs.example.com', 'http://127.0.0.1:8081'],
      headBeforeGet: true,
      timeoutMs: 1001,
      followNofollow: true,
      maxRetries: 10,
      hostConcurrency: 32,
      requestsPerHost: 16,
      jitterMs: 7,
      maxBodyBytes: 1_500_001,
      render: 'always' as const,
      renderTimeoutMs: 2500,
    };
    assert.deepEqual(toSettings(fromSettings(settings)), settings);
  });

  it('shows rendering as a list of its three modes, and names a mode that is none of them next to its field', () => {
    const field = FIELDS.find((each) => each.setting === 'render');
    assert.equal(field?.kind, 'choice');
    assert.deepEqual(field?.kind === 'choice' ? field.choices.map((choice) => choice.value) : [], [
      'off',
      'auto',
      'always',
    ]);
    assert.equal(checkForm({ ...fromSettings({}), render: 'auto' }).ok, true);
    const checked = checkForm({ ...fromSettings({}), render: 'sometimes' });
    assert.equal(checked.ok, false);
    assert.equal(
      checked.ok ? null : checked.errors.render,
      'Render pages (run their scripts) must be off, auto or always',
    );
  });

  it('reads the render cap in seconds, from 2 to 120', () => {
    assert.equal(toSettings({ ...fromSettings({}), renderTimeoutSeconds: '2.5' }).renderTimeoutMs, 2500);
    const checked = checkForm({ ...fromSettings({}), renderTimeoutSeconds: '1' });
    assert.equal(checked.ok ? null : checked.errors.renderTimeoutMs, 'Render cap must be from 2 s to 120 s, not 1 s');
  });

  it('rounds times to whole ms and sizes to whole bytes', () => {
    const settings = toSettings({ ...fromSettings({}), delaySeconds: '0.0004', maxBodyMiB: '1.0000001' });
    assert.equal(settings.delayMs, 0);
    assert.equal(settings.maxBodyBytes, Math.round(1.0000001 * BYTES_PER_MIB));
  });

  it('leaves out an empty number field and product token, so their defaults apply', () => {
    const settings = toSettings({ ...fromSettings({}), maxPages: '  ', delaySeconds: '', productToken: ' ' });
    assert.equal('maxPages' in settings, false);
    assert.equal('delayMs' in settings, false);
    assert.equal('productToken' in settings, false);
    const checked = checkForm({ ...fromSettings({}), maxPages: '' });
    assert.ok(checked.ok);
    assert.equal(checked.settings.maxPages, DEFAULT_SETTINGS.maxPages);
  });

  it('reads one exclude pattern per line, skipping blank lines and trimming', () => {
    const settings = toSettings({ ...fromSettings({}), excludePatterns: ' *?a=* \r\n\n/x*\n   \n' });
    assert.deepEqual(settings.excludePatterns, ['*?a=*', '/x*']);
  });

  it('reads one extra site per line, and names the first bad one next to its field', () => {
    const values = { ...fromSettings({}), extraOrigins: ' https://b.test \r\n\nhttp://127.0.0.1:8081/\n' };
    assert.deepEqual(toSettings(values).extraOrigins, ['https://b.test', 'http://127.0.0.1:8081/']);
    const checked = checkForm(values);
    assert.ok(checked.ok);
    assert.deepEqual(checked.settings.extraOrigins, ['https://b.test', 'http://127.0.0.1:8081']);
    const bad = checkForm({ ...fromSettings({}), extraOrigins: 'https://b.test/docs\nftp://c.test' });
    assert.equal(bad.ok, false);
    if (!bad.ok)
      assert.equal(
        bad.errors.extraOrigins,
        'Also crawl these sites: "https://b.test/docs" has a path, query or fragment; give the site only, e.g. https://b.test',
      );
  });

  it('gives the validator message for the field that is out of range', () => {
    const values = { ...fromSettings({}), delaySeconds: '-1', maxPages: 'many' };
    const result = checkForm(values);
    assert.equal(result.ok, false);
    const expected = validateSettings({ startUrl: 'https://a.test/', delayMs: -1000, maxPages: Number.NaN });
    assert.ok(!expected.ok);
    assert.deepEqual(result.ok ? {} : result.errors, fieldErrors(expected.errors));
    assert.deepEqual(result.ok ? {} : result.errors, {
      maxPages: 'Max pages must be a number',
      delayMs: 'Delay must be from 0 s to 3600 s, not -1 s',
    });
  });

  it('reads requests at once per host as a whole number from 1 to 16, with its message next to its field', () => {
    assert.equal(toSettings({ ...fromSettings({}), requestsPerHost: ' 8 ' }).requestsPerHost, 8);
    assert.equal('requestsPerHost' in toSettings({ ...fromSettings({}), requestsPerHost: '' }), false);
    const checked = checkForm({ ...fromSettings({}), delaySeconds: '0', requestsPerHost: '16' });
    assert.ok(checked.ok);
    assert.equal(checked.settings.requestsPerHost, 16);
    for (const [text, message] of [
      ['0', 'Requests at once per host must be from 1 to 16, not 0'],
      ['17', 'Requests at once per host must be from 1 to 16, not 17'],
      ['2.5', 'Requests at once per host must be a whole number, not 2.5'],
      ['many', 'Requests at once per host must be a number'],
    ] as const) {
      const result = checkForm({ ...fromSettings({}), requestsPerHost: text });
      assert.deepEqual(result.ok ? {} : result.errors, { requestsPerHost: message }, text);
    }
  });

  it('says a size out of range in MiB, the unit the size field reads, never in KiB', () => {
    const result = checkForm({ ...fromSettings({}), maxBodyMiB: '0' });
    assert.deepEqual(result.ok ? {} : result.errors, {
      maxBodyBytes: 'Max body size must be from 0.001 MiB to 1024 MiB, not 0 MiB',
    });
  });

  it('has one field for every crawl option but the start URL', () => {
    const settingsInForm = FIELDS.map((field) => field.setting).sort();
    assert.deepEqual(settingsInForm, Object.keys(DEFAULT_SETTINGS).sort());
    assert.equal(new Set(FIELDS.map((field) => field.testId)).size, FIELDS.length);
  });

  it('summarizes only what differs from the built-in defaults', () => {
    assert.deepEqual(
      describeSettings({
        maxPages: 500,
        delayMs: 2000,
        includeSubdomains: true,
        excludePatterns: ['*?a=*', '/x'],
        maxBodyBytes: BYTES_PER_MIB,
      }),
      [
        'Max body size (MiB): 1',
        'Delay (s): 2',
        // In the form's order: Scope's boxes come right after the path prefix.
        'Include subdomains: on',
        'Exclude patterns: *?a=*, /x',
      ],
    );
    assert.deepEqual(describeSettings({ ...BUILT_IN }), []);
    assert.deepEqual(describeSettings({ delayMs: 0, requestsPerHost: 8 }), [
      'Delay (s): 0',
      'Requests at once per host: 8',
    ]);
    assert.deepEqual(describeSettings({ render: 'always', renderTimeoutMs: 30_000 }), [
      'Render pages (run their scripts): always',
      'Render cap (s): 30',
    ]);
    assert.deepEqual(describeSettings({ render: 'auto' }), []);
  });
});
