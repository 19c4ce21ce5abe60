/** A re-render every second while something counts down, for the popup's countdowns and run time. */
import { useEffect, useState } from 'preact/hooks';

/** Time between two re-renders of a running crawl's countdowns, in ms (no request is made). */
export const TICK_MS = 1000;

/** Re-renders every {@link TICK_MS} while `isTicking`; returns `now()` as of this render, ms since the epoch. */
export function useTick(now: () => number, isTicking: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!isTicking) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), TICK_MS);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now();
}
