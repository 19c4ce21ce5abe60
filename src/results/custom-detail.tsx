/**
 * The URL detail's *Search and extraction* section (issue 30): what the crawl's custom searches counted on
 * this page and what its custom extractions found (`PageRecord.custom`, `core/custom-rules/`). Every value
 * renders as text: extracted values are crawled text.
 */
import type { PageRecord } from '../core/model.ts';

/** Most values of one extraction listed (the row keeps at most 100). */
const MAX_LISTED = 100;

export function CustomSection({ row }: { row: PageRecord }) {
  const custom = row.custom;
  if (custom === undefined) return null;
  const searches = Object.entries(custom.searches);
  const extracted = Object.entries(custom.extracted);
  if (searches.length + extracted.length === 0) return null;
  return (
    <section class="detail-section" data-testid="detail-custom">
      <h3>Search and extraction</h3>
      <dl class="fields">
        {searches.map(([name, count]) => (
          <div key={`s:${name}`} class="field-row" data-testid="detail-search">
            <dt>{name}</dt>
            <dd>{count === 0 ? 'not found' : `found ${count} ${count === 1 ? 'time' : 'times'}`}</dd>
          </div>
        ))}
        {extracted.map(([name, values]) => (
          <div key={`e:${name}`} class="field-row" data-testid="detail-extracted">
            <dt>{name}</dt>
            <dd>
              {custom.failed?.[name] !== undefined ? (
                <span class="muted">could not be applied: {custom.failed[name]}</span>
              ) : values.length === 0 ? (
                <span class="muted">nothing found</span>
              ) : (
                <ol class="extracted-values">
                  {values.slice(0, MAX_LISTED).map((value, i) => (
                    <li key={i}>{value}</li>
                  ))}
                </ol>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
