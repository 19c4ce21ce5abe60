#!/usr/bin/env node
// The `tabcrawl` command (package.json "bin"): runs the TypeScript CLI (main.ts) through tsx, from
// this package's own node_modules, whatever the current folder. Outputs are written relative to the
// current folder; the extension is built into, and loaded from, this package's dist/.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
