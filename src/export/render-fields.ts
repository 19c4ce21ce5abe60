/**
 * What the CSV and JSON Lines exports say of a rendered row (issue 29: the crawl ran the page's scripts
 * in a browser tab, `PageRecord.render`): `rendered`, the render's outcome, in both; `render`, what the
 * render met, in JSON Lines only (a CSV cell holds no object). Rows not rendered (every crawl made with
 * rendering off, or before it existed) have `null` in both. Documented in docs/exports.md.
 *
 * Pure: no Dexie, no browser API.
 */
import type { PageRecord, RefusedRequest, RenderRecord } from '../core/model.ts';

/** The `render` object of a JSON Lines row. */
export interface JsonlRender {
  /** Why the page was rendered: `always`, or the `auto` rule that matched. */
  why: string;
  /** `rendered`, or why the render produced no DOM: `unavailable`, `crashed`, `timeout`, `stopped`, `failed`. */
  outcome: RenderRecord['outcome'];
  /** The browser's words on a failure; null when rendered. */
  message: string | null;
  /** The render's cap ended it before the network was quiet. */
  capped: boolean;
  /** How long the render took, in ms. */
  durationMs: number;
  /** The static HTML's `<title>` (the row's `title` is the rendered page's); null when it had none or the render failed. */
  staticTitle: string | null;
  /** Uncaught script errors and unhandled rejections during the render, in order (at most 20). */
  scriptErrors: string[];
  /** The page's requests that failed inside it, each with why (`robots`: robots.txt disallows it; at most 200). */
  refused: RefusedRequest[];
}

/** The render fields of an exported row. */
export interface RenderFields {
  /** The render's outcome (`rendered`, `timeout`…); null when the crawl did not render the row. */
  rendered: RenderRecord['outcome'] | null;
  /** What the render met; null when the crawl did not render the row. */
  render: JsonlRender | null;
}

/** The render fields of `page`. */
export function renderFieldsOf(page: Pick<PageRecord, 'render'>): RenderFields {
  const render = page.render;
  if (render === undefined) return { rendered: null, render: null };
  return {
    rendered: render.outcome,
    render: {
      why: render.why,
      outcome: render.outcome,
      message: render.message,
      capped: render.capped,
      durationMs: render.durationMs,
      staticTitle: render.static?.title ?? null,
      scriptErrors: [...render.scriptErrors],
      refused: render.refused.map(({ url, because }) => ({ url, because })),
    },
  };
}
