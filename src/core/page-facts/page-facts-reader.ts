/**
 * Reads the facts of {@link PageFacts} that the markup holds, in the same
 * htmlparser2 pass as the links: `extract-links.ts`'s page reader forwards
 * every open tag, text and close tag here, and calls {@link PageFactsReader.finish}
 * once it knows the base URL. The facts a response header or the crawl's
 * scope decides are added by `response-facts.ts`.
 *
 * Pure and forgiving: garbage, unclosed or misnested markup never throws, and
 * every list is capped (see the constants), so a hostile page costs no more
 * than a few times the caps.
 */
import { normalizeUrl } from '../url/normalize-url.ts';
import { MAX_URL_LENGTH } from '../url/traps.ts';
import type { FragmentLink, HreflangAlternate, PageFacts } from './page-facts.ts';

/** Longest `<h1>` text kept, in UTF-16 code units. */
export const MAX_H1 = 500;
/** Longest meta description kept, in UTF-16 code units (search engines show about 160). */
export const MAX_DESCRIPTION = 1000;
/** Most robots directives kept from the markup. */
const MAX_DIRECTIVES = 50;
/** Most `hreflang` alternates kept. */
export const MAX_HREFLANG = 500;
/** Most non-http(s) links kept. */
export const MAX_OTHER_LINKS = 100;
/** Most images without `alt` kept. */
export const MAX_IMAGES_WITHOUT_ALT = 1000;
/** Most mixed-content URLs kept. */
export const MAX_MIXED_CONTENT = 1000;
/** Most `id`/`name` anchors kept. */
export const MAX_ANCHOR_IDS = 5000;
/** Most fragment links kept. */
export const MAX_FRAGMENT_LINKS = 1000;
/** Longest `id`, `name`, fragment or non-http(s) link kept: a longer one is dropped, not cut (cut, it would name another anchor). */
const MAX_NAME_LENGTH = 1000;

/** What the markup says; the rest of {@link PageFacts} comes from the headers and the crawl's scope. */
export type MarkupFacts = Omit<PageFacts, 'canonicalHeader' | 'internalLinks' | 'outboundLinks'>;

/**
 * Elements that do not break a word: `foo<b>bar</b>` is one word, `<p>foo</p><p>bar</p>` two
 * (every other element, `<br>` included, separates the text around it).
 */
const INLINE: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

/** Elements whose text a visitor does not read as the page's text. */
const HIDDEN: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template', 'title']);

/** Elements that may sit in `<head>`: any other one starts the body, even without a `<body>` tag. */
const HEAD_CONTENT: ReadonlySet<string> = new Set([
  'html',
  'head',
  'title',
  'base',
  'link',
  'meta',
  'style',
  'script',
  'noscript',
  'template',
]);

/** Robots directives that take a value after a colon: anything else before a colon is a user agent (`googlebot: noindex`). */
const VALUED_DIRECTIVES: ReadonlySet<string> = new Set([
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
]);

/**
 * Collects the markup's facts from htmlparser2 events (lower-cased tag and
 * attribute names, entities decoded).
 *
 * - canonical: the first `<link rel="canonical" href>` before the body (a
 *   canonical in the body is ignored, as search engines ignore it; so is a
 *   later one), resolved against the base URL and normalized;
 * - robots: `<meta name="robots">` and `<meta name="{productToken}">` (any
 *   case) directives; `googlebot`, `bingbot`… are other crawlers' and ignored;
 * - description: the first `<meta name="description">`;
 * - h1: the text of the first `<h1>` (nested markup included, scripts not),
 *   and how many `<h1>` there are;
 * - lang: the first `<html lang>`, trimmed;
 * - hreflang: `<link rel="alternate" hreflang href>`, distinct (lang and URL);
 * - wordCount: runs of non-space characters of the text outside `<script>`,
 *   `<style>`, `<noscript>`, `<template>`, `<head>`, `<title>` and SVG
 *   `<title>`/`<desc>`; inline elements (`<b>`, `<a>`, `<span>`…) do not
 *   split a word, other elements do;
 * - otherLinks: `<a>`/`<area>` hrefs whose scheme is not http(s) nor
 *   `javascript:` (`mailto:`, `tel:`, `ftp:`…), as written;
 * - imagesWithoutAlt: `<img src>` with no `alt` attribute;
 * - mixedContent: the page's `http:` resources when the page is `https:`
 *   (from the resources the page reader resolved);
 * - anchorIds: every `id`, and the `name` of `<a>`;
 * - fragmentLinks: `<a>`/`<area>` hrefs with a fragment (not empty, not
 *   `top`, which a browser always finds, not a text fragment `:~:`).
 */
