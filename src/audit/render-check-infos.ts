/**
 * The registry entries of the rendering checks (issue 29): what `render-checks.ts` judges on the pages
 * the crawl rendered. Their own module so that the registry (`checks.ts`, which spreads them into its
 * table) stays readable; the ids are in `CHECK_IDS` there, and are a public contract like the others.
 * None has a threshold setting.
 *
 * Pure: no Dexie, no browser API.
 */

/** What the registry holds of each rendering check (its `CheckInfo` without the id). */
interface RenderCheckEntry {
  readonly severity: 'warning' | 'notice';
  readonly group: 'rendering';
  readonly title: string;
  readonly why: string;
  readonly threshold: string | null;
}

/** The rendering checks' entries, by id, in the registry's order. */
export const RENDER_CHECK_INFOS = Object.freeze({
  'rendered-links-only': {
    severity: 'notice',
    group: 'rendering',
    title: 'Links found only after rendering',
    why: 'The page’s scripts add links its HTML does not have: crawlers that run no scripts never find them, and search engines that render find them later. Fine on an app by design; otherwise put the links in the HTML.',
    threshold: null,
  },
  'rendered-title-differs': {
    severity: 'warning',
    group: 'rendering',
    title: 'Title changed by scripts',
    why: 'The rendered page’s <title> differs from the HTML’s: search engines and link previews may show either. Serve the final title in the HTML.',
    threshold: 'white space collapsed; absent in one version counts',
  },
  'rendered-description-differs': {
    severity: 'warning',
    group: 'rendering',
    title: 'Meta description changed by scripts',
    why: 'The rendered page’s meta description differs from the HTML’s: snippets may come from either. Serve the final description in the HTML.',
    threshold: 'white space collapsed; absent in one version counts',
  },
  'rendered-canonical-differs': {
    severity: 'warning',
    group: 'rendering',
    title: 'Canonical changed by scripts',
    why: 'The rendered page names another canonical than its HTML: search engines may follow either, or ignore both. Serve one canonical, in the HTML.',
    threshold: 'absent in one version counts',
  },
  'rendered-noindex-differs': {
    severity: 'warning',
    group: 'rendering',
    title: 'Noindex in only one of HTML and rendered page',
    why: 'Only one of the HTML and the rendered page says noindex: a search engine that reads the HTML and one that renders decide differently (Google may skip rendering a page whose HTML says noindex). Say it, or not, in the HTML.',
    threshold: null,
  },
  'rendered-robots-differs': {
    severity: 'notice',
    group: 'rendering',
    title: 'Robots meta changed by scripts',
    why: 'The rendered page’s robots directives (nofollow, max-snippet…) differ from the HTML’s, noindex aside: crawlers may obey either. Serve the directives in the HTML.',
    threshold: 'directives compared as a set',
  },
  'render-script-errors': {
    severity: 'warning',
    group: 'rendering',
    title: 'Script errors while rendering',
    why: 'The page’s scripts threw uncaught errors or left promises rejected while it rendered: parts of it may not show for visitors or search engines. Fix the first error listed.',
    threshold: null,
  },
  'render-blocked-request': {
    severity: 'warning',
    group: 'rendering',
    title: 'Rendering needed URLs robots.txt disallows',
    why: 'The page’s scripts asked for URLs robots.txt disallows: the crawl refused them, as search engines that render do, so the page may render incomplete for them. Allow those URLs, or stop the page needing them.',
    threshold: null,
  },
  'render-failed': {
    severity: 'warning',
    group: 'rendering',
    title: 'Pages that could not be rendered',
    why: 'Rendering the page timed out, crashed or failed: its results are those of its HTML alone. See the reason; a page that never settles may poll or loop forever.',
    threshold: null,
  },
} as const satisfies Record<string, RenderCheckEntry>);
