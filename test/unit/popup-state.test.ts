import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyCounts } from '../../src/core/model.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { CrawlSummary } from '../../src/messaging/protocol.ts';
import { fromSettings } from '../../src/settings/settings-values.ts';
import {
  createPopupStore,
  hasIssuesSummary,
  hiddenErrorCount,
  initialPopupState,
  NOT_A_SITE_NOTE,
  reducePopup,
  startBlockedReason,
  type PopupState,
} from '../../src/popup/popup-state.ts';

function summary(overrides: Partial<CrawlSummary> = {}): CrawlSummary {
  const startUrl = overrides.startUrl ?? 'https://example.com/';
  return {
    id: 'crawl-1',
    startUrl,
    state: 'running',
    createdAt: 0,
    endedAt: null,
    counts: emptyCounts(),
    queued: 0,
    message: null,
    settings: { ...DEFAULT_SETTINGS, startUrl },
    ...overrides,
  };
}

const start = initialPopupState();

describe('popup state: the Start form', () => {
  it('opens loading, on the site screen, with the default form and nothing in flight', () => {
    assert.equal(start.isLoading, true);
    assert.equal(start.screen, 'site');
    assert.equal(start.values.startUrl, '');
    assert.equal(start.crawls, null);
    assert.equal(start.busyId, null);
    assert.equal(start.isStarting, false);
  });

  it('fills the start URL from the tab until the user types one', () => {
    assert.equal(reducePopup(start, { type: 'tab-read', origin: 'https://a.test' }).values.startUrl, 'https://a.test/');
    const typed = reducePopup(start, {
      type: 'form-edited',
      values: { ...start.values, startUrl: 'https://mine.test/' },
    });
    assert.equal(
      reducePopup(typed, { type: 'tab-read', origin: 'https://a.test' }).values.startUrl,
      'https://mine.test/',
    );
  });

  it('notes a tab that is no web site, and drops the note once a URL is typed', () => {
    const noted = reducePopup(start, { type: 'tab-read', origin: null });
    assert.equal(noted.note, NOT_A_SITE_NOTE);
    assert.equal(reducePopup(noted, { type: 'form-edited', values: { ...noted.values, startUrl: 'h' } }).note, null);
  });

  it('keeps the note when only a setting changes', () => {
    const noted = reducePopup(start, { type: 'tab-read', origin: null });
    const edited = reducePopup(noted, {
      type: 'form-edited',
      values: { ...noted.values, settings: fromSettings({ maxPages: 3 }) },
    });
    assert.equal(edited.note, NOT_A_SITE_NOTE);
    assert.equal(edited.hasEditedSettings, true);
    assert.equal(edited.hasEditedUrl, false);
  });

  it('takes the remembered settings until the user changes a setting', () => {
    const remembered = fromSettings({ maxPages: 7 });
    assert.equal(reducePopup(start, { type: 'remembered-read', settings: remembered }).values.settings, remembered);
    const mine = fromSettings({ maxPages: 3 });
    const edited = reducePopup(start, { type: 'form-edited', values: { ...start.values, settings: mine } });
    assert.equal(reducePopup(edited, { type: 'remembered-read', settings: remembered }).values.settings, mine);
  });

  it('opens the disclosure for a message on a hidden field, and asks for focus each time', () => {
    const onRow = reducePopup(start, { type: 'field-errors', fields: { maxPages: 'too many' } });
    assert.equal(onRow.isMoreOpen, false);
    assert.equal(onRow.focusRequest, 1);
    const hidden = reducePopup(onRow, { type: 'field-errors', fields: { productToken: 'bad' } });
    assert.equal(hidden.isMoreOpen, true);
    assert.equal(hidden.focusRequest, 2);
  });

  it('counts only messages out of sight as hidden', () => {
    assert.equal(hiddenErrorCount({ startUrl: 'x', maxPages: 'x', delayMs: 'x' }), 0);
    assert.equal(hiddenErrorCount({ startUrl: 'x', maxDepth: 'x', productToken: 'x' }), 2);
  });

  it('clears the messages when a Start goes out, and folds the form once it started', () => {
    const failed: PopupState = {
      ...start,
      banner: 'old',
      fieldErrors: { maxPages: 'x' },
      isFormWanted: true,
      note: 'n',
    };
    const sent = reducePopup(failed, { type: 'start-sent' });
    assert.deepEqual(sent.fieldErrors, {});
    assert.equal(sent.banner, null);
    assert.equal(sent.isStarting, true);
    const started = reducePopup(sent, { type: 'started' });
    assert.equal(started.note, null);
    assert.equal(started.isFormWanted, false);
    assert.equal(reducePopup(started, { type: 'start-over' }).isStarting, false);
  });
});

