/**
 * *Re-run extraction* (issue 30): applies new custom searches and extractions to a stored crawl, from the
 * bodies it stored, requesting nothing. Each HTML page the crawl read (a row with page facts) is read again
 * from its stored body (the rendered DOM when the page was rendered), as the crawl read it
 * (`decodeHtml`, then `applyRules`); its findings replace the row's (`PageRecord.custom`), and the crawl's
 * rules become the new ones, so that its exports' columns are theirs. A page whose body was not stored (a
 * crawl that kept none, a body past the size cap is kept cut) keeps no findings.
 *
 * Platform-free: storage behind {@link RerunStore}; the caller decides where it runs (the results page, which
 * lives as long as the user keeps it open, however many pages there are).
 */
import { decodeHtml } from '../links/decode-html.ts';
import type { CrawlState, PageRecord } from '../model.ts';
import { applyRules, hasRules, type CustomFindings } from './apply-rules.ts';
import { parseRules, type RuleProblem } from './rule-spec.ts';

/** Rows read and written at a time. */
export const RERUN_BATCH = 100;

/** What a re-run reads and writes. */
export interface RerunStore {
  /** The crawl's rows with `seq > afterSeq`, in `seq` order, at most `limit`. */
  pagesAfter(crawlId: string, afterSeq: number, limit: number): Promise<PageRecord[]>;
  /** Stored bodies by SHA-256 (hex), in the order asked; undefined where none is stored (a `StoredBody` fits). */
  getBodies(crawlId: string, sha256s: readonly string[]): Promise<({ bytes: Uint8Array } | undefined)[]>;
  /** Sets the findings of these rows (undefined: none), writing that field only. */
  putFindings(crawlId: string, findings: readonly { url: string; custom: CustomFindings | undefined }[]): Promise<void>;
  /** Keeps the rules as the crawl's settings (`searches`, `extractions`), writing those fields only. */
  putRules(crawlId: string, searches: readonly string[], extractions: readonly string[]): Promise<void>;
}

/** The states in which a crawl's rows no longer change, so a re-run may write them. */
export const RERUNNABLE_STATES: readonly CrawlState[] = Object.freeze(['stopped', 'finished', 'failed']);

/** How far a re-run is: pages read again of the rows looked at so far. */
export interface RerunProgress {
  /** Rows looked at. */
  rows: number;
  /** HTML pages searched again. */
  pages: number;
}

export type RerunResult =
  | { ok: true; rows: number; pages: number; withoutBody: number }
  | { ok: false; problems: { searches: RuleProblem[]; extractions: RuleProblem[] } }
  | { ok: false; message: string };

/** The stored body a row's findings are read from: the rendered DOM's when the page was rendered, else the response's. */
function bodyOf(row: PageRecord): { sha256: string; contentType: string | null } | null {
  const render = row.render;
  if (render !== undefined && render.outcome === 'rendered' && render.sha256 !== null)
    return { sha256: render.sha256, contentType: 'text/html; charset=utf-8' };
  return row.sha256 === null ? null : { sha256: row.sha256, contentType: row.contentType };
}

/**
 * Re-runs the rules on every HTML page of a crawl in `state` (one of {@link RERUNNABLE_STATES}).
 * @param onProgress called after each batch.
 * @param signal stops after the batch under way (what was written stays; the rules are kept only at the end).
 */
export async function rerunRules(
  store: RerunStore,
  crawl: { id: string; state: CrawlState },
  specs: { searches: readonly string[]; extractions: readonly string[] },
  onProgress: (progress: RerunProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<RerunResult> {
  if (!RERUNNABLE_STATES.includes(crawl.state))
    return {
      ok: false,
      message: `The crawl is ${crawl.state}: stop it, or wait until it ends, to run the rules again.`,
    };
  const { rules, problems } = parseRules(specs.searches, specs.extractions);
  if (problems.searches.length + problems.extractions.length > 0) return { ok: false, problems };
  const applies = hasRules(rules);
  let rows = 0;
  let pages = 0;
  let withoutBody = 0;
  for (let afterSeq = 0; ;) {
    if (signal?.aborted === true)
      return { ok: false, message: 'Stopped: the pages done so far have the new findings.' };
    const batch = await store.pagesAfter(crawl.id, afterSeq, RERUN_BATCH);
    const read = batch.filter((row) => row.facts !== undefined && row.facts !== null);
    const sources = read.map(bodyOf);
    const wanted = sources.flatMap((source) => (source === null ? [] : [source.sha256]));
    const bodies = applies && wanted.length > 0 ? await store.getBodies(crawl.id, wanted) : [];
    let at = 0;
    const findings = read.map((row, i) => {
      const source = sources[i];
      if (!applies) return { url: row.url, custom: undefined };
      if (source === null || source === undefined) {
        withoutBody++;
        return { url: row.url, custom: undefined };
      }
      const body = bodies[at++];
      if (body === undefined) {
        withoutBody++;
        return { url: row.url, custom: undefined };
      }
      pages++;
      return { url: row.url, custom: applyRules(decodeHtml(body.bytes, source.contentType).text, rules) };
    });
    if (findings.length > 0) await store.putFindings(crawl.id, findings);
    rows += batch.length;
    onProgress({ rows, pages });
    const last = batch.at(-1);
    if (last === undefined || batch.length < RERUN_BATCH) break;
    afterSeq = last.seq;
  }
  await store.putRules(crawl.id, [...specs.searches], [...specs.extractions]);
  return { ok: true, rows, pages, withoutBody };
}
