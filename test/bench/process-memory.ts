/**
 * Memory of a Chromium launched by the driver, read from /proc (Linux): the
 * browser process found by its profile folder on the command line, and all
 * its descendants (renderers, the extension's worker, utilities).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { browserProcesses, processKind } from './process-stats.ts';

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function parentOf(pid: number): number {
  // /proc/PID/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after the last ')'.
  const stat = readOr(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[1] ?? 0);
}

/**
 * Proportional set size of a process, in KiB: its private memory plus its share of memory mapped by
 * several processes. Summing RSS over Chromium's processes would count shared code once per process.
 */
function pssKiB(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(readOr(`/proc/${pid}/smaps_rollup`));
  return match ? Number(match[1]) : 0;
}

/** Memory (PSS), in bytes, of the browser whose command line mentions `profileDir`, children included. */
export function browserRssBytes(profileDir: string): number {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const roots = new Set(pids.filter((pid) => readOr(`/proc/${pid}/cmdline`).includes(profileDir)));
  const members = new Set<number>();
  for (const pid of pids) {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parentOf(p), hops += 1) {
      if (roots.has(p)) {
        members.add(pid);
        break;
      }
    }
  }
  let total = 0;
  for (const pid of members) total += pssKiB(pid) * 1024;
  return total;
}

/**
 * Samples {@link browserRssBytes} every `everyMs` until stopped; reports the peak. `spentMs`: the time this
 * process spent reading it (about 25 ms a read), to take out of its own CPU figure.
 */
export function samplePeakRss(profileDir: string, everyMs = 100): { stop: () => number; spentMs: () => number } {
  let spent = 0;
  const read = (): number => {
    const start = performance.now();
    const bytes = browserRssBytes(profileDir);
    spent += performance.now() - start;
    return bytes;
  };
  let peak = read();
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, read());
    },
    spentMs: () => spent,
  };
}

/** Memory (PSS), in bytes, of the browser whose command line mentions `profileDir`, by process kind (`processKind`). */
export function browserPssByKind(profileDir: string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const pid of browserProcesses(profileDir)) {
    const kind = processKind(readOr(`/proc/${pid}/cmdline`).replace(/\0/g, ' '));
    totals[kind] = (totals[kind] ?? 0) + pssKiB(pid) * 1024;
  }
  return totals;
}
