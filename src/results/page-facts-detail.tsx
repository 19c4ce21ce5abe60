/**
 * The URL detail's *Page facts* section: what an audit reads off an HTML page
 * (`core/page-facts/page-facts.ts`) and whether a search engine may index the URL
 * (`core/page-facts/indexability.ts`). Every value renders as text.
 */
import type { ComponentChildren } from 'preact';
import { canonicalOf, indexabilityOf, type NonIndexableReason } from '../core/page-facts/indexability.ts';
import type { PageRecord } from '../core/model.ts';

/** Most items of a list shown (images without alt, mixed content, alternates). */
const MAX_LISTED = 50;

/** Why a URL is not indexable, in words. */
export const REASON_TEXT: Readonly<Record<NonIndexableReason, string>> = Object.freeze({
  blocked: 'blocked by robots.txt',
  redirected: 'redirected',
  'not-200': 'not 200',
  noindex: 'noindex',
  canonicalised: 'canonicalised elsewhere',
});

/** The indexability of a row in words: `Indexable`, `Not indexable: noindex`…; '—' when not judged. */
export function indexabilityWords(row: Parameters<typeof indexabilityOf>[0]): string {
  const indexability = indexabilityOf(row);
  if (indexability === null) return '—';
  return indexability.indexable ? 'Indexable' : `Not indexable: ${REASON_TEXT[indexability.reason]}`;
}

/** The section, for pages and linked files; `link` renders a URL of the crawl as a link to its detail. */
export function PageFactsSection({ row, link }: { row: PageRecord; link: (url: string) => ComponentChildren }) {
  if (row.kind !== 'page' && row.kind !== 'file') return null;
  const facts = row.facts ?? null;
  const entries: [string, ComponentChildren][] = [['Indexability', indexabilityWords(row)]];
  if (facts !== null) {
    const canonical = canonicalOf(facts);
    entries.push(
      [
        'Canonical',
        canonical === null ? '—' : canonical === row.url ? <>{link(canonical)} (this URL)</> : link(canonical),
      ],
      ...(facts.canonicalHeader !== null && facts.canonical !== null && facts.canonicalHeader !== facts.canonical
        ? ([['Canonical (Link header)', link(facts.canonicalHeader)]] as [string, ComponentChildren][])
        : []),
      ['Robots directives', facts.robots.length === 0 ? '—' : facts.robots.join(', ')],
      [
        'Description',
        facts.description === null ? '— (none)' : facts.description === '' ? '(empty)' : facts.description,
      ],
      ['First h1', facts.h1 ?? '— (none)'],
      ['h1 count', String(facts.h1Count)],
      ['Language', facts.lang ?? '—'],
      ['Words', String(facts.wordCount)],
      ['Internal links', String(facts.internalLinks)],
      ['Outbound links', String(facts.outboundLinks)],
      ['Anchors (ids)', String(facts.anchorIds.length)],
      ['Fragment links', String(facts.fragmentLinks.length)],
    );
  }
  return (
    <section class="detail-section" data-testid="detail-facts">
      <h3>Page facts</h3>
      <dl class="fields">
        {entries.map(([label, value]) => (
          <div key={label} class="field-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {facts === null && row.kind === 'page' && (
        <p class="muted">No page facts: not an HTML page answered 2xx, or crawled before Tabcrawl recorded them.</p>
      )}
      {facts !== null && (
        <>
          <FactList
            title="hreflang alternates"
            testId="facts-hreflang"
            items={facts.hreflang.map((alternate) => (
              <>
                {alternate.lang}: {link(alternate.url)}
              </>
            ))}
          />
          <FactList
            title="Images without alt"
            testId="facts-images-without-alt"
            items={facts.imagesWithoutAlt.map(link)}
          />
          <FactList
            title="Mixed content (http: on an https: page)"
            testId="facts-mixed-content"
            items={facts.mixedContent.map(link)}
          />
          <FactList
            title="Other links (not checked)"
            testId="facts-other-links"
            items={facts.otherLinks.map((href) => (
              <code>{href}</code>
            ))}
          />
        </>
      )}
    </section>
  );
}

function FactList({ title, testId, items }: { title: string; testId: string; items: ComponentChildren[] }) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <h4>
        {title} ({items.length})
      </h4>
      <ul class="fact-list">
        {items.slice(0, MAX_LISTED).map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
      {items.length > MAX_LISTED && <p class="muted">First {MAX_LISTED} shown.</p>}
    </div>
  );
}
