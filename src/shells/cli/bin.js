#!/usr/bin/env node
// The `tabcrawl` command (package.json "bin"): runs the TypeScript CLI (main.ts) through tsx, from
// this package's own node_modules, whatever the current folder. Outputs are written relative to the
// current folder; the extension is built into, and loaded from, this package's dist/chrome/.
//
// The CLI needs packages that are dev dependencies (tsx to run it, vite to build the extension,
// playwright-core to drive Chromium): it runs from a checkout after `npm install` (linked with
// `npm install -g .` or `npm link`), not from a copy installed without them. Such a copy says so.
import { fileURLToPath } from 'node:url';

/** The package root: this file is src/shells/cli/bin.js. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Says which package this copy lacks and how to get one that runs, and exits 1; rethrows any other error.
 * @param {unknown} error
 */
function failUnlessMissing(error) {
  const isMissing = error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND';
  if (!isMissing) throw error;
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(error.message)?.[1] ?? 'a package it needs';
  process.stderr.write(
    `tabcrawl: cannot run: the package ${name} is not installed for ${root}\n` +
      'tabcrawl: the command needs its dev dependencies (tsx, vite, playwright-core): in a checkout, run npm install, ' +
      'then npm install -g . (or npm link) to put tabcrawl on the PATH\n',
  );
  process.exit(1);
}

try {
  const { register } = await import('tsx/esm/api');
  register();
} catch (error) {
  failUnlessMissing(error);
}
try {
  await import('./main.ts');
} catch (error) {
  failUnlessMissing(error);
}
