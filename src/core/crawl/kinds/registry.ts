/** Which module does each kind of work (see `work-kind.ts`). A new kind is a module and a line here. */
import type { EntryKind, RowKind } from '../../model.ts';
import { externalKind } from './external-kind.ts';
import { pageKind } from './page-kind.ts';
import { resourceKind } from './resource-kind.ts';
import { sitemapKind } from './sitemap-kind.ts';
import type { RowCounter, WorkKind } from './work-kind.ts';

const KINDS: Readonly<Record<EntryKind, WorkKind>> = {
  page: pageKind,
  sitemap: sitemapKind,
  resource: resourceKind,
  external: externalKind,
};

export function workKindOf(kind: EntryKind): WorkKind {
  return KINDS[kind];
}

/** Which counter of `CrawlCounts` counts a finished row of each row kind (see `WorkKind.rowCounters`); absent: `done` only. */
const ROW_COUNTERS: Readonly<Partial<Record<RowKind, RowCounter>>> = Object.assign(
  {},
  ...Object.values(KINDS).map((kind) => kind.rowCounters),
);

/** The counter of `CrawlCounts` that counts a finished row of this kind besides `done`, or undefined. */
export function rowCounterOf(kind: RowKind): RowCounter | undefined {
  return ROW_COUNTERS[kind];
}
