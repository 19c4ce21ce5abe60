/**
 * docs/browsertrix.md's mapping table ("What is mapped to what"), as Markdown: one row per part of the hand-off
 * that has one (`became.row`: each setting's in `core/setting-table.ts`, the hand-off's own in
 * `browsertrix-parts.ts`), in the order of the header's sentences. `test/unit/browsertrix-docs.test.ts` keeps
 * the block between docs/browsertrix.md's {@link MAPPING_TABLE_START} and {@link MAPPING_TABLE_END} markers
 * equal to {@link mappingTableMarkdown}. Pure: no I/O.
 */
import { inOrder } from './browsertrix-parts.ts';

/** The markers around the generated table in docs/browsertrix.md. */
export const MAPPING_TABLE_START =
  '<!-- mapping: generated from src/core/setting-table.ts and src/handoff/browsertrix-parts.ts, see test/unit/browsertrix-docs.test.ts -->';
export const MAPPING_TABLE_END = '<!-- /mapping -->';

/** The whole mapping table, header included, one row per line, without the markers. */
export function mappingTableMarkdown(): string {
  const rows = inOrder((part) =>
    part.became?.row === undefined ? undefined : { at: part.became.at, row: part.became.row },
  );
  const line = ([tabcrawl, options, note]: readonly [string, string, string]): string =>
    `| ${tabcrawl} | ${options} |${note === '' ? '' : ` ${note}`} |`;
  return ['| Tabcrawl | Browsertrix option | note |', '| --- | --- | --- |', ...rows.map(({ row }) => line(row))].join(
    '\n',
  );
}

/**
 * docs/browsertrix.md's text with the block between the markers replaced by {@link mappingTableMarkdown};
 * null when the text has no such block.
 */
export function withMappingTable(markdown: string): string | null {
  const start = markdown.indexOf(MAPPING_TABLE_START);
  const end = markdown.indexOf(MAPPING_TABLE_END);
  if (start < 0 || end < start) return null;
  return `${markdown.slice(0, start + MAPPING_TABLE_START.length)}\n\n${mappingTableMarkdown()}\n\n${markdown.slice(end)}`;
}
