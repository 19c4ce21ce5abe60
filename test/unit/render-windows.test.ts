/** Which windows the next worker closes as render windows a stopped one left unnoted (`render-windows.ts`). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ownTabsOf,
  unnotedRenderWindows,
  whatToClose,
  windowNoteOf,
} from '../../src/shells/background/adapters/render-windows.ts';

describe('render windows left unnoted by a stopped worker', () => {
  it('are the minimized one-tab windows opened after the pending note, and no other', () => {
    const windows = [
      { id: 1, state: 'normal', tabs: [{}, {}] }, // the user's, open before
      { id: 2, state: 'minimized', tabs: [{}] }, // the user's, minimized before
      { id: 7, state: 'minimized', tabs: [{}] }, // the render window
      { id: 8, state: 'normal', tabs: [{}] }, // opened since by the user
      { id: 9, state: 'minimized', tabs: [{}, {}] }, // minimized since, with two tabs
      { state: 'minimized', tabs: [{}] }, // no id
    ];
    assert.deepEqual(unnotedRenderWindows([1, 2], windows), [7]);
    assert.deepEqual(unnotedRenderWindows([1, 2, 7], windows), []);
  });

  it('are, in Firefox, the windows opened after the pending note whose every tab is in a render container', () => {
    const windows = [
      { id: 1, state: 'normal', tabs: [{ cookieStoreId: 'firefox-default' }] }, // the user's, open before
      { id: 7, state: 'normal', tabs: [{ cookieStoreId: 'firefox-container-9' }] }, // the render window
      { id: 8, state: 'normal', tabs: [{ cookieStoreId: 'firefox-default' }] }, // opened since by the user
      {
        id: 9,
        state: 'normal',
        tabs: [{ cookieStoreId: 'firefox-container-9' }, { cookieStoreId: 'firefox-default' }],
      },
      { id: 10, state: 'normal', tabs: [{ cookieStoreId: 'firefox-container-2' }] }, // the user's own container
      { id: 11, state: 'normal', tabs: [] },
    ];
    assert.deepEqual(unnotedRenderWindows([1], windows, ['firefox-container-9']), [7]);
    assert.deepEqual(unnotedRenderWindows([1], windows, []), [], 'no render container: none');
    assert.deepEqual(unnotedRenderWindows([1, 7], windows, ['firefox-container-9']), []);
  });

  it("closes the whole render window when every tab in it is Tabcrawl's, else only Tabcrawl's tabs", () => {
    assert.deepEqual(whatToClose([3, 4], [{ id: 3 }, { id: 4 }]), { window: true });
    assert.deepEqual(whatToClose([3], [{ id: 3 }]), { window: true });
    // A page another program opened in the window (the command line's driver opens its pages in the last one).
    assert.deepEqual(whatToClose([3, 4], [{ id: 3 }, { id: 9 }, { id: 4 }]), { tabs: [3, 4] });
    assert.deepEqual(whatToClose([3], [{ id: 9 }]), { tabs: [] });
    assert.deepEqual(whatToClose([], [{}]), { window: true });
  });

  it("counts as Tabcrawl's the tab a worker stopped while creating it, from the note made before", () => {
    // Noted before tabs.create: tab 9 is someone else's; 3 (the blank tab) and 12 (the unnoted render tab) are Tabcrawl's.
    const note = windowNoteOf({ others: [9] });
    assert.deepEqual(ownTabsOf(note, [{ id: 3 }, { id: 9 }, { id: 12 }]), [3, 12]);
    assert.deepEqual(whatToClose([3, 12], [{ id: 3 }, { id: 12 }]), { window: true });
    // With no other tab, the whole window is closed.
    assert.deepEqual(ownTabsOf(windowNoteOf({ others: [] }), [{ id: 3 }, { id: 12 }]), [3, 12]);
    // Notes as written before: a list of tabs, or true; anything else reads as the whole window.
    assert.deepEqual(ownTabsOf(windowNoteOf([3, 'x', 4]), [{ id: 3 }, { id: 5 }]), [3, 4]);
    assert.equal(ownTabsOf(windowNoteOf(true), [{ id: 3 }]), true);
    assert.equal(windowNoteOf('junk'), true);
  });
});
