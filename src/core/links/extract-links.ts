/**
 * Link extraction from one HTML page: the `<a href>` and `<area href>` links,
 * the frames (`<iframe src>`, `<frame src>`: pages too) and the document
 * `<link href>`s to the page's own site (see {@link DOCUMENT_LINK_RELS}), the page
 * resources a browser loads to show it (see `resource-refs.ts`; `<style>`
 * blocks through `css-urls.ts`), the `<title>`, and the page-wide `nofollow`
 * of `<meta name="robots">`.
 *
 * Pure: a streaming htmlparser2 pass with callbacks and no DOM, so it runs
 * in a service worker. Forgiving: garbage and unterminated markup never throw.
 */
import { type Handler, Parser } from 'htmlparser2';
import { httpOrigin, normalizeUrl } from '../url/normalize-url.ts';
import { cssUrls } from './css-urls.ts';
import { isResourceLinkRel, resourceRefsOf } from './resource-refs.ts';
import { encodeQueryFor } from './query-encoding.ts';
import { MAX_URL_LENGTH } from '../url/traps.ts';
import { type MarkupFacts, PageFactsReader } from '../page-facts/page-facts-reader.ts';
import type { LinkElement } from '../model.ts';

/** Longest anchor text kept, in UTF-16 code units (it is shown in tables and stored per link). */
export const MAX_ANCHOR_TEXT = 200;
/** Most distinct anchor texts kept per link of one page. */
export const MAX_TEXTS_PER_LINK = 50;
/** Longest title kept, in UTF-16 code units. */
const MAX_TITLE = 500;
/** Most resource URLs kept per page: the first ones in document order. */
export const MAX_RESOURCES_PER_PAGE = 2000;
/** Most characters of `<style>` blocks read per page for their URLs. */
const MAX_STYLE_TEXT = 2 * 1024 * 1024;

/**
 * `<link rel>` tokens whose `href` names another document of the site that a
 * reader may go to: the site's search page, the next and previous pages of a
 * series, a help page, the licence, an alternate version (another language, a
 * print view). Followed as links when the target is on the page's own origin
 * (scheme, host and port) and, for `search` and `alternate`, is HTML: no
 * `type`, or an HTML one (an OpenSearch description or a feed is not a page).
 * A `<link>` that is also a stylesheet or an icon is a page resource
 * (`resource-refs.ts`), never a link. Django's docs, for one, link their
 * search page only by `<link rel="search">` (and a form).
 */
export const DOCUMENT_LINK_RELS: ReadonlySet<string> = new Set([
  'search',
  'alternate',
  'next',
  'prev',
  'previous',
  'help',
  'license',
]);

/** `<link rel>` tokens whose target is followed only when it is HTML. */
const HTML_ONLY_RELS: ReadonlySet<string> = new Set(['search', 'alternate']);

export type { LinkElement };

/** One distinct outgoing link of a page. */
export interface ExtractedLink {
  /** Absolute http(s) URL, normalized by {@link normalizeUrl}. */
  url: string;
  /** Text of the first occurrence that has one (whitespace collapsed, at most 200 chars); '' when none has. */
  text: string;
  /**
   * Every distinct non-empty text of its occurrences, in order (the first is
   * `text`), at most {@link MAX_TEXTS_PER_LINK}: a page that links to its
   * index as "index" and as "General Index" gives both.
   */
  texts: string[];
  /** Every occurrence carries `rel="nofollow"`; one followable occurrence makes the link followable. */
  nofollow: boolean;
  /** The element of its first occurrence. */
  element: LinkElement;
  /** The `rel` of its first occurrence, tokens lower-cased and space-separated, at most 100 chars; '' when none. */
  rel: string;
}

/** What a page says about where to go next. */
export interface PageLinks {
  /** Distinct links in order of first appearance (frames included). */
  links: ExtractedLink[];
  /**
   * Distinct page resources (stylesheets, scripts, images, fonts of inline
   * CSS, icons, media…), absolute http(s) URLs normalized like links, in
   * order of first appearance, at most {@link MAX_RESOURCES_PER_PAGE}.
   */
  resources: string[];
  /** First `<title>` outside SVG (entities decoded, whitespace collapsed, at most 500 chars); null when absent. */
  title: string | null;
  /** `<meta name="robots">` says `nofollow` or `none`: no link of the page should be followed. */
  metaNofollow: boolean;
  /** URL that relative links were resolved against: the first `<base href>`, else the page URL. */
  baseUrl: string;
  /** What the markup says for an audit (canonical, meta robots, headings…: see `core/page-facts/page-facts-reader.ts`). */
  facts: MarkupFacts;
}

