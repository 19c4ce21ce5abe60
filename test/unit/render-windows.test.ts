/** Which windows the next worker closes as render windows a stopped one left unnoted (`render-windows.ts`). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unnotedRenderWindows } from '../../src/shells/background/adapters/render-windows.ts';

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
});
