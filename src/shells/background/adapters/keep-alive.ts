/**
 * Keeps the service worker alive while a crawl runs, and wakes it if it died.
 *
 * Chromium stops an extension worker 30 s after its last extension event; a
 * long Crawl-delay or back-off would kill a crawl mid-way. Calling any
 * extension API every 20 s resets that timer. If the worker dies anyway
 * (browser pressure, a crash), an alarm wakes it and the crawl resumes from
 * IndexedDB.
 */
import browser from 'webextension-polyfill';

const PING_MS = 20_000;
export const WATCHDOG_ALARM = 'tabcrawl-watchdog';
/** Alarm period, in minutes: 30 s, the shortest Chrome allows packed extensions. */
const WATCHDOG_PERIOD_MIN = 0.5;

export class KeepAlive {
  private timer: ReturnType<typeof setInterval> | null = null;

  /** Turns the pings and the watchdog alarm on or off. */
  async set(active: boolean): Promise<void> {
    if (active && this.timer === null) {
      this.timer = setInterval(() => void browser.runtime.getPlatformInfo(), PING_MS);
      await browser.alarms.create(WATCHDOG_ALARM, { periodInMinutes: WATCHDOG_PERIOD_MIN });
    } else if (!active && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
      await browser.alarms.clear(WATCHDOG_ALARM);
    }
  }
}
