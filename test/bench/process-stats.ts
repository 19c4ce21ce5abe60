/**
 * CPU time and memory of processes, read from /proc (Linux), for the bench:
 * the CPU each kind of Chromium process spent (browser, extension renderer,
 * network and storage services…), the CPU of the service worker's own thread,
 * and the peak memory of a child process such as wget.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux when it cannot be asked). */
export const CLOCK_TICKS_PER_SECOND: number = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/PID/stat after the command name (which may hold spaces), from `state` on. */
function statFields(path: string): string[] {
  const stat = readOr(path);
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User + system CPU time of a process or thread from its `stat` file, in ms. */
function cpuMsOf(statPath: string): number {
  const fields = statFields(statPath);
  // utime and stime are fields 14 and 15 of stat; `state` (field 3) is index 0 here.
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Every process id now running. */
function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** The browser whose command line names `profileDir`, and all its descendants (zygotes, renderers, utilities). */
export function browserProcesses(profileDir: string): number[] {
  const pids = allPids();
  const parent = new Map(pids.map((pid) => [pid, Number(statFields(`/proc/${pid}/stat`)[1] ?? 0)]));
  const roots = new Set(pids.filter((pid) => readOr(`/proc/${pid}/cmdline`).includes(profileDir)));
  return pids.filter((pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parent.get(p) ?? 0, hops += 1) if (roots.has(p)) return true;
    return false;
  });
}

/** What a Chromium process is, from its command line: `browser`, `renderer`, `extension`, `gpu`, `network`, `storage`, … */
export function processKind(cmdline: string): string {
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (type === undefined) return 'browser';
  if (type === 'renderer') return cmdline.includes('--extension-process') ? 'extension' : 'renderer';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'utility') {
    const sub = /--utility-sub-type=([\w.]+)/.exec(cmdline)?.[1] ?? '';
    if (sub.startsWith('network.')) return 'network';
    if (sub.startsWith('storage.')) return 'storage';
    return 'utility';
  }
  return type;
}

/**
 * CPU time so far of the browser using `profileDir`, in ms, by process kind,
 * plus `serviceWorker`: the extension process's `ServiceWorker` thread(s)
 * alone (part of `extension`). A process that exited is not counted.
 */
export function browserCpuMs(profileDir: string): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const pid of browserProcesses(profileDir)) {
    const kind = processKind(readOr(`/proc/${pid}/cmdline`).replace(/\0/g, ' '));
    totals[kind] = (totals[kind] ?? 0) + cpuMsOf(`/proc/${pid}/stat`);
    if (kind !== 'extension') continue;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      if (!readOr(`/proc/${pid}/task/${tid}/comm`).startsWith('ServiceWorker')) continue;
      totals['serviceWorker'] = (totals['serviceWorker'] ?? 0) + cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
    }
  }
  return totals;
}

/** `after - before`, kind by kind (a kind missing before counts from 0). */
export function cpuDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [kind, ms] of Object.entries(after)) delta[kind] = ms - (before[kind] ?? 0);
  return delta;
}

/** Samples a child process's peak resident memory (`VmHWM`, in bytes) and its CPU time until stopped or it exits. */
export function sampleChildProcess(pid: number, everyMs = 20): { stop: () => { peakRssBytes: number; cpuMs: number } } {
  let peakKiB = 0;
  let cpuMs = 0;
  const sample = (): void => {
    const status = readOr(`/proc/${pid}/status`);
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status);
    if (hwm !== null) peakKiB = Math.max(peakKiB, Number(hwm[1]));
    if (status !== '') cpuMs = Math.max(cpuMs, cpuMsOf(`/proc/${pid}/stat`));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakRssBytes: peakKiB * 1024, cpuMs };
    },
  };
}

/**
 * CPU time of this process's children that have exited and been waited for
 * (`cutime` + `cstime` of /proc/self/stat), in ms: exact for a child such as
 * wget once it has exited, where sampling it would miss its last moments.
 */
export function exitedChildrenCpuMs(): number {
  const fields = statFields('/proc/self/stat');
  return ((Number(fields[13] ?? 0) + Number(fields[14] ?? 0)) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time the whole machine spent busy (every core, every process, the kernel included), and in all, since boot, in ms. */
export function machineCpuMs(): { busyMs: number; totalMs: number } {
  const line = readOr('/proc/stat').split('\n')[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  const all = busy + (idle ?? 0) + (iowait ?? 0);
  return { busyMs: (busy * 1000) / CLOCK_TICKS_PER_SECOND, totalMs: (all * 1000) / CLOCK_TICKS_PER_SECOND };
}
