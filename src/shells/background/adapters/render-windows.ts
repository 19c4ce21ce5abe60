/**
 * Which windows the next worker closes as render windows a stopped one opened and never noted (the
 * renderers' own notes are in `render-window-host.ts`). Pure: the windows come in, as `windows.getAll` gives them.
 */

/**
 * The render window a worker stopped between creating it and noting it: opened after the windows noted as
 * open before it, and, as a render window is, minimized with one tab (Chrome's), or with every tab in a render
 * container (Firefox's, which is not minimized: its tabs open in containers of their own, render-containers.ts).
 * A window the user opened since is neither, and is left alone.
 * @param renderStores the `cookieStoreId`s of the render containers (none in Chrome).
 */
export function unnotedRenderWindows(
  before: readonly number[],
  windows: readonly { id?: number; state?: string; tabs?: readonly { id?: number; cookieStoreId?: string }[] }[],
  renderStores: readonly string[] = [],
): number[] {
  const inRenderContainer = (tab: { cookieStoreId?: string }): boolean =>
    tab.cookieStoreId !== undefined && renderStores.includes(tab.cookieStoreId);
  return windows.flatMap((w) => {
    if (w.id === undefined || before.includes(w.id)) return [];
    const tabs = w.tabs ?? [];
    const minimizedOneTab = w.state === 'minimized' && tabs.length === 1;
    const allInRenderContainers = tabs.length > 0 && tabs.every(inRenderContainer);
    return minimizedOneTab || allInRenderContainers ? [w.id] : [];
  });
}

/**
 * What closing a render window closes: the whole window when every tab in it is one Tabcrawl opened
 * (`ownTabs`), else only Tabcrawl's tabs there, so that a tab someone else opened in it stays open.
 */
export function whatToClose(
  ownTabs: readonly number[],
  windowTabs: readonly { id?: number }[],
): { window: true } | { tabs: number[] } {
  const ids = windowTabs.flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
  if (ids.every((id) => ownTabs.includes(id))) return { window: true };
  return { tabs: ids.filter((id) => ownTabs.includes(id)) };
}

/**
 * A render window as noted in `storage.session`: `true` (every tab in it is Tabcrawl's), the tabs Tabcrawl
 * opened in it, or, while a render tab is being created, `{ others }`: the tabs someone else had in it then,
 * so that the tab a worker stopped mid-creation left (whose id it never learnt) counts as Tabcrawl's.
 */
export type WindowNote = true | readonly number[] | { readonly others: readonly number[] };

/** A note as read back from `storage.session` (anything else: the whole window, as older notes said). */
export function windowNoteOf(value: unknown): WindowNote {
  const ids = (list: unknown[]): number[] => list.filter((id): id is number => Number.isInteger(id));
  if (Array.isArray(value)) return ids(value);
  if (typeof value === 'object' && value !== null && Array.isArray((value as { others?: unknown }).others))
    return { others: ids((value as { others: unknown[] }).others) };
  return true;
}

/** The tabs of a noted render window that are Tabcrawl's, given the tabs it has now; `true`: all of them. */
export function ownTabsOf(note: WindowNote, windowTabs: readonly { id?: number }[]): true | number[] {
  if (note === true) return true;
  if (!('others' in note)) return [...note];
  return windowTabs.flatMap((tab) => (tab.id === undefined || note.others.includes(tab.id) ? [] : [tab.id]));
}
