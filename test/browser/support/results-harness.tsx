/** Renders the results browser in a plain page with fakes, and helpers to act on it. */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import type { PageLocation } from '../../../src/results/results-address.ts';
import { ResultsView, type ResultsViewProps } from '../../../src/results/results-view.tsx';

export interface MountedResults {
  container: HTMLElement;
  byTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E;
  queryTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E | null;
  allByTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E[];
  unmount: () => Promise<void>;
}

/**
 * Renders `<ResultsView {...props} />` into a fixed-size box (800 × 600 px),
 * so the table has a known height and the virtualization can be measured.
 */
export async function mountResults(
  given: Omit<ResultsViewProps, 'saveCsv'> & Partial<Pick<ResultsViewProps, 'saveCsv'>>,
): Promise<MountedResults> {
  const props: ResultsViewProps = { saveCsv: () => Promise.reject(new Error('this test saves no CSV')), ...given };
  const container = document.createElement('div');
  container.style.cssText = 'position: fixed; inset: 0 auto auto 0; width: 1200px; height: 600px;';
  document.body.append(container);
  await act(() => {
    render(<ResultsView {...props} />, container);
  });
  const queryTestId = <E extends HTMLElement = HTMLElement>(testId: string): E | null =>
    container.querySelector<E>(`[data-testid="${testId}"]`);
  return {
    container,
    queryTestId,
    byTestId: <E extends HTMLElement = HTMLElement>(testId: string): E => {
      const element = queryTestId<E>(testId);
      if (element === null) throw new Error(`no element with data-testid="${testId}"`);
      return element;
    },
    allByTestId: <E extends HTMLElement = HTMLElement>(testId: string): E[] => [
      ...container.querySelectorAll<E>(`[data-testid="${testId}"]`),
    ],
    unmount: async () => {
      await act(() => {
        render(null, container);
      });
      container.remove();
    },
  };
}

/** Loads the results page's stylesheet into the test page (once), so layout can be measured. */
export async function loadResultsStyles(): Promise<void> {
  if (document.querySelector('link[data-results-styles]') !== null) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('../../../src/results/results-page.css', import.meta.url).href;
  link.dataset['resultsStyles'] = '';
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`could not load ${link.href}`)));
  });
  document.head.append(link);
  await loaded;
}

/** Presses a key on `target` (keydown, bubbling), inside `act`. */
export async function press(target: EventTarget, key: string): Promise<void> {
  await act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
}

/** A {@link PageLocation} in memory: a history of searches, Back and Forward by hand, a scroll the test sets. */
export interface FakeLocation extends PageLocation {
  /** The searches of the history, oldest first. */
  entries: string[];
  /** The index of the entry shown. */
  index: number;
  /** Goes one entry back, as the browser's Back button (then tells the page). */
  back: () => void;
  /** Sets the page's scroll as if the user scrolled, and tells the page. */
  scrollBy: (y: number) => void;
  /** Every `scrollTo` the page asked for, in order. */
  scrolledTo: number[];
}

export function fakeLocation(search: string): FakeLocation {
  const popListeners = new Set<() => void>();
  const scrollListeners = new Set<() => void>();
  let scrollY = 0;
  const fake: FakeLocation = {
    entries: [search],
    index: 0,
    scrolledTo: [],
    search: () => fake.entries[fake.index] ?? '',
    write: (next, isNewEntry) => {
      if (isNewEntry) {
        fake.entries = [...fake.entries.slice(0, fake.index + 1), next];
        fake.index += 1;
        scrollY = 0;
      } else {
        fake.entries[fake.index] = next;
      }
    },
    onPop: (listener) => {
      popListeners.add(listener);
      return () => popListeners.delete(listener);
    },
    scrollY: () => scrollY,
    scrollTo: (y) => {
      scrollY = y;
      fake.scrolledTo.push(y);
    },
    onScroll: (listener) => {
      scrollListeners.add(listener);
      return () => scrollListeners.delete(listener);
    },
    back: () => {
      fake.index = Math.max(0, fake.index - 1);
      scrollY = 0;
      popListeners.forEach((listener) => listener());
    },
    scrollBy: (y) => {
      scrollY = y;
      scrollListeners.forEach((listener) => listener());
    },
  };
  return fake;
}
