/** The results page's keys: `/` focuses the search, Esc closes the detail (the table's own keys are the grid's). */
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * Listens on the document while mounted.
 * @param isDetailOpen whether Esc has a detail to close.
 */
export function useResultsKeys(
  isDetailOpen: boolean,
  closeDetail: () => void,
  searchRef: RefObject<HTMLInputElement | null>,
): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape' && isDetailOpen) {
        event.preventDefault();
        closeDetail();
        return;
      }
      if (event.key === '/' && !isTextEntry(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isDetailOpen, closeDetail, searchRef]);
}

/** Whether typing `/` into `target` means the character, not the shortcut. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}
