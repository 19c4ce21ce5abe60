/**
 * Which windows the next worker closes as render windows a stopped one opened and never noted (the
 * renderers' own notes are in `chrome-renderer.ts`). Pure: the windows come in, as `windows.getAll` gives them.
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
