/**
 * One line saying why Chromium did not start, from Playwright's launch error:
 * that error runs to dozens of lines (the whole command line, a call log in
 * terminal colours), and the reason, Chromium's own output, is buried in it.
 */

/** Terminal colour codes (`ESC[2m`), as Playwright writes its call log. */
const ANSI_ESCAPE = /\x1b\[[0-9;]*m/g;

/** A line Chromium wrote, as Playwright quotes it: `[pid=123][err] text`. */
const BROWSER_OUTPUT = /^\[pid=\d+\]\[(?:err|out)\] (.*)$/;

/** How Chromium ended: `<process did exit: exitCode=127, signal=null>`. */
const PROCESS_EXIT = /<process did exit: exitCode=(\w+), signal=(\w+)>/;

/** Most lines of Chromium's own output quoted. */
const MAX_OUTPUT_LINES = 3;

/**
 * Why the launch of `chromePath` failed, on one line: Chromium's own output
 * (its last {@link MAX_OUTPUT_LINES} lines) and how it exited, when
 * Playwright's message holds them; otherwise the message's first line.
 * @param message the launch error's message.
 * @param chromePath the Chromium that was started.
 */
export function chromiumLaunchProblem(message: string, chromePath: string): string {
  const lines = message.replace(ANSI_ESCAPE, '').split('\n');
  const logsAt = lines.indexOf('Browser logs:');
  if (logsAt === -1) return lines[0] ?? message;
  const callLogAt = lines.indexOf('Call log:', logsAt);
  const logs = lines.slice(logsAt + 1, callLogAt === -1 ? undefined : callLogAt);
  const output = logs.flatMap((line) => {
    const text = BROWSER_OUTPUT.exec(line)?.[1]?.trim();
    return text === undefined || text === '' ? [] : [text];
  });
  const exit = PROCESS_EXIT.exec(lines.join('\n'));
  const how = exit === null ? '' : exit[2] !== 'null' ? ` (killed by ${exit[2]})` : ` (exit code ${exit[1]})`;
  const said = output.length === 0 ? 'it wrote nothing' : output.slice(-MAX_OUTPUT_LINES).join(' / ');
  return `Chromium (${chromePath}) did not start${how}: ${said}; set CHROME_PATH to a Chromium that runs`;
}
