/**
 * The URL detail's *Rendering* section (issue 29), for a page the crawl rendered (ran its scripts in a
 * browser tab: `PageRecord.render`): why it was rendered, the outcome and how long it took, the static
 * HTML's title, description, canonical, robots directives, first `<h1>` and words beside the rendered
 * page's, the links found only after rendering, the script errors, the requests refused inside the page
 * (with why) and where the page tried to navigate itself. Every value renders as text: script errors
 * and titles are crawled text.
 */
import type { ComponentChildren } from 'preact';
import type { PageRecord, RefusedRequest, RenderRecord } from '../core/model.ts';
import type { PageFacts } from '../core/page-facts/page-facts.ts';
import { renderedLabel } from '../storage/rendered-label.ts';
import { isoText, localTimeText, msText } from './format.ts';

/** Most items of a list shown (links found only after rendering, errors, refused requests, navigations). */
const MAX_LISTED = 50;

/** Why a request of the rendered page failed inside it, in words. */
export const REFUSED_TEXT: Readonly<Record<RefusedRequest['because'], string>> = Object.freeze({
  robots: 'robots.txt disallows it',
  method: 'a method the crawl does not send',
  scheme: 'not http(s)',
  'not-admitted': 'outside what the crawl may ask for',
  navigation: 'the page navigating itself elsewhere',
  timeout: 'no answer before the page’s cap',
  failed: 'the request failed',
});

/** One line of the side-by-side table: what the static HTML said, and what the rendered page says. */
interface Compared {
  label: string;
  before: string;
  after: string;
}

const textOr = (text: string | null | undefined, none: string): string =>
  text === null || text === undefined ? none : text === '' ? '(empty)' : text;

/** The static and the rendered values of what an audit reads, side by side. */
export function comparedFacts(row: PageRecord, render: RenderRecord): Compared[] {
  const statics = render.static;
  if (statics === null) return [];
  const before: PageFacts | null = statics.facts;
  const after: PageFacts | null = row.facts ?? null;
  const directives = (facts: PageFacts | null): string =>
    facts === null ? '—' : facts.robots.length === 0 ? '— (none)' : facts.robots.join(', ');
  return [
    { label: 'Title', before: textOr(statics.title, '— (none)'), after: textOr(row.title, '— (none)') },
    {
      label: 'Description',
      before: before === null ? '—' : textOr(before.description, '— (none)'),
      after: after === null ? '—' : textOr(after.description, '— (none)'),
    },
    {
      label: 'Canonical',
      before: before === null ? '—' : (before.canonical ?? '— (none)'),
      after: after === null ? '—' : (after.canonical ?? '— (none)'),
    },
    { label: 'Robots directives', before: directives(before), after: directives(after) },
    {
      label: 'First h1',
      before: before === null ? '—' : (before.h1 ?? '— (none)'),
      after: after === null ? '—' : (after.h1 ?? '— (none)'),
    },
    {
      label: 'Words',
      before: before === null ? '—' : String(before.wordCount),
      after: after === null ? '—' : String(after.wordCount),
    },
    { label: 'Links', before: String(statics.links.length), after: String(row.links.length) },
  ];
}

/** The rendered page's links the static HTML did not have, in the rendered page's order. */
function linksOnlyRendered(row: PageRecord, render: RenderRecord): string[] {
  if (render.static === null) return [];
  const before = new Set(render.static.links);
  return row.links.filter((link) => !before.has(link));
}

/** The section; nothing for a row the crawl did not render. `link` renders a URL of the crawl as a link to its detail. */
export function RenderSection({ row, link }: { row: PageRecord; link: (url: string) => ComponentChildren }) {
  const render = row.render;
  if (render === undefined) return null;
  const compared = comparedFacts(row, render);
  const entries: [string, ComponentChildren][] = [
    ['Why rendered', render.why],
    [
      'Outcome',
      <span data-testid="render-outcome">
        {renderedLabel(render)}
        {render.message !== null && `: ${render.message}`}
      </span>,
    ],
    [
      'Duration',
      `${msText(render.durationMs)} ms${render.capped ? ' (the cap ended it before the network was quiet)' : ''}`,
    ],
    [
      'Ended',
      <time dateTime={isoText(render.at)} title={isoText(render.at)}>
        {localTimeText(render.at)}
      </time>,
    ],
    ['Requests answered by the crawl', String(render.requests.length)],
    [
      'Rendered DOM stored',
      render.sha256 === null
        ? 'no'
        : `${render.truncated ? 'yes, cut at the size cap' : 'yes'} (SHA-256 ${render.sha256})`,
    ],
  ];
  return (
    <section class="detail-section" data-testid="detail-render">
      <h3>Rendering</h3>
      <dl class="fields">
        {entries.map(([label, value]) => (
          <div key={label} class="field-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {compared.length === 0 ? (
        <p class="muted" data-testid="render-no-compare">
          The render gave no page: the facts above are the static HTML’s.
        </p>
      ) : (
        <table class="kv-table render-compare" data-testid="render-compare">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">HTML</th>
              <th scope="col">Rendered</th>
            </tr>
          </thead>
          <tbody>
            {compared.map(({ label, before, after }) => (
              <tr key={label} data-testid="render-compare-row" data-differs={before !== after}>
                <th scope="row">{label}</th>
                <td>{before}</td>
                <td>{before === after ? <span class="muted">same</span> : after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RenderList
        title="Links found only after rendering"
        testId="render-links-only"
        items={linksOnlyRendered(row, render).map(link)}
      />
      <RenderList
        title="Script errors"
        testId="render-script-errors"
        items={render.scriptErrors.map((error) => (
          <code class="render-error">{error}</code>
        ))}
      />
      <RenderList
        title="Requests refused inside the page"
        testId="render-refused"
        items={render.refused.map((refused) => (
          <>
            {link(refused.url)} — {REFUSED_TEXT[refused.because] ?? refused.because}
          </>
        ))}
      />
      <RenderList
        title="Navigations the page tried (recorded as links, not followed)"
        testId="render-navigations"
        items={render.navigations.map(link)}
      />
    </section>
  );
}

function RenderList({ title, testId, items }: { title: string; testId: string; items: ComponentChildren[] }) {
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
