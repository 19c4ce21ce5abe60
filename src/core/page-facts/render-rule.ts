/**
 * Which pages a crawl renders (runs their scripts in a browser tab): the rule of `--render auto`, as small
 * pure functions over what a cheap pass over the static HTML shows. A page is rendered when it has a
 * script to run and its HTML looks like a shell that the script fills:
 *
 * 1. an **empty mount point**: an element that apps mount into (`id` `app`, `root`, `__next`, `__nuxt`,
 *    `___gatsby`, `svelte`, `react-root`, `main-app`, `application`; an `<app-root>`; an `ng-app` or
 *    `data-reactroot` attribute) with no element and no text inside;
 * 2. an **almost empty body**: fewer than {@link FEW_WORDS} words of visible text and fewer than
 *    {@link FEW_LINKS} links;
 * 3. a **`<noscript>` notice** that names JavaScript or scripts, on a page of fewer than
 *    {@link NOSCRIPT_WORDS} words (a long page with a `<noscript>` tracking pixel is not a shell).
 *
 * A page with no script at all (no `<script src>`, no inline code) is never rendered: nothing would run.
 * The figures it gives on a static site and a client-rendered one are in docs/rendering.md.
 */
import { type Handler, Parser } from 'htmlparser2';
import type { RenderMode } from '../crawl-settings.ts';

/** Fewer words than this, with fewer than {@link FEW_LINKS} links, is an almost empty body. */
export const FEW_WORDS = 50;
/** Fewer links than this, with fewer than {@link FEW_WORDS} words, is an almost empty body. */
export const FEW_LINKS = 5;
/** A `<noscript>` notice marks a shell only on a page of fewer words than this. */
export const NOSCRIPT_WORDS = 300;
/** Most characters of a page's HTML the rule reads: a shell says what it is in its first bytes. */
export const RULE_READS_CHARS = 512 * 1024;

/** The `id`s apps mount into. */
const MOUNT_IDS: ReadonlySet<string> = new Set([
  'app',
  'root',
  '__next',
  '__nuxt',
  '___gatsby',
  'svelte',
  'react-root',
  'main-app',
  'application',
]);
/** Script `type`s that run (absent is JavaScript too); JSON, templates and the like do not. */
const RUNNING_TYPES: ReadonlySet<string> = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'module',
  'text/ecmascript',
  'application/ecmascript',
]);

/** What the rule reads off a page's HTML. */
export interface RenderSignals {
  /** `<script>` elements that run: with a `src`, or inline code, of a JavaScript `type`. */
  scripts: number;
  /** The first empty mount point, as `#app` or `<app-root>`; null when none. */
  emptyMount: string | null;
  /** The text of the first `<noscript>`, whitespace collapsed, at most 200 characters; null when none. */
  noscript: string | null;
}

/** The mount point an element is, as the reason names it; null when it is none. */
function mountOf(name: string, attributes: Record<string, string>): string | null {
  if (name === 'app-root') return '<app-root>';
  const id = attributes['id'];
  if (id !== undefined && MOUNT_IDS.has(id)) return `#${id}`;
  if ('ng-app' in attributes || 'data-ng-app' in attributes) return '[ng-app]';
  if ('data-reactroot' in attributes) return '[data-reactroot]';
  return null;
}

/** Reads the {@link RenderSignals} of an HTML text (its first {@link RULE_READS_CHARS} characters). */
export function renderSignalsOf(html: string): RenderSignals {
  const signals: RenderSignals = { scripts: 0, emptyMount: null, noscript: null };
  let script: { runs: boolean; code: boolean } | null = null;
  let noscript: string | null = null;
  /** The open mount point being watched: its name, its depth, and whether anything was inside. */
  let mount: { label: string; depth: number; filled: boolean } | null = null;
  let depth = 0;
  const handler: Partial<Handler> = {
    onopentag(name, attributes) {
      depth += 1;
      if (mount !== null) mount.filled = true;
      if (name === 'script') {
        const type = (attributes['type'] ?? '').trim().toLowerCase();
        const runs = RUNNING_TYPES.has(type);
        script = { runs, code: false };
        if (runs && (attributes['src'] ?? '').trim() !== '') signals.scripts += 1;
      } else if (name === 'noscript' && signals.noscript === null) {
        noscript = '';
      } else if (signals.emptyMount === null && mount === null) {
        const label = mountOf(name, attributes);
        if (label !== null) mount = { label, depth, filled: false };
      }
    },
    ontext(text) {
      if (script !== null) {
        if (!script.code && text.trim() !== '') script.code = true;
        return;
      }
      if (noscript !== null && noscript.length < 400) noscript += text;
      if (mount !== null && text.trim() !== '') mount.filled = true;
    },
    onclosetag(name) {
      if (name === 'script' && script !== null) {
        // Inline code counts once, when the element ends (a `src` was counted when it opened).
        if (script.runs && script.code) signals.scripts += 1;
        script = null;
      } else if (name === 'noscript' && noscript !== null) {
        const text = noscript.replace(/\s+/g, ' ').trim().slice(0, 200);
        signals.noscript = text;
        noscript = null;
      }
      if (mount !== null && depth === mount.depth) {
        if (!mount.filled) signals.emptyMount = mount.label;
        mount = null;
      }
      depth = Math.max(0, depth - 1);
    },
  };
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html.length > RULE_READS_CHARS ? html.slice(0, RULE_READS_CHARS) : html);
  parser.end();
  return signals;
}

/** What the rule weighs besides the signals: the static page's words and links. */
export interface PageSize {
  /** Words of visible text (`PageFacts.wordCount`). */
  words: number;
  /** Distinct links. */
  links: number;
}

/**
 * Why a page is rendered under `mode`, in a few words (stored as `RenderRecord.why`); null when it is not.
 * `always` renders every HTML page; `auto` applies the rule of this module's comment; `off` none.
 */
export function renderReason(mode: RenderMode, signals: RenderSignals, size: PageSize): string | null {
  if (mode === 'off') return null;
  if (mode === 'always') return 'always';
  if (signals.scripts === 0) return null;
  if (signals.emptyMount !== null) return `auto: an empty ${signals.emptyMount} for scripts to fill`;
  if (size.words < FEW_WORDS && size.links < FEW_LINKS)
    return `auto: an almost empty body (${size.words} words, ${size.links} links) and scripts`;
  if (signals.noscript !== null && /java\s*script|scripts?\b/i.test(signals.noscript) && size.words < NOSCRIPT_WORDS)
    return 'auto: a <noscript> notice and scripts';
  return null;
}
