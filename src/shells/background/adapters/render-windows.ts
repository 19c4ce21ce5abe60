/**
 * Which windows the next worker closes as render windows a stopped one opened and never noted (the
 * renderers' own notes are in `render-window-host.ts`). Pure: the windows come in, as `windows.getAll` gives them.
 */

/**
 * The render window a worker stopped between creating it and noting it: opened after the windows noted as
 * open before it, and, as a render window is, minimized with one tab (a window the user opened since is
 * neither, or is left alone).
 */
export function unnotedRenderWindows(
  before: readonly number[],
  windows: readonly { id?: number; state?: string; tabs?: readonly unknown[] }[],
): number[] {
  return windows.flatMap((w) =>
    w.id !== undefined && !before.includes(w.id) && w.state === 'minimized' && w.tabs?.length === 1 ? [w.id] : [],
  );
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
