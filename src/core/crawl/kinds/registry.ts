/** Which module does each kind of work (see `work-kind.ts`). A new kind is a module and a line here. */
import type { EntryKind } from '../../model.ts';
import { externalKind } from './external-kind.ts';
import { pageKind } from './page-kind.ts';
import { resourceKind } from './resource-kind.ts';
import { sitemapKind } from './sitemap-kind.ts';
import type { WorkKind } from './work-kind.ts';

const KINDS: Readonly<Record<EntryKind, WorkKind>> = { page: pageKind, sitemap: sitemapKind, resource: resourceKind, external: externalKind };

export function workKindOf(kind: EntryKind): WorkKind {
  return KINDS[kind];
}
