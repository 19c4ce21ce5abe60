/**
 * The command line's I/O (`CliIo`) for unit tests of `runCli`: stdout and
 * stderr kept as lists of what was written, no terminal, a root where nothing
 * is built (a test that reaches the browser gets a clear failure instead).
 */
import type { CliIo } from '../../src/shells/cli/run-cli.ts';

/** A `CliIo` whose output lands in `out` and `err`; `cwd` is where relative paths resolve. */
export function fakeCliIo(env: Record<string, string> = {}, cwd = '/tmp'): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    isStderrTTY: false,
    env,
    root: '/nonexistent-tabcrawl-root',
    cwd,
    signal: new AbortController().signal,
  };
}
