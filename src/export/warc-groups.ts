/**
 * The rows of an export read in groups, each with the stored bodies its
 * records will carry, read at once (one storage transaction for a group's
 * bodies, where reading them one by one took one each), and the next group
 * read while the writer works on this one.
 *
 * Memory stays flat: a group holds at most {@link GROUP_ROWS} rows and about
 * {@link GROUP_BODY_BYTES} of bodies (by their rows' `contentLength`), and at
 * most two groups are held, the one being written and the one being read.
 */
import type { PageRecord } from '../core/model.ts';
import type { ExportSource } from './export-source.ts';

/** Rows of one group, at most. */
export const GROUP_ROWS = 256;
/** Body bytes of one group, about (estimated from the rows, read before their bodies). */
export const GROUP_BODY_BYTES = 4 * 1024 * 1024;
/** What a body is assumed to weigh when its row does not say. */
const UNKNOWN_BODY_BYTES = 256 * 1024;

/** Rows in order, with the bodies read for them. */
export interface RowGroup {
  rows: PageRecord[];
  /** Bodies by hex SHA-256: the stored bytes, or undefined when none is stored. A body the writer finds missing here, it reads alone. */
  bodies: Map<string, Uint8Array | undefined>;
}

/** Whether a `response` record for this row would carry a stored body: an answered GET with a body stored. */
export function mayCarryBody(row: PageRecord): boolean {
  return row.status !== null && row.sha256 !== null && (row.methods.at(-1) ?? 'GET') === 'GET';
}

/**
 * The source's rows in groups with their bodies. A body is read once per group, and not at all for a row
 * marked as a duplicate of a body read in an earlier group (its record will be a revisit of it).
 */
export async function* rowGroups(source: ExportSource): AsyncGenerator<RowGroup> {
  const readBefore = new Set<string>();
  let rows: PageRecord[] = [];
  let keys = new Set<string>();
  let bytes = 0;
  const take = async (): Promise<RowGroup> => {
    const group = { rows, bodies: await bodiesOf(source, [...keys]) };
    for (const key of keys) readBefore.add(key);
    rows = [];
    keys = new Set();
    bytes = 0;
    return group;
  };
  for await (const row of source.rows()) {
    rows.push(row);
    const key = row.sha256;
    if (key !== null && mayCarryBody(row) && !keys.has(key) && !(row.duplicateOf !== null && readBefore.has(key))) {
      keys.add(key);
      bytes += row.contentLength ?? UNKNOWN_BODY_BYTES;
    }
    if (rows.length >= GROUP_ROWS || bytes >= GROUP_BODY_BYTES) yield await take();
  }
  if (rows.length > 0) yield await take();
}

async function bodiesOf(source: ExportSource, keys: string[]): Promise<Map<string, Uint8Array | undefined>> {
  if (keys.length === 0) return new Map();
  const bytes =
    source.bodies === undefined ? await Promise.all(keys.map((key) => source.body(key))) : await source.bodies(keys);
  return new Map(keys.map((key, index) => [key, bytes[index]]));
}

/**
 * `items`, with the next one always asked for before the current one is
 * handed out: reading the next group overlaps writing this one (the reads run
 * in the browser's storage, on another thread, while the page compresses).
 */
export async function* readingAhead<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  let next = iterator.next();
  let isDone = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done === true) {
        isDone = true;
        return;
      }
      next = iterator.next();
      yield result.value;
    }
  } finally {
    if (!isDone) {
      // Stopped early: the read under way is not wanted (nor its failure), and the source is closed.
      next.catch(() => undefined);
      await iterator.return?.();
    }
  }
}
