/**
 * Entry point: `npm run crawl -- <start-url> [options]`, `npm start` (= `--demo`).
 * Wires {@link runCli} to the process: arguments, streams, Ctrl-C, exit code.
 */
import { fileURLToPath } from 'node:url';
import { EXIT, runCli } from './run-cli.ts';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  // First Ctrl-C: stop the crawl and still write what was stored. Second: leave now.
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  process.stderr.write('\ntabcrawl: stopping (Ctrl-C again to quit at once)\n');
  interrupt.abort();
});

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isStderrTTY: process.stderr.isTTY === true,
  env: process.env,
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  cwd: process.cwd(),
  signal: interrupt.signal,
  // The process's start: "never silent for 10 s" counts from the user's Enter, module loading included.
  startedAt: performance.timeOrigin,
});
process.exit(code);