export class PageFactsReader {
  private canonicalHref: string | null = null;
  private readonly metaRobots: string[] = [];
  private description: string | null = null;
  private h1: string | null = null;
  private h1Count = 0;
  /** Text of the first `<h1>` while it is open; null otherwise. */
  private h1Text: string | null = null;
  private h1Depth = 0;
  private lang: string | null = null;
  private isHtmlSeen = false;
  private readonly hreflangRaw: { lang: string; href: string }[] = [];
  private wordCount = 0;
  /** The last text piece ended inside a word: the next piece, if it starts with a letter, continues it. */
  private isInWord = false;
  /** Open elements whose text is not visible. */
  private hiddenDepth = 0;
  private svgDepth = 0;
  private svgHiddenDepth = 0;
  /** Past `<head>`: a `<body>`, a `</head>` or any element that cannot be in a head has been seen. */
  private isBodyStarted = false;
  /** Inside an open `<head>` (its text is not the page's), until the body starts. */
  private isInHead = false;
  private readonly hrefs: string[] = [];
  private readonly imageSrcs: string[] = [];
  private readonly ids = new Set<string>();

  /**
   * @param productToken the crawler's robots.txt product token (its own `<meta name>` robots directives count).
   * @param encodeQuery how a link's query is encoded on a page in `encoding`, as a browser does (the link
   *   extractor's `encodeQueryFor`: passed in, so that page facts do not reach back into `links/`).
   */
  constructor(
    private readonly productToken: string,
    private readonly encodeQuery: (href: string, encoding: string) => string,
  ) {}

  onopentag(name: string, attributes: Record<string, string>): void {
    if (!INLINE.has(name)) this.isInWord = false;
    if (!HEAD_CONTENT.has(name)) this.startBody();
    if (HIDDEN.has(name)) this.hiddenDepth += 1;
    if (this.svgDepth > 0 && (name === 'title' || name === 'desc')) this.svgHiddenDepth += 1;
    const id = attributes['id'];
    if (id !== undefined) this.addId(id);
    switch (name) {
      case 'html':
        if (!this.isHtmlSeen) {
          this.isHtmlSeen = true;
          const lang = attributes['lang']?.trim();
          if (lang !== undefined && lang !== '') this.lang = lang;
        }
        break;
      case 'head':
        if (!this.isBodyStarted) this.isInHead = true;
        break;
      case 'link': {
        const rels = relTokens(attributes['rel']);
        const href = attributes['href'];
        if (href === undefined) break;
        if (rels.includes('canonical') && this.canonicalHref === null && !this.isBodyStarted) this.canonicalHref = href;
        const hreflang = attributes['hreflang']?.trim().toLowerCase();
        if (
          rels.includes('alternate') &&
          hreflang !== undefined &&
          hreflang !== '' &&
          this.hreflangRaw.length < MAX_HREFLANG * 2
        ) {
          this.hreflangRaw.push({ lang: hreflang, href });
        }
        break;
      }
      case 'meta': {
        const metaName = attributes['name']?.trim().toLowerCase();
        const content = attributes['content'];
        if (metaName === undefined || content === undefined) break;
        if (metaName === 'robots' || metaName === this.productToken.toLowerCase()) {
          for (const directive of robotsDirectives(content)) {
            if (this.metaRobots.length < MAX_DIRECTIVES && !this.metaRobots.includes(directive))
              this.metaRobots.push(directive);
          }
        } else if (metaName === 'description' && this.description === null) {
          this.description = cap(collapse(content), MAX_DESCRIPTION);
        }
        break;
      }
      case 'h1':
        this.h1Count += 1;
        if (this.h1 === null && this.h1Text === null) this.h1Text = '';
        if (this.h1Text !== null) this.h1Depth += 1;
        break;
      case 'a':
      case 'area': {
        if (name === 'a' && attributes['name'] !== undefined) this.addId(attributes['name']);
        const href = attributes['href'];
        if (href !== undefined && this.hrefs.length < (MAX_FRAGMENT_LINKS + MAX_OTHER_LINKS) * 4) this.hrefs.push(href);
        break;
      }
      case 'img':
        if (
          attributes['alt'] === undefined &&
          attributes['src'] !== undefined &&
          this.imageSrcs.length < MAX_IMAGES_WITHOUT_ALT * 2
        ) {
          this.imageSrcs.push(attributes['src']);
        }
        break;
      case 'svg':
        this.svgDepth += 1;
        break;
    }
  }

