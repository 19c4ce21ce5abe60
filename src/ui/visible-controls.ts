/**
 * Control characters made visible: text that came from a crawled site or an archive (a title, an anchor
 * text, a `WARC-Target-URI`, a reader's warning quoting it) is shown with its controls written out, so it
 * can neither drive a terminal (ESC, BEL, CSI, OSC 52) nor reorder what is shown (RLO). Pure.
 *
 * The escapes: a C0 control (U+0000–U+001F), DEL (U+007F) or a C1 control (U+0080–U+009F) as `\xHH`,
 * a bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) as `\uHHHH`, upper-case
 * hex: ESC is `\x1B`, NUL `\x00`, RLO `\u202E`. A backslash is left as it is.
 */

/** The bidirectional controls: marks, embeddings, overrides and isolates. */
const BIDI = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';

const ALL = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F${BIDI}]`, 'gu');
/** The C0 controls but tab, line feed and carriage return, DEL and the C1 controls. */
const DATA = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;
/** {@link DATA} and the bidirectional controls. */
const TEXT = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI}]`, 'gu');

function escape(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).toUpperCase();
  return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * `text` with every control character (C0, DEL, C1) and bidirectional control written out (`\x1B`,
 * `\u202E`), a line feed too: for one line of the command line's output, or crawled text on a page.
 */
export function visibleControls(text: string): string {
  return text.replace(ALL, escape);
}

/**
 * `text` as a page shows crawled text: every control written out (`\x00`, `\x1B`, `\u202E`) but tab,
 * line feed and carriage return, which HTML lays out as white space (and a `<pre>` as its lines).
 */
export function visibleTextControls(text: string): string {
  return text.replace(TEXT, escape);
}

/**
 * `text` with the controls that break a table's cell written out (`\x00`): C0 but tab, line feed and
 * carriage return (a CSV writer quotes those), DEL and C1. Bidirectional controls are kept: they are
 * the text's own, and a right-to-left title may need its marks.
 */
export function visibleDataControls(text: string): string {
  return text.replace(DATA, escape);
}
