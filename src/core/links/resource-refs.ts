/**
 * What a browser loads to show an HTML page, read from one element's tag and
 * attributes: stylesheets, scripts, images (every `srcset` candidate), icons
 * and manifests, preloads, media, embeds and objects, and the `url()`s of a
 * `style=""` attribute. Pure: `extract-links.ts` calls it for each opening
 * tag of its single parsing pass, and resolves what it returns.
 *
 * Frames are not here: an `<iframe>`/`<frame>` is a page, whose links are
 * followed (see `extractLinks`).
 */
import { cssUrls } from './css-urls.ts';

/** `<link rel>` tokens whose `href` a browser loads to show the page (or to install it: icons, manifests). */
const RESOURCE_RELS: ReadonlySet<string> = new Set([
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'manifest',
  'mask-icon',
  'modulepreload',
  'preload',
]);

/** Whether a `<link>` with this `rel` is a page resource (one of {@link RESOURCE_RELS} among its tokens). */
export function isResourceLinkRel(rel: string | undefined): boolean {
  return (rel ?? '')
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .some((token) => RESOURCE_RELS.has(token));
}

/** Elements whose `background` attribute (HTML 3.2, still rendered) is an image. */
const BACKGROUND_TAGS: ReadonlySet<string> = new Set(['body', 'table', 'td', 'th']);

/**
 * The resource URLs one element asks for, as written (not resolved), in
 * attribute order. `inSvg`: the element is inside an inline `<svg>`, where
 * `<image href>` and `<use href>` load files.
 */
export function resourceRefsOf(name: string, attributes: Record<string, string>, inSvg: boolean): string[] {
  const refs: string[] = [];
  const add = (value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '') refs.push(value);
  };
  const addSrcset = (value: string | undefined): void => {
    if (value !== undefined) for (const url of srcsetUrls(value)) refs.push(url);
  };
  switch (name) {
    case 'link': {
      if (isResourceLinkRel(attributes['rel'])) {
        add(attributes['href']);
        addSrcset(attributes['imagesrcset']);
      }
      break;
    }
    case 'script':
      add(attributes['src']);
      break;
    case 'img':
      add(attributes['src']);
      addSrcset(attributes['srcset']);
      break;
    case 'source':
      add(attributes['src']);
      addSrcset(attributes['srcset']);
      break;
    case 'input':
      if ((attributes['type'] ?? '').trim().toLowerCase() === 'image') add(attributes['src']);
      break;
    case 'video':
      add(attributes['src']);
      add(attributes['poster']);
      break;
    case 'audio':
    case 'track':
    case 'embed':
      add(attributes['src']);
      break;
    case 'object':
      add(attributes['data']);
      break;
    case 'image':
    case 'use':
      if (inSvg) {
        const href = attributes['href'] ?? attributes['xlink:href'];
        // `<use href="#icon">` points into the page itself: nothing to load.
        if (href !== undefined && !href.trim().startsWith('#')) add(href);
      }
      break;
  }
  if (BACKGROUND_TAGS.has(name)) add(attributes['background']);
  const style = attributes['style'];
  if (style !== undefined && /url\(|image-set\(/i.test(style)) {
    const { imports, urls } = cssUrls(style);
    refs.push(...imports, ...urls);
  }
  return refs;
}

/**
 * The URLs of a `srcset` (HTML's "parse a srcset attribute"): candidates are
 * separated by commas; a URL runs to the next whitespace and may itself
 * contain commas (a trailing comma ends it), and descriptors (`2x`, `300w`)
 * follow it.
 */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  const n = srcset.length;
  let i = 0;
  while (i < n) {
    while (i < n && /[\s,]/.test(srcset[i] as string)) i += 1;
    if (i >= n) break;
    let end = i;
    while (end < n && !/\s/.test(srcset[end] as string)) end += 1;
    let url = srcset.slice(i, end);
    let hasDescriptors = true;
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      hasDescriptors = false;
    }
    if (url !== '') urls.push(url);
    i = end;
    if (hasDescriptors) {
      // Skip the descriptors up to the comma that ends the candidate (parentheses may hold commas).
      let depth = 0;
      while (i < n) {
        const c = srcset[i] as string;
        if (c === '(') depth += 1;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
        i += 1;
      }
    }
  }
  return urls;
}
