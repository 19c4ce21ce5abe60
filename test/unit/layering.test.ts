/**
 * The source tree's layering, enforced: which folder of `src/` may import
 * which (the shells in `src/shells/` apart from the platform-free code they
 * wire up), where the browser's APIs may be reached, and no import circles.
 * docs/architecture.md draws the same picture. (That the core cannot call
 * `chrome.*` is checked by `tsconfig.core.json`, in `npm run typecheck`.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/**
 * What each top-level folder of `src/` may import besides itself. The core
 * imports nothing of ours; features build on the core, storage and formats;
 * the shells (the background, each page, the command line) sit on top; and
 * nothing imports a shell but the shell itself.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
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
  settings: ['core', 'ui'],
  reports: ['core', 'audit', 'export', 'storage', 'ui'],
  results: ['core', 'audit', 'export', 'handoff', 'messaging', 'reports', 'storage', 'ui'],
  popup: ['core', 'audit', 'export', 'handoff', 'messaging', 'settings', 'storage', 'ui'],
  'export-view': ['core', 'export', 'ui'],
  // The import page's view (issue 18): the import itself comes in as a function, so only the shared formatting.
  'import-view': ['core', 'ui'],
  options: ['core', 'settings', 'ui'],
  // The hand-off to other crawlers (a Browsertrix Crawler config): pure, from the core's settings and scope.
  handoff: ['core'],
  // The shells: the only code that reaches the browser or the OS; each wires one feature to it.
  'shells/background': ['audit', 'core', 'export', 'messaging', 'storage'],
  'shells/popup': ['audit', 'core', 'export', 'messaging', 'popup', 'settings', 'storage', 'ui'],
  'shells/results': ['audit', 'core', 'export', 'messaging', 'results', 'storage', 'ui'],
  'shells/export': ['core', 'export', 'export-view', 'messaging', 'storage', 'ui'],
  'shells/options': ['core', 'options', 'settings', 'ui'],
  // The one page that writes the database besides the worker: a picked File cannot be sent to it.
  'shells/import': ['core', 'import', 'import-view', 'messaging', 'storage', 'ui'],
  'shells/cli': ['audit', 'core', 'export', 'handoff', 'messaging', 'ui'],
  // The build's shell: run by Vite and npm in Node (the manifest of each browser, the store zips), never in a browser.
  'shells/build': [],
};

/** Packages that reach the browser: only the shells may import them. */
const BROWSER_PACKAGES = new Set(['webextension-polyfill']);
/** Packages the core may use: pure parsers. */
const CORE_PACKAGES = new Set(['htmlparser2', 'robots-parser']);

interface SourceFile {
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

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

function parse(path: string): SourceFile {
  const text = readFileSync(path, 'utf8');
  const rel = relative(SRC, path).split('\\').join('/');
  const files: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? '';
    if (spec.startsWith('.')) {
      files.push(relative(SRC, normalize(join(dirname(path), spec))).split('\\').join('/'));
    } else if (!spec.startsWith('node:')) {
      const parts = spec.split('/');
      packages.push(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec));
    }
  }
  return { path: rel, folder: layerOf(rel), files, packages };
}

/** The layer of a path from `src/`: its top-level folder, or `shells/<name>` inside `shells/`. */
function layerOf(path: string): string {
  const [top = '', next = ''] = path.split('/');
  return top === 'shells' ? `shells/${next}` : top;
}

const FILES = sourceFiles().map(parse);

/** Shells that run in Node only, never in the browser. */
const NODE_SHELLS = new Set(['shells/build']);

/** A file that may touch the browser: a shell's (but the build's), or the messaging client the shells hand to the pages. */
const isBrowserShell = (file: SourceFile): boolean =>
  (file.folder.startsWith('shells/') && !NODE_SHELLS.has(file.folder)) || file.path === 'messaging/client.ts';

describe('layering of src/', () => {
  it('has a rule for every top-level folder and every shell', () => {
    const folders = [...new Set(FILES.map((file) => file.folder))].filter((folder) => !/\.[a-z]+$/.test(folder));
    assert.deepEqual(folders.filter((folder) => !(folder in ALLOWED)), []);
  });

  it('imports across folders only downwards, as the layers allow', () => {
    const wrong: string[] = [];
    for (const file of FILES) {
      const allowed = ALLOWED[file.folder] ?? [];
      for (const target of file.files) {
        const folder = layerOf(target);
        if (folder !== file.folder && !allowed.includes(folder)) wrong.push(`${file.path} imports ${target}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lets nothing import a shell but the shell itself', () => {
    const wrong = FILES.flatMap((file) =>
      file.files.filter((target) => layerOf(target).startsWith('shells/') && layerOf(target) !== file.folder).map((target) => `${file.path} imports ${target}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('keeps the core free of every package but its pure parsers', () => {
    const wrong = FILES.filter((file) => file.folder === 'core').flatMap((file) => file.packages.filter((name) => !CORE_PACKAGES.has(name)).map((name) => `${file.path} imports ${name}`));
    assert.deepEqual(wrong, []);
  });

  it('reaches the browser only from the shells', () => {
    const wrong = FILES.filter((file) => !isBrowserShell(file)).flatMap((file) =>
      file.packages.filter((name) => BROWSER_PACKAGES.has(name)).map((name) => `${file.path} imports ${name}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('has no import circle between files', () => {
    const byPath = new Map(FILES.map((file) => [file.path.replace(/\.(ts|tsx)$/, ''), file]));
    const targetOf = (spec: string): string => spec.replace(/\.(ts|tsx)$/, '');
    const state = new Map<string, 'visiting' | 'done'>();
    const circles: string[] = [];
    const visit = (path: string, trail: string[]): void => {
      if (state.get(path) === 'done') return;
      if (state.get(path) === 'visiting') {
        circles.push([...trail.slice(trail.indexOf(path)), path].join(' → '));
        return;
      }
      state.set(path, 'visiting');
      for (const target of byPath.get(path)?.files ?? []) {
        if (byPath.has(targetOf(target))) visit(targetOf(target), [...trail, path]);
      }
      state.set(path, 'done');
    };
    for (const path of byPath.keys()) visit(path, []);
    assert.deepEqual(circles, []);
  });
});