  ontext(text: string): void {
    if (this.h1Text !== null && this.hiddenDepth === 0 && this.h1Text.length < MAX_H1 * 4) this.h1Text += text;
    if (this.hiddenDepth > 0 || this.svgHiddenDepth > 0 || this.isInHead) return;
    this.countWords(text);
  }

  onclosetag(name: string): void {
    if (!INLINE.has(name)) this.isInWord = false;
    if (HIDDEN.has(name)) this.hiddenDepth = Math.max(0, this.hiddenDepth - 1);
    if (name === 'head') this.startBody();
    if (this.svgDepth > 0 && (name === 'title' || name === 'desc'))
      this.svgHiddenDepth = Math.max(0, this.svgHiddenDepth - 1);
    if (name === 'svg') {
      this.svgDepth = Math.max(0, this.svgDepth - 1);
      if (this.svgDepth === 0) this.svgHiddenDepth = 0;
    }
    if (name === 'h1' && this.h1Text !== null) {
      this.h1Depth -= 1;
      if (this.h1Depth <= 0) this.closeH1();
    }
  }

  /** An `<h1>` left open at the end of the document still counts. */
  onend(): void {
    if (this.h1Text !== null) this.closeH1();
  }

  /**
   * The facts, once the whole page is read.
   * @param pageUrl the page's absolute URL (after redirects).
   * @param baseUrl what relative URLs resolve against (the first `<base href>`, else the page URL).
   * @param resources the page's resources, resolved and normalized (for mixed content).
   * @param encoding the page's encoding (queries of non-UTF-8 pages are encoded as a browser does).
   */
  finish(pageUrl: string, baseUrl: string, resources: readonly string[], encoding: string): MarkupFacts {
    const base = normalizeUrl(baseUrl) === null ? undefined : baseUrl;
    const resolve = (href: string): string | null => {
      const url = normalizeUrl(this.encodeQuery(href, encoding), base);
      return url !== null && url.length <= MAX_URL_LENGTH ? url : null;
    };
    const hreflang: HreflangAlternate[] = [];
    const seenAlternates = new Set<string>();
    for (const { lang, href } of this.hreflangRaw) {
      const url = resolve(href);
      const key = `${lang} ${url ?? ''}`;
      if (url === null || seenAlternates.has(key) || hreflang.length >= MAX_HREFLANG) continue;
      seenAlternates.add(key);
      hreflang.push({ lang, url });
    }
    const imagesWithoutAlt = distinct(
      this.imageSrcs.map(resolve).filter((url) => url !== null),
      MAX_IMAGES_WITHOUT_ALT,
    );
    const isHttpsPage = pageUrl.startsWith('https:');
    const mixedContent = isHttpsPage
      ? distinct(
          resources.filter((url) => url.startsWith('http:')),
          MAX_MIXED_CONTENT,
        )
      : [];
    const otherLinks: string[] = [];
    const fragmentLinks: FragmentLink[] = [];
    const seenFragments = new Set<string>();
    for (const raw of this.hrefs) {
      const href = raw.trim();
      const parsed = parseUrl(href, base ?? pageUrl);
      if (parsed === null) continue;
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        if (
          parsed.protocol !== 'javascript:' &&
          href.length <= MAX_NAME_LENGTH &&
          otherLinks.length < MAX_OTHER_LINKS &&
          !otherLinks.includes(href)
        ) {
          otherLinks.push(href);
        }
        continue;
      }
      const fragment = fragmentOf(href);
      if (fragment === null || fragmentLinks.length >= MAX_FRAGMENT_LINKS) continue;
      const url = resolve(href);
      if (url === null) continue;
      const key = `${url}#${fragment}`;
      if (seenFragments.has(key)) continue;
      seenFragments.add(key);
      fragmentLinks.push({ url, fragment });
    }
    return {
      canonical: this.canonicalHref === null ? null : resolve(this.canonicalHref),
      robots: [...this.metaRobots],
      description: this.description,
      h1: this.h1,
      h1Count: this.h1Count,
      lang: this.lang,
      hreflang,
      wordCount: this.wordCount,
      otherLinks,
      imagesWithoutAlt,
      mixedContent,
      anchorIds: [...this.ids],
      fragmentLinks,
    };
  }

  private startBody(): void {
    this.isBodyStarted = true;
    this.isInHead = false;
  }

  private addId(value: string): void {
    if (value === '' || value.length > MAX_NAME_LENGTH || this.ids.size >= MAX_ANCHOR_IDS) return;
    this.ids.add(value);
  }

  private closeH1(): void {
    if (this.h1 === null) this.h1 = cap(collapse(this.h1Text ?? ''), MAX_H1);
    this.h1Text = null;
    this.h1Depth = 0;
  }

  /** Counts the words of one text piece, a word cut between pieces counted once. */
  private countWords(text: string): void {
    const words = text.match(/\S+/g);
    if (words === null) {
      if (text !== '') this.isInWord = false;
      return;
    }
    const continues = this.isInWord && !/^\s/.test(text);
    this.wordCount += words.length - (continues ? 1 : 0);
    this.isInWord = !/\s$/.test(text);
  }
}

