/**
 * The memory of a browser started by a child process (Tabcrawl's command
 * line, or the Crawlee child), sampled over a crawl, from /proc (Linux): the
 * Chromium processes among the child's descendants, summed as PSS
 * (proportional set size: each process's private memory and its share of
 * memory mapped by several, so that Chromium's shared code counts once, not
 * once per process as summing RSS would). The child's own Node process is
 * left out: this is the browser's memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processKind } from './process-stats.ts';

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Every process's parent, by process id. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOr(`/proc/${name}/stat`);
    map.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0));
  }
  return map;
}

/**
 * Whether a command line, as /proc has it, is a Chromium process: its program is named chromium or chrome.
 * The browser process's arguments are NUL-separated; its children (zygotes, renderers, utilities) rewrite
 * their process title into one space-separated string, so the program is the first word of that.
 */
export function isChromiumCommand(cmdline: string): boolean {
  const program = (cmdline.split('\0')[0] ?? '').split(' ')[0] ?? '';
  return /(^|\/)(chromium|chrome)(-browser)?$/.test(program);
}

/** The Chromium processes among `rootPid`'s descendants. */
export function chromiumDescendants(rootPid: number): number[] {
  const parentOf = parents();
  return [...parentOf.keys()].filter((pid) => {
    if (pid === rootPid) return false;
    let p = parentOf.get(pid) ?? 0;
    for (let hops = 0; p > 1 && hops < 30 && p !== rootPid; hops += 1) p = parentOf.get(p) ?? 0;
    return p === rootPid && isChromiumCommand(readOr(`/proc/${pid}/cmdline`));
  });
}

/**
 * PSS of the Chromium processes under `rootPid` by kind (`processKind`: `browser`, `extension` (the
 * extension's worker and pages), `renderer` (the render window's pages), `gpu`, `network`, `storage`,
 * `zygote`…), in bytes; kinds without a process left out. The split that says which process grows.
 */
export function chromiumTreePssByKind(rootPid: number): Record<string, number> {
  const byKind: Record<string, number> = {};
  for (const pid of chromiumDescendants(rootPid)) {
    const match = /^Pss:\s+(\d+) kB/m.exec(readOr(`/proc/${pid}/smaps_rollup`));
    const kind = processKind(readOr(`/proc/${pid}/cmdline`).replace(/\0/g, ' '));
    byKind[kind] = (byKind[kind] ?? 0) + (match ? Number(match[1]) : 0) * 1024;
  }
  return byKind;
}

/** PSS of the Chromium processes under `rootPid`, in bytes (0 when it has none yet). */
export function chromiumTreePssBytes(rootPid: number): number {
  return Object.values(chromiumTreePssByKind(rootPid)).reduce((sum, b) => sum + b, 0);
}

/** One reading: when (ms since the epoch, the server log's clock), how much (bytes), and by process kind. */
export interface MemorySample {
  at: number;
  bytes: number;
  byKind: Record<string, number>;
}

/**
 * Samples {@link chromiumTreePssBytes} every `everyMs` until stopped (a read walks every process's page
 * tables, ~25 ms here: once a second keeps the bench's own load small). Readings of 0 (no browser yet,
 * or between two of Crawlee's browsers) are kept: {@link tenths} takes them out.
 */
export function sampleChromiumTree(rootPid: number, everyMs = 1000): { stop: () => MemorySample[] } {
  const samples: MemorySample[] = [];
  const read = (): void => {
    const byKind = chromiumTreePssByKind(rootPid);
    const bytes = Object.values(byKind).reduce((sum, b) => sum + b, 0);
    samples.push({ at: performance.timeOrigin + performance.now(), bytes, byKind });
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/** Memory over a crawl: the mean of its first and last tenth, their ratio, the peak. Bytes; NaN without samples. */
export interface MemoryTenths {
  firstTenthBytes: number;
  lastTenthBytes: number;
  /** last ÷ first: 1 is flat; the target is within 10 % (≤ 1.1). */
  ratio: number;
  peakBytes: number;
  samples: number;
  /** The mean of each tenth of the span, in order (NaN for a tenth without samples): flat, a slope or a step. */
  byTenthBytes: number[];
  /** The same by process kind: which process a rise is in (a kind absent from a tenth's samples counts 0). */
  byKindByTenthBytes: Record<string, number[]>;
}

/**
 * The samples taken from `from` to `to` (the crawl's span in the server log: its first request and its last
 * response), with a browser (bytes above 0), split by time into tenths; the mean of the first and of the last.
 */
export function tenths(samples: readonly MemorySample[], from: number, to: number): MemoryTenths {
  const during = samples.filter((s) => s.at >= from && s.at <= to && s.bytes > 0);
  const tenth = (to - from) / 10;
  const mean = (list: readonly MemorySample[]): number =>
    list.length === 0 ? Number.NaN : list.reduce((sum, s) => sum + s.bytes, 0) / list.length;
  const inTenth = (k: number): MemorySample[] =>
    during.filter((s) => s.at >= from + k * tenth && (k === 9 ? s.at <= to : s.at < from + (k + 1) * tenth));
  const kinds = [...new Set(during.flatMap((s) => Object.keys(s.byKind)))].sort();
  const kindMean = (list: readonly MemorySample[], kind: string): number =>
    list.length === 0 ? Number.NaN : list.reduce((sum, s) => sum + (s.byKind[kind] ?? 0), 0) / list.length;
  const first = mean(during.filter((s) => s.at <= from + tenth));
  const last = mean(during.filter((s) => s.at >= to - tenth));
  return {
    firstTenthBytes: first,
    lastTenthBytes: last,
    ratio: last / first,
    peakBytes: during.length === 0 ? Number.NaN : Math.max(...during.map((s) => s.bytes)),
    samples: during.length,
    byTenthBytes: Array.from({ length: 10 }, (_, k) => mean(inTenth(k))),
    byKindByTenthBytes: Object.fromEntries(
      kinds.map((kind) => [kind, Array.from({ length: 10 }, (_, k) => kindMean(inTenth(k), kind))]),
    ),
  };
}