describe('popup state: screens and the Crawls list', () => {
  it('drops the banner and the old list when the Crawls view opens', () => {
    const listed: PopupState = { ...start, banner: 'old', crawls: [summary()] };
    const opened = reducePopup(listed, { type: 'screen-opened', screen: 'crawls' });
    assert.equal(opened.screen, 'crawls');
    assert.equal(opened.banner, null);
    assert.equal(opened.crawls, null);
  });

  it('keeps the list when the site screen opens', () => {
    const listed: PopupState = { ...start, screen: 'crawls', crawls: [summary()] };
    assert.equal(reducePopup(listed, { type: 'screen-opened', screen: 'site' }).crawls?.length, 1);
  });

  it('shows a picked crawl on the site screen with the form folded', () => {
    const picked = reducePopup(
      { ...start, screen: 'crawls', banner: 'b', isFormWanted: true },
      { type: 'crawl-opened' },
    );
    assert.deepEqual([picked.screen, picked.banner, picked.isFormWanted], ['site', null, false]);
  });

  it('shows a re-run crawl on the site screen, leaving the banner as it is', () => {
    const shown = reducePopup({ ...start, screen: 'crawls', banner: 'b' }, { type: 'rerun-shown' });
    assert.deepEqual([shown.screen, shown.banner], ['site', 'b']);
  });

  it('takes a deleted crawl out of the list', () => {
    const listed: PopupState = { ...start, crawls: [summary({ id: 'a' }), summary({ id: 'b' })] };
    assert.deepEqual(
      reducePopup(listed, { type: 'crawl-deleted', crawlId: 'a' }).crawls?.map((crawl) => crawl.id),
      ['b'],
    );
    assert.equal(reducePopup(start, { type: 'crawl-deleted', crawlId: 'a' }).crawls, null);
  });
});

describe('popup state: what the site screen shows', () => {
  it('blocks Start while a crawl of the site runs, or is paused for the same site', () => {
    assert.equal(startBlockedReason(null, 'https://example.com/'), null);
    assert.match(startBlockedReason(summary({ state: 'running' }), 'https://other.test/') ?? '', /running/);
    assert.match(startBlockedReason(summary({ state: 'paused' }), ' https://example.com/x ') ?? '', /paused/);
    assert.equal(startBlockedReason(summary({ state: 'paused' }), 'https://other.test/'), null);
    assert.equal(startBlockedReason(summary({ state: 'finished' }), 'https://example.com/'), null);
  });

  it('summarises issues once the crawl is not running and has rows', () => {
    const rows = { ...emptyCounts(), done: 2 };
    assert.equal(hasIssuesSummary(summary({ state: 'running', counts: rows })), false);
    assert.equal(hasIssuesSummary(summary({ state: 'finished', counts: emptyCounts() })), false);
    assert.equal(hasIssuesSummary(summary({ state: 'stopped', counts: rows })), true);
  });
});

describe('popup store', () => {
  it('tells its listeners after a change, and not after a dispatch that changes nothing', () => {
    const store = createPopupStore();
    let calls = 0;
    const unsubscribe = store.subscribe(() => (calls += 1));
    const mine = fromSettings({ maxPages: 3 });
    store.dispatch({ type: 'form-edited', values: { ...store.getState().values, settings: mine } });
    // The user's setting wins over the remembered ones: nothing changes.
    store.dispatch({ type: 'remembered-read', settings: fromSettings({ maxPages: 7 }) });
    assert.equal(calls, 1);
    assert.equal(store.getState().values.settings, mine);
    unsubscribe();
    store.dispatch({ type: 'banner', text: null });
    assert.equal(calls, 1);
  });
});
