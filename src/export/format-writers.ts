/**
 * Every place that exports (the export page, the command line) goes through
 * {@link exportBytes}: it maps a format to its writer.
 */
import { writeCsv } from './csv.ts';
import { writeIssuesCsv } from './issues-csv.ts';
import type { ExportContext, ExportSource } from './export-source.ts';
import type { ExportFormat } from './format-info.ts';
import { writeJsonl } from './jsonl.ts';
import { writeLinksCsv } from './links-csv.ts';
import { writeNotCrawledCsv } from './not-crawled-csv.ts';
import { writeWacz } from './wacz.ts';
import { writeWarc, writeWarcGz } from './warc.ts';

const WRITERS = {
  wacz: writeWacz,
  'warc.gz': writeWarcGz,
  warc: writeWarc,
  csv: writeCsv,
  jsonl: writeJsonl,
  'issues.csv': writeIssuesCsv,
  'not-crawled.csv': writeNotCrawledCsv,
  'links.csv': writeLinksCsv,
} as const;

/** The export of `source` in `format`, as a stream of byte chunks. */
export function exportBytes(
  source: ExportSource,
  format: ExportFormat,
  context: ExportContext,
): AsyncIterable<Uint8Array> {
  return WRITERS[format](source, context);
}
