/**
 * The settings table's entries for rendering (issue 29): whether pages are rendered (their scripts run in a
 * browser tab, every request they make held to the crawl's politeness) and the cap of one page's render.
 * Part of `SETTING_TABLE` (`setting-table.ts`, which says what an entry holds and how to add one).
 */
import type { RenderMode } from './crawl-settings.ts';
import type { SettingEntry } from './setting-entry.ts';
import { text, seconds } from './setting-text.ts';

/** The settings of this part of the table. */
export type RenderKey = 'render' | 'renderTimeoutMs';

/** The render mode of settings that may have been stored before the setting existed: those read as `off`. */
const modeOf = (settings: { render?: RenderMode }): RenderMode => settings.render ?? 'off';

/**
 * The permission rendering needs in Chrome (`chrome.debugger`, which holds each request of the rendering tab
 * until the crawl answers it): optional in the manifest, asked for when the user turns rendering on; the
 * command line's own copy of the extension lists it as granted. Firefox renders without it.
 */
export const RENDER_PERMISSION = 'debugger';

/** The form's label of the render setting, for messages that name it. */
export const RENDER_LABEL = 'Render pages (run their scripts)';

export const RENDER_ENTRIES: { readonly [K in RenderKey]: SettingEntry<K> } = {
  render: {
    // Auto, measured as issue 29 asks (docs/rendering.md, "The default"): on a static site of 530 pages it
    // renders 0.19 % of them, at 1.00 times the time of off with the default delay (1.09 to 1.20 at delay 0).
    default: 'auto',
    label: RENDER_LABEL,
    choices: [
      { value: 'off', label: 'Off: read the HTML as fetched' },
      { value: 'auto', label: 'Auto: when scripts build the page' },
      { value: 'always', label: 'Always: every page' },
    ],
    form: {
      group: 'Rendering',
      testId: 'render',
      help: 'Load pages in a hidden tab and read them as the browser shows them; every request a page makes waits its turn, robots.txt first. Chrome asks for the permission to debug pages.',
    },
    cli: {
      flag: '--render',
      value: 'MODE',
      read: 'choice',
      help: [
        'render pages (run their scripts in a hidden tab, every request they make polite):',
        'off, auto (when the HTML suggests scripts build the page) or always',
      ],
      doc: "render pages: `off` reads the HTML as fetched; `auto` renders a page when its HTML suggests that scripts build it; `always` renders every page. A rendered page runs its scripts in a hidden tab, and every request it makes goes through the crawl (robots.txt first, the host's gap). In Chromium the extension renders with its `debugger` permission ([security.md](security.md#renderings-permission-debugger)); in Firefox with its blocking `webRequest`, the tab's own requests being the crawl's ([rendering-firefox.md](rendering-firefox.md))",
    },
    digest: {
      at: 23,
      // Said when it is not the default (a crawl stored before the setting existed reads as off, and says so).
      text: (s) => (modeOf(s) === RENDER_ENTRIES.render.default ? null : `render ${modeOf(s)}`),
    },
    warcinfo: { at: 15, fields: (s) => [['render', modeOf(s)]] },
    browsertrix: {
      options: [],
      became: {
        at: 22.7,
        text: () => null,
        row: [
          '*Render pages*, *Render cap*',
          'none: Browsertrix renders every page',
          "its `pageLoadTimeout` (90 s by default) caps a page; a rendered page's own requests are not held to robots.txt or the gap",
        ],
      },
      lost: {
        at: 14.5,
        text: (s) => {
          const mode = modeOf(s);
          const cap =
            mode === 'off'
              ? ''
              : ` Render cap ${seconds(s.renderTimeoutMs)}: no counterpart; Browsertrix gives a page up to its pageLoadTimeout (90 s by default), then runs its behaviors.`;
          const what =
            mode === 'always'
              ? 'always, as in Browsertrix, which renders every page in its browser'
              : mode === 'auto'
                ? 'auto (only pages whose HTML suggests scripts build them); Browsertrix renders every page in its browser'
                : 'off (each page read as fetched); Browsertrix renders every page in its browser';
          return `Render pages: ${what}, and the requests a page's scripts make go out without robots.txt or the host's gap.${cap}`;
        },
      },
    },
  },
  renderTimeoutMs: {
    default: 15_000,
    label: 'Render cap',
    limits: { min: 2000, max: 120_000, unit: 'ms' },
    form: {
      group: 'Rendering',
      unit: 's',
      testId: 'render-timeout',
      help: "Most time one page's render takes, however busy the page stays.",
    },
    cli: {
      flag: '--render-timeout',
      value: 'SECONDS',
      read: 'seconds',
      help: ["most time one page's render takes"],
      doc: "most time one page's render takes, from its load to the last read of the page, however busy its scripts keep it (with `--render auto` or `always`)",
    },
    digest: {
      at: 24,
      text: (s, f) =>
        (s.renderTimeoutMs ?? RENDER_ENTRIES.renderTimeoutMs.default) !== RENDER_ENTRIES.renderTimeoutMs.default
          ? `render cap ${f.seconds(s.renderTimeoutMs)}`
          : null,
    },
    warcinfo: {
      at: 16,
      fields: (s) => (modeOf(s) === 'off' ? [] : [['renderTimeoutMs', text(s.renderTimeoutMs)]]),
    },
    browsertrix: { options: [], mappedBy: 'render' },
  },
};