export interface ExtractOptions {
  /** The crawler's robots.txt product token: `<meta name="{token}">` counts as `<meta name="robots">` for facts. */
  productToken?: string;
}

/** A link as written, before the base URL is known (a `<base>` may come after links). */
interface RawLink {
  href: string;
  text: string;
  nofollow: boolean;
  element: LinkElement;
  rel: string;
  /** A document `<link>`: kept only when it resolves to the page's own origin. */
  isSameOriginOnly?: boolean;
}

/** The `<a>` being read: its text arrives in pieces. */
interface OpenAnchor {
  href: string;
  nofollow: boolean;
  rel: string;
  /** Attribute `title`, used when the anchor has no text. */
  title: string;
  text: TextBuffer;
  /** `alt` of images inside, used when the anchor has no text. */
  alts: string[];
}

/**
 * Extracts the links of an HTML page.
 *
 * - `<a href>` and `<area href>`, any case and quoting, and the document
 *   `<link href>`s of {@link DOCUMENT_LINK_RELS} on the page's own origin
 *   (their text is their `title`); entities in `href`
 *   decoded; URLs resolved against the first `<base href>` (itself resolved
 *   against the page URL; applied to all links, as browsers do) and
 *   normalized; links that are not http(s) (`javascript:`, `data:`...), not
 *   valid URLs, or longer than {@link MAX_URL_LENGTH} once normalized are
 *   dropped (an unclosed quote can make an href megabytes long).
 * - Anchor text: the text inside the `<a>`, nested elements included,
 *   whitespace collapsed, at most 200 chars; when empty, the `alt` of images
 *   inside, then the `title` attribute. `<area>` uses `alt`, then `title`.
 * - `rel` with the token `nofollow` (case-insensitive) marks an occurrence nofollow.
 * - Duplicates are merged: first position, first non-empty text (and every
 *   distinct text in `texts`), and nofollow only when every occurrence is nofollow.
 * - The page's facts for an audit are read in the same pass (`facts`).
 *
 * - The non-ASCII characters of a query are encoded in the page's
 *   `encoding`, as a browser does (see `encodeQueryFor`): UTF-8 on a UTF-8
 *   page, `%E9` for `é` on a windows-1252 one.
 *
 * @param html the decoded page (see `decodeHtml`).
 * @param pageUrl the page's absolute URL (after redirects).
 * @param encoding the page's encoding, as `decodeHtml` names it (`TextDecoder.encoding`).
 */
export function extractLinks(
  html: string,
  pageUrl: string,
  encoding = 'utf-8',
  options: ExtractOptions = {},
): PageLinks {
  const reader = new PageReader(new PageFactsReader(options.productToken ?? 'tabcrawl', encodeQueryFor));
  new Parser(reader).end(html);
  const baseUrl = resolveBase(reader.baseHref === null ? null : encodeQueryFor(reader.baseHref, encoding), pageUrl);
  const resources = resolveResources(reader.resources, baseUrl, encoding);
  return {
    links: mergeLinks(reader.links, baseUrl, encoding, httpOrigin(pageUrl)),
    resources,
    title: reader.title?.toString() ?? null,
    metaNofollow: reader.metaNofollow,
    baseUrl,
    facts: reader.facts.finish(pageUrl, baseUrl, resources, encoding),
  };
}

/** htmlparser2 callbacks that collect what {@link extractLinks} needs in one pass (the facts' reader gets every event too). */
class PageReader implements Partial<Handler> {
  constructor(readonly facts: PageFactsReader) {}

  /** Links as written, in document order. */
  readonly links: RawLink[] = [];
  /** Resource URLs as written, in document order. */
  readonly resources: string[] = [];
  /** Text of the `<style>` block being read, or null outside one. */
  private styleText: string | null = null;
  private styleChars = 0;
  /** `href` of the first `<base href>`, not resolved yet; null when none. */
  baseHref: string | null = null;
  metaNofollow = false;
  /** Text of the first page `<title>`; null until one opens. */
  title: TextBuffer | null = null;
  private isInTitle = false;
  /** The `<a href>` being read; null outside one. */
  private anchor: OpenAnchor | null = null;
  /** Open `<svg>` elements: their `<title>` is an image caption, not the page's. */
  private svgDepth = 0;
  /** Open `<script>`/`<style>` elements: their text is code, not anchor text. */
  private codeDepth = 0;