/**
 * The directives of a robots `content` or `X-Robots-Tag` list for one user
 * agent: comma-separated, lower-cased, trimmed, spaces around a value's colon
 * removed (`max-snippet: 20` → `max-snippet:20`), empty ones dropped.
 */
export function robotsDirectives(content: string): string[] {
  const directives: string[] = [];
  for (const part of content.split(',')) {
    const directive = part
      .trim()
      .toLowerCase()
      .replace(/\s*:\s*/, ':')
      .replace(/\s+/g, ' ');
    if (directive !== '' && !directives.includes(directive)) directives.push(directive);
  }
  return directives;
}

/**
 * The directives of `X-Robots-Tag` header values that apply to the crawler
 * `productToken`: those with no user-agent prefix (every crawler) and those
 * after a `productToken:` prefix (any case); those after another prefix
 * (`googlebot: noindex`) are another crawler's. A prefix applies to the
 * directives after it in the same header value, up to the next prefix
 * (`googlebot: noindex, tabcrawl: nofollow`). Lower-cased, distinct, in order.
 *
 * Headers sent twice may reach us joined with `, ` (fetch's `Headers` does):
 * `googlebot: noindex` then `nofollow` is read as both for googlebot, the
 * cautious reading for a crawler that is not googlebot.
 */
export function xRobotsDirectives(values: readonly string[], productToken: string): string[] {
  const token = productToken.toLowerCase();
  const directives: string[] = [];
  for (const value of values) {
    let agent: string | null = null;
    for (const part of value.split(',')) {
      let directive = part.trim();
      const prefixed = /^([A-Za-z0-9_.-]+)\s*:\s*(.*)$/s.exec(directive);
      if (prefixed && !VALUED_DIRECTIVES.has((prefixed[1] ?? '').toLowerCase())) {
        agent = (prefixed[1] ?? '').toLowerCase();
        directive = prefixed[2] ?? '';
      }
      if (agent !== null && agent !== token) continue;
      for (const d of robotsDirectives(directive))
        if (!directives.includes(d) && directives.length < MAX_DIRECTIVES) directives.push(d);
    }
  }
  return directives;
}

/** The tokens of a `rel` attribute, lower-cased. */
function relTokens(rel: string | undefined): string[] {
  return rel === undefined
    ? []
    : rel
        .toLowerCase()
        .split(/[\t\n\f\r ]+/)
        .filter((token) => token !== '');
}

/** The fragment of an href (without `#`), percent-decoded; null when none, empty, `top`, or a text fragment. */
function fragmentOf(href: string): string | null {
  const at = href.indexOf('#');
  if (at < 0) return null;
  const raw = href.slice(at + 1);
  if (raw === '' || raw.startsWith(':~:') || raw.length > MAX_NAME_LENGTH) return null;
  let fragment: string;
  try {
    fragment = decodeURIComponent(raw);
  } catch {
    fragment = raw; // A lone `%`: a browser looks for the fragment as written.
  }
  return fragment.toLowerCase() === 'top' ? null : fragment;
}

function parseUrl(href: string, base: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

function distinct(values: readonly string[], max: number): string[] {
  return [...new Set(values)].slice(0, max);
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
