/**
 * core/setting-table.ts: one entry per crawl setting, from which the validator, the form, the command line,
 * the popup's digest and the warcinfo read. Checks that the entries agree with each other and with what is
 * made from them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FORM_GROUPS,
  SETTING_ENTRIES,
  SETTING_TABLE,
  isDefaultValue,
  type TableKey,
} from '../../src/core/setting-table.ts';
import { DEFAULT_SETTINGS, SETTINGS_LIMITS, validateSettings, type CrawlSettings } from '../../src/core/settings.ts';
import { FIELDS, fromSettings } from '../../src/settings/settings-values.ts';
import { browsertrixConfig } from '../../src/handoff/browsertrix-config.ts';
import { loadBrowsertrixOptions } from '../support/browsertrix-options.ts';

const START_URL = 'https://example.org/';

/** A valid value of each setting other than its default, to see what changing it changes. */
function otherValue(key: TableKey): unknown {
  const entry = SETTING_TABLE[key];
  const value: unknown = entry.default;
  if (typeof value === 'boolean') return !value;
  if (entry.choices !== undefined) return entry.choices.find((choice) => choice.value !== value)?.value;
  if (typeof value === 'number') {
    const limits = entry.limits;
    assert.ok(limits !== undefined, `${key} has bounds`);
    return value + 1 <= limits.max ? value + 1 : value - 1;
  }
  if (key === 'productToken') return 'otherbot';
  if (key === 'pathPrefix') return '/docs/';
  if (key === 'excludePatterns') return ['*?print=*'];
  if (key === 'extraOrigins') return ['https://docs.example.org'];
  if (key === 'searches') return ['old=Discontinued'];
  if (key === 'extractions') return ['price=css:.price'];
  throw new Error(`no other value for ${key}`);
}

describe('the settings table', () => {
  it('gives every setting the default DEFAULT_SETTINGS holds, and the defaults pass validation', () => {
    assert.deepEqual(Object.keys(DEFAULT_SETTINGS).sort(), (Object.keys(SETTING_TABLE) as string[]).sort());
    for (const entry of SETTING_ENTRIES) assert.deepEqual(DEFAULT_SETTINGS[entry.key], entry.default, entry.key);
    assert.equal(validateSettings({ startUrl: START_URL }).ok, true);
  });

  it('bounds every number setting, its default inside its bounds, and names it by its form label', () => {
    for (const entry of SETTING_ENTRIES) {
      if (typeof entry.default !== 'number') {
        assert.equal(entry.limits, undefined, `${entry.key} is not a number and has no bounds`);
        continue;
      }
      const limits = SETTINGS_LIMITS[entry.key as keyof typeof SETTINGS_LIMITS];
      assert.ok(limits !== undefined, `${entry.key} has bounds`);
      assert.ok(limits.min <= entry.default && entry.default <= limits.max, `${entry.key}'s default is in its bounds`);
      assert.equal(limits.label, entry.label);
    }
  });

  it("gives every setting one form field, in a known group, whose name is a field of the form's values and whose test id is its own", () => {
    const values = fromSettings({});
    assert.deepEqual(FIELDS.map((field) => field.name).sort(), Object.keys(values).sort());
    for (const entry of SETTING_ENTRIES)
      assert.ok((FORM_GROUPS as readonly string[]).includes(entry.form.group), entry.key);
    for (const entry of SETTING_ENTRIES) {
      const unit = entry.form.unit ?? null;
      // The field's name says its unit (formNameOf): ms are typed in seconds, bytes in MiB.
      assert.equal(unit, entry.key.endsWith('Ms') ? 's' : entry.key.endsWith('Bytes') ? 'MiB' : null, entry.key);
    }
    const testIds = SETTING_ENTRIES.map((entry) => entry.form.testId);
    assert.equal(new Set(testIds).size, testIds.length);
  });

  it('names each command-line option once', () => {
    const names = SETTING_ENTRIES.flatMap((entry) => {
      const cli = entry.cli;
      if (cli === undefined) return [];
      return cli.read === 'switch' ? [...(cli.on ?? []), ...(cli.off ?? [])].map((name) => `--${name}`) : [cli.flag];
    });
    assert.equal(new Set(names).size, names.length);
    for (const entry of SETTING_ENTRIES) {
      if (entry.cli?.read === 'switch')
        assert.ok(
          entry.cli.off?.includes(entry.cli.flag.slice(2)) === true ||
            entry.cli.on?.includes(entry.cli.flag.slice(2)) === true,
          `${entry.key}'s shown option is one of its switches`,
        );
    }
  });

  it('orders the digest words and the warcinfo lines without ties', () => {
    const digestAt = SETTING_ENTRIES.flatMap((entry) => (entry.digest === undefined ? [] : [entry.digest.at]));
    const warcinfoAt = SETTING_ENTRIES.flatMap((entry) => (entry.warcinfo === undefined ? [] : [entry.warcinfo.at]));
    assert.equal(new Set(digestAt).size, digestAt.length);
    assert.equal(new Set(warcinfoAt).size, warcinfoAt.length);
  });

  it('shows no digest words for a setting at its default', () => {
    const settings = { ...DEFAULT_SETTINGS, startUrl: START_URL } as CrawlSettings;
    const format = { seconds: (ms: number) => `${ms / 1000} s`, bytes: (bytes: number) => `${bytes} B` };
    for (const entry of SETTING_ENTRIES) {
      assert.equal(entry.digest?.text(settings, format) ?? null, null, entry.key);
      if (entry.digest !== undefined)
        assert.notEqual(
          entry.digest.text({ ...settings, [entry.key]: otherValue(entry.key) }, format),
          null,
          entry.key,
        );
    }
  });

  it('tells a setting at its default apart from one that is not, lists item by item', () => {
    assert.equal(isDefaultValue('excludePatterns', []), true);
    assert.equal(isDefaultValue('excludePatterns', ['*a*']), false);
    assert.equal(isDefaultValue('maxPages', 500), true);
    assert.equal(isDefaultValue('maxPages', 501), false);
  });
});

describe("the settings table's Browsertrix options", () => {
  const known = loadBrowsertrixOptions();
  const base = { ...DEFAULT_SETTINGS, startUrl: START_URL } as CrawlSettings;
  /** Whether Browsertrix reads this name, as an option or as one's alias (`include` for `scopeIncludeRx`). */
  const isKnown = (name: string): boolean =>
    name in known || Object.values(known).some((option) => (option.alias ?? []).includes(name));
  const optionsOf = (settings: CrawlSettings) => browsertrixConfig({ settings, version: '1.0.0' }).options;

  it('are options Browsertrix Crawler reads, and the config writes each', () => {
    for (const entry of SETTING_ENTRIES) {
      for (const option of entry.browsertrix.options) {
        assert.ok(isKnown(option), `${entry.key}: ${option} is a Browsertrix option`);
        assert.ok(
          option in optionsOf({ ...base, [entry.key]: otherValue(entry.key) }),
          `${entry.key}: the config writes ${option}`,
        );
      }
    }
  });

  it('are the only options that change when the setting does', () => {
    const before = optionsOf(base);
    for (const entry of SETTING_ENTRIES) {
      const after = optionsOf({ ...base, [entry.key]: otherValue(entry.key) });
      const changed = Object.keys({ ...before, ...after }).filter(
        (option) => JSON.stringify(before[option]) !== JSON.stringify(after[option]),
      );
      for (const option of changed)
        assert.ok(
          entry.browsertrix.options.includes(option),
          `${entry.key} changes ${option}, which its entry does not name`,
        );
    }
  });
});
