/**
 * How the results say whether and how a row was rendered (issue 29: the crawl ran the page's scripts in
 * a browser tab, `PageRecord.render`): the *Rendered* column's value, its sort key, and the URL detail's
 * outcome. Pure: no Dexie, no browser API.
 */
import type { RenderRecord } from '../core/model.ts';

/**
 * `rendered`, `rendered (capped)` (the render's cap ended it before the network was quiet), `failed: timeout`
 * (or `crashed`, `unavailable`, `stopped`; `failed` alone for a render that just failed); `''` when the row
 * was not rendered.
 */
export function renderedLabel(render: Pick<RenderRecord, 'outcome' | 'capped'> | undefined): string {
  if (render === undefined) return '';
  if (render.outcome === 'rendered') return render.capped ? 'rendered (capped)' : 'rendered';
  return render.outcome === 'failed' ? 'failed' : `failed: ${render.outcome}`;
}