  onopentag(name: string, attributes: Record<string, string>): void {
    this.facts.onopentag(name, attributes);
    if (this.resources.length < MAX_RESOURCES_PER_PAGE * 2)
      this.resources.push(...resourceRefsOf(name, attributes, this.svgDepth > 0));
    switch (name) {
      case 'iframe':
      case 'frame':
        if (attributes['src'] !== undefined && attributes['src'].trim() !== '') {
          this.links.push({
            href: attributes['src'],
            text: cap(collapse(attributes['title'] ?? ''), MAX_ANCHOR_TEXT),
            nofollow: false,
            element: name,
            rel: '',
          });
        }
        break;
      case 'a':
        this.closeAnchor(); // htmlparser2 closes an open <a> too: anchors do not nest.
        if (attributes['href'] !== undefined) {
          this.anchor = {
            href: attributes['href'],
            nofollow: hasNofollow(attributes['rel']),
            rel: relTokens(attributes['rel']),
            title: attributes['title'] ?? '',
            text: new TextBuffer(MAX_ANCHOR_TEXT),
            alts: [],
          };
        }
        break;
      case 'area':
        if (attributes['href'] !== undefined) {
          const text = collapse(attributes['alt'] ?? '') || collapse(attributes['title'] ?? '');
          this.links.push({
            href: attributes['href'],
            text: cap(text, MAX_ANCHOR_TEXT),
            nofollow: hasNofollow(attributes['rel']),
            element: 'area',
            rel: relTokens(attributes['rel']),
          });
        }
        break;
      case 'link':
        if (
          attributes['href'] !== undefined &&
          attributes['href'].trim() !== '' &&
          isDocumentLink(attributes['rel'], attributes['type'])
        ) {
          this.links.push({
            href: attributes['href'],
            text: cap(collapse(attributes['title'] ?? ''), MAX_ANCHOR_TEXT),
            nofollow: hasNofollow(attributes['rel']),
            element: 'link',
            rel: relTokens(attributes['rel']),
            isSameOriginOnly: true,
          });
        }
        break;
      case 'img':
        if (this.anchor !== null && attributes['alt'] !== undefined) this.anchor.alts.push(attributes['alt']);
        break;
      case 'base':
        if (this.baseHref === null && attributes['href'] !== undefined) this.baseHref = attributes['href'];
        break;
      case 'meta':
        if (attributes['name']?.trim().toLowerCase() === 'robots' && hasRobotsNofollow(attributes['content'] ?? '')) {
          this.metaNofollow = true;
        }
        break;
      case 'title':
        if (this.svgDepth === 0 && this.title === null) {
          this.title = new TextBuffer(MAX_TITLE);
          this.isInTitle = true;
        }
        break;
      case 'svg':
        this.svgDepth += 1;
        break;
      case 'script':
      case 'style':
        this.codeDepth += 1;
        if (name === 'style') this.styleText = '';
        break;
    }
  }

  ontext(text: string): void {
    this.facts.ontext(text);
    if (this.styleText !== null && this.styleChars < MAX_STYLE_TEXT) {
      this.styleText += text;
      this.styleChars += text.length;
    }
    if (this.isInTitle) this.title?.append(text);
    else if (this.codeDepth === 0) this.anchor?.text.append(text);
  }

  onclosetag(name: string): void {
    this.facts.onclosetag(name);
    switch (name) {
      case 'a':
        this.closeAnchor();
        break;
      case 'title':
        this.isInTitle = false;
        break;
      case 'svg':
        this.svgDepth = Math.max(0, this.svgDepth - 1);
        break;
      case 'script':
      case 'style':
        this.codeDepth = Math.max(0, this.codeDepth - 1);
        if (name === 'style') this.closeStyle();
        break;
    }
  }

  private closeStyle(): void {
    if (this.styleText === null) return;
    const { imports, urls } = cssUrls(this.styleText);
    this.resources.push(...imports, ...urls);
    this.styleText = null;
  }

  /** An `<a>` left open at the end of the document still counts (htmlparser2 also closes it). */
  onend(): void {
    this.facts.onend();
    this.closeAnchor();
    this.closeStyle();
  }

  private closeAnchor(): void {
    const anchor = this.anchor;
    if (anchor === null) return;
    const text = anchor.text.toString() || collapse(anchor.alts.join(' ')) || collapse(anchor.title);
    this.links.push({
      href: anchor.href,
      text: cap(text, MAX_ANCHOR_TEXT),
      nofollow: anchor.nofollow,
      element: 'a',
      rel: anchor.rel,
    });
    this.anchor = null;
  }
}

/**
 * Text that arrives in pieces, kept with whitespace collapsed and bounded:
 * a huge anchor costs no more memory than a few times its cap.
 */
class TextBuffer {
  private text = '';
  /** The collapsed text is already longer than `maxLength`: further pieces are dropped. */
  private isFull = false;
  /** In UTF-16 code units. */
  private readonly maxLength: number;

