/**
 * Checks of what rendering a page (running its scripts in a browser tab, issue 29) changed or met:
 * `rendered-links-only`, `rendered-title-differs`, `rendered-description-differs`,
 * `rendered-canonical-differs`, `rendered-noindex-differs`, `rendered-robots-differs`,
 * `render-script-errors`, `render-blocked-request`, `render-failed`.
 *
 * Only rows the crawl rendered (`PageRecord.render` set) are judged; every other row (every crawl made
 * with rendering off, or before it existed) has none of these issues. The comparisons need a render
 * that succeeded and kept the static HTML's facts (`render.static`): then the row's own title, links
 * and facts are the rendered page's. One scan, one row at a time: nothing is kept but the findings.
 *
 * Crawled text (titles, descriptions, script errors) goes into a finding's detail as data, cut to a
 * few dozen characters; the views show it as text only.
 *
 * Pure: no Dexie, no browser API.
 */
import type { PageRecord, RenderRecord, StaticFacts } from '../core/model.ts';
import type { PageFacts } from '../core/page-facts/page-facts.ts';
import { collapseSpace } from './content-checks.ts';
import { RELATED_MAX, type CollectorFactory, type RelatedUrls } from './engine.ts';
import { PendingFindings, plural, relatedOf } from './pending.ts';

/** Most characters of a crawled text quoted in a finding's detail (a title, a description, a script error). */
export const QUOTE_MAX_CHARS = 80;

/** `text` with white space collapsed, cut at {@link QUOTE_MAX_CHARS} characters (code points) with `…`. */
export function quoteOf(text: string): string {
  const collapsed = collapseSpace(text);
  const chars = [...collapsed];
  return chars.length > QUOTE_MAX_CHARS ? `${chars.slice(0, QUOTE_MAX_CHARS).join('')}…` : collapsed;
}

/**
 * A text as the comparisons read it: white space collapsed and trimmed; null (absent) stays null, so an
 * element present in one version and absent in the other is a difference, even when present but empty.
 */
function comparable(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : collapseSpace(text);
}

/** How a detail names one side's text: `“…”`, or `none` when absent. */
function shown(text: string | null, none: string): string {
  return text === null ? none : `“${quoteOf(text)}”`;
}

/** `HTML <a> → rendered <b>`: the static value first, as read by a crawler that runs no scripts. */
function change(before: string, after: string): string {
  return `HTML ${before} → rendered ${after}`;
}

/** Whether directives forbid indexing (`noindex` or `none`). */
function saysNoindex(robots: readonly string[]): boolean {
  return robots.includes('noindex') || robots.includes('none');
}

/** Directives as a set, sorted, for comparing (their order carries no meaning). */
function directiveSet(robots: readonly string[]): string[] {
  return [...new Set(robots)].sort();
}

/** `noindex, nofollow`, or `none listed`. */
function directivesText(robots: readonly string[]): string {
  return robots.length === 0 ? 'no directives' : robots.join(', ');
}

/** The rendered row's links the static HTML did not have, in the rendered page's order. */
export function linksOnlyRendered(row: Pick<PageRecord, 'links'>, statics: Pick<StaticFacts, 'links'>): string[] {
  const before = new Set(statics.links);
  return row.links.filter((link) => !before.has(link));
}

/** The first {@link RELATED_MAX} of `urls` and their count: what a finding keeps until the scans end (a page may have thousands). */
function firstOf(urls: readonly string[]): RelatedUrls {
  return { urls: urls.slice(0, RELATED_MAX), count: urls.length };
}

/** The robots finding of a rendered page (noindex in one version only, or other directives differing); null when alike. */
function robotsFinding(
  rendered: PageFacts,
  statics: PageFacts,
): { check: 'rendered-noindex-differs' | 'rendered-robots-differs'; detail: string } | null {
  const after = directiveSet(rendered.robots);
  const before = directiveSet(statics.robots);
  if (after.join(',') === before.join(',')) return null;
  const detail = change(directivesText(statics.robots), directivesText(rendered.robots));
  const isNoindexChange = saysNoindex(after) !== saysNoindex(before);
  return { check: isNoindexChange ? 'rendered-noindex-differs' : 'rendered-robots-differs', detail };
}

/** The comparisons of a render that succeeded: links, title, description, canonical, robots. */
function compare(row: PageRecord, statics: StaticFacts, pending: PendingFindings): void {
  const onlyRendered = linksOnlyRendered(row, statics);
  if (onlyRendered.length > 0)
    pending.add(
      'rendered-links-only',
      row.url,
      `${plural(onlyRendered.length, 'link')} found only after rendering`,
      firstOf(onlyRendered),
    );
  const title = comparable(row.title);
  const staticTitle = comparable(statics.title);
  if (title !== staticTitle)
    pending.add(
      'rendered-title-differs',
      row.url,
      change(shown(staticTitle, 'no <title>'), shown(title, 'no <title>')),
    );
  const facts = row.facts ?? null;
  const staticFacts = statics.facts;
  // Without both versions' facts (not read as HTML), descriptions, canonicals and directives are not compared.
  if (facts === null || staticFacts === null) return;
  const description = comparable(facts.description);
  const staticDescription = comparable(staticFacts.description);
  if (description !== staticDescription)
    pending.add(
      'rendered-description-differs',
      row.url,
      change(shown(staticDescription, 'no description'), shown(description, 'no description')),
    );
  if (facts.canonical !== staticFacts.canonical)
    pending.add(
      'rendered-canonical-differs',
      row.url,
      change(staticFacts.canonical ?? 'no canonical', facts.canonical ?? 'no canonical'),
      relatedOf([staticFacts.canonical, facts.canonical].filter((url): url is string => url !== null)),
    );
  const robots = robotsFinding(facts, staticFacts);
  if (robots !== null) pending.add(robots.check, row.url, robots.detail);
}

/** The checks of what happened during the render, whatever its outcome: script errors, refused URLs, failure. */
function judgeRender(row: PageRecord, render: RenderRecord, pending: PendingFindings): void {
  const [firstError] = render.scriptErrors;
  if (firstError !== undefined)
    pending.add(
      'render-script-errors',
      row.url,
      `${plural(render.scriptErrors.length, 'script error')}; first: ${quoteOf(firstError)}`,
    );
  const disallowed = render.refused.filter((refused) => refused.because === 'robots').map((refused) => refused.url);
  if (disallowed.length > 0)
    pending.add(
      'render-blocked-request',
      row.url,
      `${plural(disallowed.length, 'request')} robots.txt disallows`,
      firstOf([...new Set(disallowed)]),
    );
  if (render.outcome !== 'rendered')
    pending.add(
      'render-failed',
      row.url,
      render.message === null || collapseSpace(render.message) === ''
        ? render.outcome
        : `${render.outcome}: ${quoteOf(render.message)}`,
    );
}

/** The rendering checks: one scan; rows without `render` are not judged. */
export const renderChecks: CollectorFactory = () => {
  const pending = new PendingFindings();
  return {
    wants: (pass) => pass === 1,
    see(row) {
      const render = row.render;
      if (render === undefined) return;
      if (render.outcome === 'rendered' && render.static !== null) compare(row, render.static, pending);
      judgeRender(row, render, pending);
    },
    finish(emit) {
      pending.emitTo(emit);
    },
  };
};
