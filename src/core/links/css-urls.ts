/**
 * The URLs a stylesheet loads: its `@import`s and every `url(…)` (fonts,
 * background images, cursors, masks…). Pure and forgiving: a small tokenizer
 * that knows comments, strings and escapes (CSS Syntax Level 3, §4), so a
 * `url(` inside a comment or a string is not a URL, and broken CSS never throws.
 *
 * Used for stylesheet resources, `<style>` blocks and `style=""` attributes
 * (see `resource-refs.ts`); the URLs come back as written, unresolved: the
 * caller resolves them against the stylesheet's URL (for a sheet) or the
 * page's base URL (inline CSS), as browsers do.
 */

/** What a stylesheet asks for, in order of appearance, as written (escapes decoded, not resolved). */
export interface CssRefs {
  /** `@import "x"` / `@import url(x)`: stylesheets whose own URLs are read in turn. */
  imports: string[];
  /** Every other `url(…)` / `image-set("…")` string: fonts, images. */
  urls: string[];
}

/** Most references read from one stylesheet: a generated sheet with a million `url()`s costs no more than this. */
export const MAX_CSS_REFS = 5000;

/**
 * Reads the URLs of a stylesheet (or of a `style` attribute's declarations).
 * Empty and `data:` URLs and fragment-only ones (`url(#clip)`, SVG references into the page) are dropped.
 */
export function cssUrls(css: string): CssRefs {
  const imports: string[] = [];
  const urls: string[] = [];
  const n = css.length;
  let i = 0;
  /** The last token was `@import` (its URL is the next string or url()). */
  let inImport = false;
  /** Inside `image-set(` / `-webkit-image-set(`: bare strings there are image URLs. */
  let imageSetDepth = 0;
  let parenDepth = 0;
  const keep = (raw: string, isImport: boolean): void => {
    const url = raw.trim();
    if (url === '' || url.startsWith('#') || /^data:/i.test(url)) return;
    if (imports.length + urls.length >= MAX_CSS_REFS) return;
    (isImport ? imports : urls).push(url);
  };

  while (i < n) {
    const c = css[i] as string;
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const [text, next] = readString(css, i);
      if (inImport) {
        keep(text, true);
        inImport = false;
      } else if (imageSetDepth > 0) keep(text, false);
      i = next;
      continue;
    }
    if (c === '@') {
      const [word, end] = readName(css, i + 1);
      if (word.toLowerCase() === 'import') inImport = true;
      i = Math.max(end, i + 1);
      continue;
    }
    if (c === '(') {
      parenDepth += 1;
      i += 1;
      continue;
    }
    if (c === ')') {
      if (imageSetDepth > 0 && parenDepth === imageSetDepth) imageSetDepth = 0;
      parenDepth = Math.max(0, parenDepth - 1);
      i += 1;
      continue;
    }
    if (c === ';' || c === '{' || c === '}') {
      inImport = false;
      i += 1;
      continue;
    }
    if (isNameStart(c) || c === '-' || c === '\\') {
      const [name, after] = readName(css, i);
      if (name === '') {
        i += 1;
        continue;
      }
      const lower = name.toLowerCase();
      if (css[after] === '(' && lower === 'url') {
        const [text, next] = readUrl(css, after + 1);
        if (text !== null) {
          keep(text, inImport);
          inImport = false;
          i = next;
          continue;
        }
        // url( followed by a quoted string (`next` is its quote): a function like any other, its string is the URL.
        const [quoted, end] = readQuotedUrl(css, next);
        keep(quoted, inImport);
        inImport = false;
        i = end;
        continue;
      }
      if (css[after] === '(' && (lower === 'image-set' || lower === '-webkit-image-set')) {
        parenDepth += 1;
        imageSetDepth = parenDepth;
        i = after + 1;
        continue;
      }
      i = after;
      continue;
    }
    i += 1;
  }
  return { imports, urls };
}

function isNameStart(c: string): boolean {
  return /[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80;
}

/** An identifier from `start` (letters, digits, `-`, `_`, non-ASCII, escapes): its value (escapes decoded) and the index after it. */
function readName(css: string, start: number): [string, number] {
  let i = start;
  let out = '';
  while (i < css.length) {
    const c = css[i] as string;
    if (/[A-Za-z0-9_-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      out += c;
      i += 1;
    } else if (c === '\\' && css[i + 1] !== undefined && css[i + 1] !== '\n') {
      const [ch, next] = readEscape(css, i + 1);
      out += ch;
      i = next;
    } else break;
  }
  return [out, i];
}

/** A string token starting at the quote at `start`: its value (escapes decoded) and the index after it. */
function readString(css: string, start: number): [string, number] {
  const quote = css[start];
  let i = start + 1;
  let out = '';
  while (i < css.length) {
    const c = css[i] as string;
    if (c === quote) return [out, i + 1];
    if (c === '\n') return [out, i]; // a bad string: ends at the line break
    if (c === '\\') {
      const next = css[i + 1];
      if (next === undefined) return [out, i + 1];
      if (next === '\n') {
        i += 2;
        continue;
      }
      const [ch, after] = readEscape(css, i + 1);
      out += ch;
      i = after;
      continue;
    }
    out += c;
    i += 1;
  }
  return [out, i];
}

/**
 * An unquoted `url(` token's value from just after the `(`; null when the
 * first non-space character is a quote (then it is a function with a string).
 */
function readUrl(css: string, start: number): [string | null, number] {
  let i = start;
  while (i < css.length && /\s/.test(css[i] as string)) i += 1;
  if (css[i] === '"' || css[i] === "'") return [null, i];
  let out = '';
  while (i < css.length) {
    const c = css[i] as string;
    if (c === ')') return [out, i + 1];
    if (/\s/.test(c)) {
      while (i < css.length && /\s/.test(css[i] as string)) i += 1;
      if (css[i] === ')') return [out, i + 1];
      // A bad url: skip to its end (CSS Syntax §4.3.14).
      const end = css.indexOf(')', i);
      return ['', end < 0 ? css.length : end + 1];
    }
    if (c === '\\') {
      const [ch, after] = readEscape(css, i + 1);
      out += ch;
      i = after;
      continue;
    }
    out += c;
    i += 1;
  }
  return [out, i];
}

/** `url(  "x"  )`: the string, and the index after the closing parenthesis (or the string when there is none). */
function readQuotedUrl(css: string, stringStart: number): [string, number] {
  const [text, after] = readString(css, stringStart);
  let i = after;
  while (i < css.length && /\s/.test(css[i] as string)) i += 1;
  return [text, css[i] === ')' ? i + 1 : after];
}

/** An escape after its backslash: up to 6 hex digits (and one whitespace), or the character itself. */
function readEscape(css: string, start: number): [string, number] {
  const hex = /^[0-9A-Fa-f]{1,6}/.exec(css.slice(start, start + 6));
  if (hex) {
    let next = start + hex[0].length;
    if (/\s/.test(css[next] ?? '')) next += 1;
    const code = Number.parseInt(hex[0], 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return [valid ? String.fromCodePoint(code) : '\uFFFD', next];
  }
  return [css[start] ?? '', start + 1];
}
