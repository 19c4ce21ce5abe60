/**
 * What a render changes in a page's row: the rendered DOM is read as the static HTML was
 * (`readHtmlInto`: title, links, facts), those become the row's, and the static HTML's are kept in
 * `row.render.static`; every URL the page used joins its resources (so that an archive replays it); the
 * links only the rendered page has are followed like any link. The crawl's custom rules run again on the
 * rendered DOM and their findings replace the static HTML's (`readHtmlInto`). A failed render keeps the static
 * facts and findings and says why: that is why the static fetch applies the rules too, to a page it queues for
 * rendering (its body is at hand there, and a render can fail in a later run; one more pass per rendered page,
 * small beside the render).
 */
import type { PageRecord, RenderRecord } from '../../model.ts';
import type { CrawlSettings } from '../../settings.ts';
import { originOf } from '../../url/normalize-url.ts';
import type { Candidate } from '../candidate.ts';
import { canonicalCandidate, linkCandidates, readHtmlInto } from '../kinds/page-kind.ts';
import type { RenderOutcome } from '../ports.ts';
import type { PageRequests } from './page-requests.ts';

/** What the render of one page was, besides the renderer's outcome. */
export interface RenderRun {
  why: string;
  startedAt: number;
  endedAt: number;
  requests: Pick<PageRequests, 'requests' | 'refused' | 'navigations'>;
  /** Hex SHA-256 of the rendered DOM as stored; null when none is stored. */
  sha256: string | null;
}

/**
 * Applies a render to the page's row (as the recording transaction read it).
 * @returns the candidates it leads to: the links only the rendered page has, and the places the page tried
 *   to navigate to, followed like links (the scope, the depth limit, the page budget decide).
 */
export function applyRender(
  row: PageRecord,
  outcome: RenderOutcome,
  run: RenderRun,
  settings: CrawlSettings,
): Candidate[] {
  const { requests } = run;
  const record: RenderRecord = {
    outcome: outcome.ok ? 'rendered' : outcome.code,
    message: outcome.ok ? null : outcome.message.slice(0, 500),
    why: run.why,
    at: run.endedAt,
    durationMs: Math.max(0, run.endedAt - run.startedAt),
    capped: outcome.ok && outcome.capped,
    static: null,
    sha256: run.sha256,
    truncated: outcome.ok && outcome.truncated,
    scriptErrors: outcome.ok ? outcome.scriptErrors.slice(0, 20).map((e) => e.slice(0, 500)) : [],
    requests: [...requests.requests],
    refused: [...requests.refused],
    navigations: [...requests.navigations],
  };
  row.render = record;
  const navigations = requests.navigations.map((url): Candidate => ({
    url,
    origin: originOf(url),
    kind: 'page',
    depth: row.depth + 1,
    referrer: row.url,
    anchor: null,
    isLink: true,
  }));
  if (!outcome.ok) return navigations;
  const before = {
    title: row.title,
    links: row.links,
    linkTexts: row.linkTexts,
    facts: row.facts ?? null,
  };
  record.static = before;
  const { found, kept } = readHtmlInto(row, outcome.html, 'utf-8', settings);
  const resources = new Set(row.resources);
  for (const url of requests.requests) if (url !== row.url) resources.add(url);
  row.resources = [...resources];
  const staticLinks = new Set(before.links);
  const added = kept.filter((link) => !staticLinks.has(link.url));
  if (found.metaNofollow && !settings.followNofollow) return navigations;
  const follow = [...linkCandidates(added, row, settings.followNofollow), ...navigations];
  const canonical = canonicalCandidate(row, row.url, row.depth);
  if (canonical !== null && canonical.url !== before.facts?.canonical) follow.push(canonical);
  return follow;
}
