/**
 * When a rendered page's network is quiet, the rule both renderers wait by (Chrome's `render-tab.ts`,
 * Firefox's `firefox-renderer.ts`): quiet once the page has loaded, nothing of it is held or under way, and
 * nothing new came for `quietMs`; capped at the render's deadline. Pure: the renderers feed it the clock
 * and what their tab reported, and sleep as it says (woken early by the tab's next activity).
 */

/** What a renderer waiting for quiet does next. */
export type QuietStep = { kind: 'quiet' } | { kind: 'capped' } | { kind: 'wait'; ms: number };

/** What the rule reads, times in ms (`Date.now()`-like). */
export interface QuietInputs {
  now: number;
  /** The render's cap: at or past it the wait ends, capped. */
  deadline: number;
  /** When the page last made or ended a request. */
  lastActivity: number;
  /** Whether the page has loaded and nothing of it is held or under way. */
  idle: boolean;
  quietMs: number;
  /** The longest wait while not idle (the renderer looks again then, for what no event tells it); Infinity: none. */
  busyPollMs: number;
}

/** The next step of the wait for quiet (see the module's comment). */
export function quietStep(inputs: QuietInputs): QuietStep {
  const { now, deadline, lastActivity, idle, quietMs, busyPollMs } = inputs;
  if (now >= deadline) return { kind: 'capped' };
  const idleMs = now - lastActivity;
  if (idle && idleMs >= quietMs) return { kind: 'quiet' };
  return { kind: 'wait', ms: Math.min(idle ? quietMs - idleMs : busyPollMs, deadline - now) };
}

/**
 * Sleeps `ms`, or less when the function handed to `setWake` is called first (the tab's next activity).
 * `setWake` is given null once the sleep is over.
 */
export async function sleepOrWake(ms: number, setWake: (wake: (() => void) | null) => void): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      resolve();
    }
    setWake(done);
  });
  setWake(null);
}