  constructor(maxLength: number) {
    this.maxLength = maxLength;
  }

  append(piece: string): void {
    if (this.isFull) return;
    this.text += piece;
    if (this.text.length > 4 * this.maxLength) {
      this.text = this.text.replace(/\s+/g, ' ');
      this.isFull = this.text.trim().length > this.maxLength;
    }
  }

  /** The text, whitespace collapsed and trimmed, at most `maxLength` code units. */
  toString(): string {
    return cap(collapse(this.text), this.maxLength);
  }
}

/** Collapses runs of whitespace (`&nbsp;` included) to one space and trims. */
function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to `maxLength` code units without splitting a surrogate pair. */
function cap(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = /[\uD800-\uDBFF]$/.test(text.slice(0, maxLength)) ? maxLength - 1 : maxLength;
  return text.slice(0, cut).trimEnd();
}

/** A `rel` attribute's tokens, lower-cased, one space between them, at most {@link MAX_REL} chars; '' when absent. */
function relTokens(rel: string | undefined): string {
  if (rel === undefined) return '';
  return cap(
    rel
      .toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .filter(Boolean)
      .join(' '),
    MAX_REL,
  );
}

/** Most characters of a link's `rel` kept. */
const MAX_REL = 100;

/** Whether a `rel` attribute (space-separated tokens, any case) contains `nofollow`. */
function hasNofollow(rel: string | undefined): boolean {
  return (
    rel !== undefined &&
    rel
      .toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .includes('nofollow')
  );
}

/** Whether a `<link>` with this `rel` and `type` names a document to follow (see {@link DOCUMENT_LINK_RELS}). */
function isDocumentLink(rel: string | undefined, type: string | undefined): boolean {
  if (isResourceLinkRel(rel)) return false;
  const tokens = (rel ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
  const documentRels = tokens.filter((token) => DOCUMENT_LINK_RELS.has(token));
  if (documentRels.length === 0) return false;
  if (!documentRels.every((token) => HTML_ONLY_RELS.has(token))) return true;
  const mediaType = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === '' || mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

/** Whether a robots `content` (comma-separated directives, any case) forbids following: `nofollow` or `none`. */
function hasRobotsNofollow(content: string): boolean {
  return content
    .toLowerCase()
    .split(/[\s,]+/)
    .some((directive) => directive === 'nofollow' || directive === 'none');
}

/** The first `<base href>` resolved against the page URL when it is http(s), else the page URL. */
function resolveBase(baseHref: string | null, pageUrl: string): string {
  if (baseHref === null) return pageUrl;
  try {
    const base = new URL(baseHref.trim(), pageUrl);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

/** Resolves and normalizes resource URLs: http(s) only, each once, at most {@link MAX_RESOURCES_PER_PAGE}. */
function resolveResources(raw: string[], baseUrl: string, encoding: string): string[] {
  const base = normalizeUrl(baseUrl) === null ? undefined : baseUrl;
  const seen = new Set<string>();
  for (const href of raw) {
    if (seen.size >= MAX_RESOURCES_PER_PAGE) break;
    const url = normalizeUrl(encodeQueryFor(href.trim(), encoding), base);
    if (url !== null && url.length <= MAX_URL_LENGTH) seen.add(url);
  }
  return [...seen];
}

/**
 * Resolves, normalizes and merges raw links: first position, first non-empty
 * text and every distinct one, nofollow only if always nofollow. With a base that is not a URL
 * (a caller bug), absolute links are still kept.
 */
function mergeLinks(raw: RawLink[], baseUrl: string, encoding: string, pageOrigin: string | null): ExtractedLink[] {
  const base = normalizeUrl(baseUrl) === null ? undefined : baseUrl;
  const byUrl = new Map<string, ExtractedLink>();
  for (const link of raw) {
    const url = normalizeUrl(encodeQueryFor(link.href, encoding), base);
    if (url === null || url.length > MAX_URL_LENGTH) continue;
    if (link.isSameOriginOnly === true && httpOrigin(url) !== pageOrigin) continue;
    const seen = byUrl.get(url);
    if (seen === undefined) {
      byUrl.set(url, {
        url,
        text: link.text,
        texts: link.text === '' ? [] : [link.text],
        nofollow: link.nofollow,
        element: link.element,
        rel: link.rel,
      });
    } else {
      if (!link.nofollow) seen.nofollow = false;
      if (seen.text === '') seen.text = link.text;
      if (link.text !== '' && seen.texts.length < MAX_TEXTS_PER_LINK && !seen.texts.includes(link.text))
        seen.texts.push(link.text);
    }
  }
  return [...byUrl.values()];
}
