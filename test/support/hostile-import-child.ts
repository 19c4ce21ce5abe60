/**
 * One hostile archive through `importArchive` (into a memory store), in a
 * process of its own: `node --import tsx hostile-import-child.ts FILE NAME`
 * prints one line of JSON: how the import ended (its start URL, or the
 * error's kind and message) and the process's memory (its resident size
 * before the import and its peak), so the test can bound what the readers
 * allocate, transient spikes included.
 */
import { openAsBlob, readFileSync } from 'node:fs';
import { importArchive } from '../../src/import/import-crawl.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';

const [path, name] = process.argv.slice(2);
if (path === undefined || name === undefined) throw new Error('usage: hostile-import-child.ts FILE NAME');
const blob = await openAsBlob(path);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
let outcome: Record<string, unknown>;
try {
  const { crawl } = await importArchive(new MemoryCrawlStore(), blob, name);
  outcome = { ok: true, startUrl: crawl.settings.startUrl, rows: crawl.counts.done };
} catch (error) {
  outcome = {
    ok: false,
    kind: (error as { kind?: unknown }).kind ?? null,
    name: (error as Error).name,
    message: error instanceof Error ? error.message : String(error),
  };
}
/**
 * The peak resident size of this process since it started: Linux's VmHWM (a fork inherits its parent's maxRSS,
 * so `resourceUsage().maxRSS` may be the test runner's peak; VmHWM starts again at exec), else maxRSS.
 */
function peak(): number {
  try {
    const line = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (line?.[1] !== undefined) return Number(line[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}
const peakRss = peak();
process.stdout.write(
  `${JSON.stringify({ ...outcome, rssBefore, peakRss, ms: Math.round(performance.now() - started) })}\n`,
);
