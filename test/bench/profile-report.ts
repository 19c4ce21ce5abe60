/**
 * The top functions of a worker's CPU profile, named by their place in the
 * sources: the built extension's source maps turn `assets/index.ts-X.js:812`
 * back into `src/core/crawl/frontier-admit.ts:95`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { selfTimes, totalTimes, type CpuProfile } from './bench-stats.ts';

/** One line of the report. */
export interface TopFunction {
  functionName: string;
  /** `src/…/file.ts:line` (1-based) when a source map says, else the script's URL and line, or '' for V8's pseudo-frames. */
  location: string;
  selfMs: number;
  /** Share of the profile's busy time (idle left out), from 0 to 1. */
  share: number;
}

/** Where a script of the extension (`chrome-extension://ID/assets/x.js`) was built from, via its `.map` in `distDir`. */
function sourceLocator(distDir: string): (url: string, line: number, column: number) => string {
  const maps = new Map<string, SourceMap | null>();
  return (url, line, column) => {
    const path = /^chrome-extension:\/\/[^/]+\/(.+)$/.exec(url)?.[1];
    if (path === undefined) return url === '' ? '' : `${url}:${line + 1}`;
    let map = maps.get(path);
    if (map === undefined) {
      const mapFile = join(distDir, `${path}.map`);
      try {
        map = existsSync(mapFile)
          ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0])
          : null;
      } catch {
        map = null;
      }
      maps.set(path, map);
    }
    const entry = map?.findEntry(line, column);
    if (entry === undefined || !('originalSource' in entry)) return `${path}:${line + 1}`;
    // Sources are recorded relative to the map (`../../../work/main/src/…`): keep from the project's own folders on.
    const source = /(?:^|\/)((?:src|node_modules|test)\/.*)$/.exec(entry.originalSource)?.[1] ?? entry.originalSource;
    return `${source}:${entry.originalLine + 1}`;
  };
}

/** The `count` functions with the most self time, idle left out. */
export function topFunctions(profile: CpuProfile, distDir: string, count = 15): TopFunction[] {
  const locate = sourceLocator(distDir);
  const busy = selfTimes(profile).filter((entry) => entry.functionName !== '(idle)');
  const total = busy.reduce((sum, entry) => sum + entry.selfMs, 0);
  return busy.slice(0, count).map((entry) => ({
    functionName: entry.functionName === '' ? '(anonymous)' : entry.functionName,
    location: locate(entry.url, entry.lineNumber, entry.columnNumber),
    selfMs: entry.selfMs,
    share: total > 0 ? entry.selfMs / total : 0,
  }));
}

/**
 * The `count` functions of Tabcrawl's own sources (`src/`) with the most
 * total time (their callees' included), with their share of the busy time:
 * which of our functions the self time of IndexedDB, Dexie or `fetch` is spent for.
 */
export function topOwnFunctions(profile: CpuProfile, distDir: string, count = 15): TopFunction[] {
  const locate = sourceLocator(distDir);
  const busyTotal = selfTimes(profile)
    .filter((entry) => entry.functionName !== '(idle)')
    .reduce((sum, entry) => sum + entry.selfMs, 0);
  return totalTimes(profile)
    .map((entry) => ({
      functionName: entry.functionName === '' ? '(anonymous)' : entry.functionName,
      location: locate(entry.url, entry.lineNumber, entry.columnNumber),
      selfMs: entry.selfMs,
      share: busyTotal > 0 ? entry.selfMs / busyTotal : 0,
    }))
    .filter((entry) => entry.location.startsWith('src/'))
    .slice(0, count);
}
