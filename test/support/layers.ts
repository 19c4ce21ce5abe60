/**
 * The source tree's layers as data: which folder of `src/` may import which
 * (`ALLOWED`), every source file's imports, the arrows they use, and the
 * layer table of docs/architecture.md generated from them.
 * `test/unit/layering.test.ts` holds the tree to it; run this file to
 * rewrite the table after changing `ALLOWED` (`npm run docs` rewrites every generated block of the docs):
 *
 *     npx tsx test/support/layers.ts --write
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/**
 * What each top-level folder of `src/` may import besides itself. The core
 * imports nothing of ours; features build on the core, storage and formats;
 * the shells (the background, each page, the command line) sit on top; and
 * nothing imports a shell but the shell itself.
 */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // The core and what builds on it, platform-free.
  core: [],
  storage: ['core'],
  audit: ['core'],
  // The words of `ui/` too: the Not crawled CSV says why in the words the pages use.
  export: ['core', 'audit', 'ui'],
  // Reading WARC and WACZ files into crawl rows (issue 18's import): the core's link extraction and row shape.
  import: ['core'],
  messaging: ['core', 'export', 'audit'],
  ui: ['core'],
  settings: ['core'],
  reports: ['core', 'audit', 'export', 'ui'],
  results: ['core', 'audit', 'export', 'handoff', 'messaging', 'reports', 'storage', 'ui'],
  popup: ['core', 'audit', 'export', 'handoff', 'messaging', 'settings', 'ui'],
  'export-view': ['export', 'ui'],
  // The import page's view (issue 18): the import itself comes in as a function, so only the shared formatting.
  'import-view': ['ui'],
  options: ['settings', 'ui'],
  // The hand-off to other crawlers (a Browsertrix Crawler config): pure, from the core's settings and scope.
  handoff: ['core'],
  // The shells: the only code that reaches the browser or the OS; each wires one feature to it.
  'shells/background': ['audit', 'core', 'export', 'messaging', 'storage'],
  'shells/popup': ['export', 'messaging', 'popup', 'settings', 'ui'],
  'shells/results': ['export', 'messaging', 'results', 'storage', 'ui'],
  'shells/export': ['core', 'export', 'export-view', 'messaging', 'storage', 'ui'],
  'shells/options': ['options', 'settings', 'ui'],
  // The one page that writes the database besides the worker: a picked File cannot be sent to it.
  'shells/import': ['import', 'import-view', 'messaging', 'storage', 'ui'],
  'shells/cli': ['audit', 'core', 'export', 'handoff', 'messaging', 'ui'],
  // The build's shell: run by Vite and npm in Node (the manifest of each browser, the store zips), never in a browser.
  'shells/build': [],
};

/** Packages that reach the browser: only the shells may import them. */
export const BROWSER_PACKAGES = new Set(['webextension-polyfill']);
/** Packages the core may use: pure parsers (linkedom and xpath for custom extraction, safe-regex2 to refuse runaway patterns). */
export const CORE_PACKAGES = new Set([
  'htmlparser2',
  'robots-parser',
  'linkedom',
  'xpath',
  'safe-regex2',
  'css-select',
]);

export interface SourceFile {
  /** Path from `src/`, with `/`. */
  path: string;
  /** Its layer: a top-level folder of `src/`, or `shells/<name>` for a shell. */
  folder: string;
  /** Files of ours it imports (paths from `src/`) and packages (bare names). */
  files: string[];
  packages: string[];
}

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

function parse(path: string): SourceFile {
  const text = readFileSync(path, 'utf8');
  const rel = relative(SRC, path).split('\\').join('/');
  const files: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? '';
    if (spec.startsWith('.')) {
      files.push(
        relative(SRC, normalize(join(dirname(path), spec)))
          .split('\\')
          .join('/'),
      );
    } else if (!spec.startsWith('node:')) {
      const parts = spec.split('/');
      packages.push(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec));
    }
  }
  return { path: rel, folder: layerOf(rel), files, packages };
}

/** The layer of a path from `src/`: its top-level folder, or `shells/<name>` inside `shells/`. */
export function layerOf(path: string): string {
  const [top = '', next = ''] = path.split('/');
  return top === 'shells' ? `shells/${next}` : top;
}

export const FILES = sourceFiles().map(parse);

/** Shells that run in Node only, never in the browser. */
export const NODE_SHELLS = new Set(['shells/build']);

/** A file that may touch the browser: a shell's (but the build's), or the messaging client the shells hand to the pages. */
export const isBrowserShell = (file: SourceFile): boolean =>
  (file.folder.startsWith('shells/') && !NODE_SHELLS.has(file.folder)) || file.path === 'messaging/client.ts';

/** An arrow between two layers: `from` imports something of `to`. */
export type Arrow = `${string} → ${string}`;

/** The arrows between layers that some file uses, each once, sorted. */
export function usedArrows(files: readonly SourceFile[] = FILES): Arrow[] {
  const arrows = new Set<Arrow>();
  for (const file of files) {
    for (const target of file.files) {
      const to = layerOf(target);
      if (to !== file.folder) arrows.add(`${file.folder} → ${to}`);
    }
  }
  return [...arrows].sort();
}

/**
 * A layer's floor: the core is 0, any other layer one above the highest it
 * may import (so a layer is drawn above everything it builds on).
 */
export function floorOf(layer: string, allowed: Readonly<Record<string, readonly string[]>> = ALLOWED): number {
  const below = allowed[layer] ?? [];
  return below.length === 0 ? 0 : 1 + Math.max(...below.map((l) => floorOf(l, allowed)));
}

/** The layer table of docs/architecture.md, as Markdown: one row per layer, the floors from the top down. */
export function layerTable(allowed: Readonly<Record<string, readonly string[]>> = ALLOWED): string {
  const layers = Object.keys(allowed).sort((a, b) => floorOf(b, allowed) - floorOf(a, allowed) || a.localeCompare(b));
  const rows = layers.map((layer) => {
    const below = [...(allowed[layer] ?? [])].sort(
      (a, b) => floorOf(b, allowed) - floorOf(a, allowed) || a.localeCompare(b),
    );
    return `| ${floorOf(layer, allowed)} | \`${layer}/\` | ${below.length === 0 ? 'nothing of ours' : below.map((l) => `\`${l}/\``).join(', ')} |`;
  });
  return ['| floor | layer | may import (besides itself) |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Where the generated table sits in docs/architecture.md. */
export const ARCHITECTURE_DOC = join(ROOT, 'docs', 'architecture.md');
const BEGIN = '<!-- layers: generated from test/support/layers.ts; npm run docs -->';
const END = '<!-- /layers -->';

/** The generated block of a doc's text, or null when it has none. */
export function layerBlockOf(text: string): string | null {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  return from < 0 || to < from ? null : text.slice(from + BEGIN.length, to).trim();
}

/** The doc's text with its generated block replaced by the current table. */
export function withLayerTable(text: string): string {
  const from = text.indexOf(BEGIN);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${ARCHITECTURE_DOC} has no ${BEGIN} … ${END} block`);
  return `${text.slice(0, from + BEGIN.length)}\n${layerTable()}\n${text.slice(to)}`;
}

if (process.argv[1] === import.meta.filename && process.argv.includes('--write')) {
  writeFileSync(ARCHITECTURE_DOC, withLayerTable(readFileSync(ARCHITECTURE_DOC, 'utf8')));
  console.log(`wrote the layer table of ${relative(ROOT, ARCHITECTURE_DOC)}`);
}
