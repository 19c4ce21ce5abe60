/**
 * The docs name source files (docs/architecture.md lists which files each kind of change touches); a
 * rename or a split must not leave them pointing at files that are gone. Every `….ts` or `….tsx` in
 * backticks in README.md, CONTRIBUTING.md and docs/*.md must be a file of the tree: a path is looked up
 * from the root, from `src/` and from `test/` (and as the end of a path, for `kinds/page-kind.ts`), a
 * bare name as any file's name.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', 'packages', 'tabcrawl-output']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(ROOT, path).split('\\').join('/')];
  });
}

const TREE = filesUnder(ROOT);
const NAMES = new Set(TREE.map((path) => path.slice(path.lastIndexOf('/') + 1)));
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Whether a name a doc gives is a file of the tree. */
function exists(named: string): boolean {
  if (!named.includes('/')) return NAMES.has(named);
  return (
    ['', 'src/', 'test/'].some((prefix) => existsSync(join(ROOT, prefix + named))) ||
    TREE.some((path) => path.endsWith(`/${named}`))
  );
}

describe('source files named by the docs', () => {
  it('exist, so that the lists of what a change touches stay true', () => {
    const missing = DOCS.flatMap((doc) =>
      [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/`([\w@./-]+\.tsx?)`/g)]
        .map((match) => match[1] ?? '')
        .filter((named) => !exists(named))
        .map((named) => `${doc}: ${named}`),
    );
    assert.deepEqual(missing, []);
  });

  it('would notice a file that is not there', () => {
    assert.equal(exists('core/crawl/no-such-step.ts'), false);
    assert.equal(exists('no-such-step.ts'), false);
    assert.equal(exists('core/crawl/crawl-runner.ts'), true);
  });
});
