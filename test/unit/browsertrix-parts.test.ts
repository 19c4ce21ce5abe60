/**
 * The Browsertrix hand-off's parts (src/handoff/browsertrix-parts.ts): each setting's from its entry in
 * core/setting-table.ts and the hand-off's own. That the config they make is the one Browsertrix reads is
 * tested in browsertrix-config.test.ts; here, that the parts fit together.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SETTING_ENTRIES, SETTING_TABLE } from '../../src/core/setting-table.ts';
import { DEFAULT_SETTINGS, withSessionGuard, type CrawlSettings } from '../../src/core/settings.ts';
import { BROWSERTRIX_PARTS, browsertrixHelp, inOrder, SCOPE_PART } from '../../src/handoff/browsertrix-parts.ts';

/** Settings the hand-off takes as its parts do (lists present, guards added), with every list non-empty. */
const SETTINGS = withSessionGuard({
  ...DEFAULT_SETTINGS,
  startUrl: 'https://www.example.com/docs/',
  excludePatterns: ['*?print=*'],
  extraOrigins: ['https://docs.example.org'],
  withCookies: true,
  jitterMs: 500,
} as CrawlSettings);
const HELP = browsertrixHelp(SETTINGS, '1.2.3');

/** The settings whose entry says nothing of them in the config: not carried over, and the header is silent. */
const UNSAID = ['maxBodyBytes'];

describe('the Browsertrix hand-off parts', () => {
  it('give each option, each sentence and each docs row a place of its own', () => {
    for (const [name, places] of [
      ['writes', inOrder((part) => part.writes).map((piece) => piece.at)],
      ['became', inOrder((part) => part.became).map((piece) => piece.at)],
      ['lost', inOrder((part) => part.lost).map((piece) => piece.at)],
    ] as const) {
      assert.equal(new Set(places).size, places.length, `two ${name} pieces share a place: ${places.join(', ')}`);
    }
  });

  it('write each Browsertrix option from one part only', () => {
    const writers = new Map<string, number>();
    for (const writes of inOrder((part) => part.writes)) {
      for (const option of Object.keys(writes.options(SETTINGS, HELP)))
        writers.set(option, (writers.get(option) ?? 0) + 1);
    }
    assert.ok(writers.size > 10);
    for (const [option, count] of writers) assert.equal(count, 1, `${option} is written by ${count} parts`);
  });

  it('say what becomes of every setting, in its own entry or in the part its entry names', () => {
    const says = (key: keyof typeof SETTING_TABLE): boolean => {
      const part = SETTING_TABLE[key].browsertrix;
      return part.writes !== undefined || part.became !== undefined || part.lost !== undefined;
    };
    for (const entry of SETTING_ENTRIES) {
      const by = entry.browsertrix.mappedBy;
      if (UNSAID.includes(entry.key)) assert.equal(by, undefined, entry.key);
      else if (by === undefined)
        assert.ok(says(entry.key), `${entry.key} says nothing of itself and names no part that does`);
      else if (by !== 'scope') {
        assert.ok(says(by), `${entry.key} is mapped by ${by}, which says nothing`);
        assert.equal(
          SETTING_TABLE[by].browsertrix.mappedBy,
          undefined,
          `${entry.key} is mapped by ${by}, which is mapped by another`,
        );
      }
    }
    assert.ok(SCOPE_PART.became !== undefined && BROWSERTRIX_PARTS.includes(SCOPE_PART));
  });

  it('write the scope part of a setting mapped by it into its sentence', () => {
    const before = SCOPE_PART.became?.text(SETTINGS, HELP);
    for (const entry of SETTING_ENTRIES.filter((each) => each.browsertrix.mappedBy === 'scope')) {
      const changed = {
        ...SETTINGS,
        [entry.key]: entry.key === 'pathPrefix' ? '/guide/' : !SETTINGS.includeSubdomains,
      };
      assert.notEqual(SCOPE_PART.became?.text(changed, browsertrixHelp(changed, '1.2.3')), before, entry.key);
    }
  });

  it('work out the pause after each page from the delay and the jitter, rounded up to a second', () => {
    assert.equal(HELP.pageExtraDelay, 2);
    assert.equal(browsertrixHelp({ ...SETTINGS, delayMs: 0, jitterMs: 0 }, '1.2.3').pageExtraDelay, 0);
    assert.equal(browsertrixHelp({ ...SETTINGS, delayMs: 3000, jitterMs: 0 }, '1.2.3').pageExtraDelay, 3);
  });

  it('make an extra site a seed only when its home page is in scope', () => {
    assert.deepEqual(HELP.extraSeeds, ['https://docs.example.org/']);
    const excluded = { ...SETTINGS, excludePatterns: ['https://docs.example.org/'] };
    assert.deepEqual(browsertrixHelp(excluded, '1.2.3').extraSeeds, []);
  });
});
