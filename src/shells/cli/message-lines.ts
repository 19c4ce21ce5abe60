/**
 * How the command line writes its message lines: `tabcrawl: ` before each, and every control character
 * in them written out (`\x1B`, `\x07`, `\u202E`, see `ui/visible-controls.ts`), so nothing a site or an
 * archive says reaches the terminal as a command. The progress line (`progress.ts`) does the same with
 * its own text and adds its `\r` and `ESC [K` after.
 */
import { visibleControls } from '../../ui/visible-controls.ts';

/**
 * `text` as the CLI's message lines: `tabcrawl: ` before each of its lines (an error's message may have
 * several), every control character in them written out (`\x1B`): what a site or an archive says is
 * never a command to the terminal.
 */
export function prefixed(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `tabcrawl: ${visibleControls(line)}\n`)
    .join('');
}

/** `text` written as it is but for its control characters, line feeds kept (the build's own output). */
export function visibleLines(text: string): string {
  return text.split('\n').map(visibleControls).join('\n');
}

/** Writes each line given through `write` as the CLI's message lines ({@link prefixed}): the `say` of `runCli`. */
export function messageWriter(write: (text: string) => void): (text: string) => void {
  return (text) => write(prefixed(text));
}
