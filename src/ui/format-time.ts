/**
 * Times for people, as every page and the command line write them: a
 * duration (`45 s`, `12 min`, `2 h 5 min`), a gap in seconds (`0.5 s`) and a
 * clock time (`12:03:10`, the local time zone).
 */

/** A duration for people, in s, min or h (`45 s`, `12 min`, `2 h 5 min`); `0 s` for anything below a second. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A gap in seconds as robots.txt writes it: `2 s`, `0.5 s`. */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** A clock time of today for people, `12:03:10` (24 h, the browser's time zone). */
export function clockTime(at: number): string {
  const date = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** A start time for the crawls list: `2026-01-31 12:03`. */
export function dateTime(at: number): string {
  const date = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
