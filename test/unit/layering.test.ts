/**
 * The source tree's layering, enforced: which folder of `src/` may import
 * which (the shells in `src/shells/` apart from the platform-free code they
 * wire up), where the browser's APIs may be reached, and no import circles.
 * docs/architecture.md draws the same picture. (That the core cannot call
 * `chrome.*` is checked by `tsconfig.core.json`, in `npm run typecheck`.)
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  ALLOWED,
  ARCHITECTURE_DOC,
  BROWSER_PACKAGES,
  CORE_PACKAGES,
  FILES,
  isBrowserShell,
  layerBlockOf,
  layerOf,
  layerTable,
  usedArrows,
  withLayerTable,
} from '../support/layers.ts';

describe('layering of src/', () => {
  it('has a rule for every top-level folder and every shell', () => {
    const folders = [...new Set(FILES.map((file) => file.folder))].filter((folder) => !/\.[a-z]+$/.test(folder));
    assert.deepEqual(
      folders.filter((folder) => !(folder in ALLOWED)),
      [],
    );
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
      file.files
        .filter((target) => layerOf(target).startsWith('shells/') && layerOf(target) !== file.folder)
        .map((target) => `${file.path} imports ${target}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('keeps the core free of every package but its pure parsers', () => {
    const wrong = FILES.filter((file) => file.folder === 'core').flatMap((file) =>
      file.packages.filter((name) => !CORE_PACKAGES.has(name)).map((name) => `${file.path} imports ${name}`),
    );
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

  it('allows no arrow that no file uses, so the table is the map of the house', () => {
    const used = new Set(usedArrows());
    const unused = Object.entries(ALLOWED).flatMap(([from, tos]) =>
      tos.map((to) => `${from} → ${to}`).filter((arrow) => !used.has(arrow as `${string} → ${string}`)),
    );
    assert.deepEqual(unused, [], 'take these arrows out of ALLOWED in test/support/layers.ts (then: npm run docs)');
  });

  it("draws docs/architecture.md's layer table from ALLOWED", () => {
    const text = readFileSync(ARCHITECTURE_DOC, 'utf8');
    if (process.env.UPDATE_DOCS === '1' && layerBlockOf(text) !== layerTable())
      writeFileSync(ARCHITECTURE_DOC, withLayerTable(text));
    const block = layerBlockOf(readFileSync(ARCHITECTURE_DOC, 'utf8'));
    assert.equal(block, layerTable(), 'run: npm run docs');
  });

  it("lets the core's folders depend on each other one way only (links/ on page-facts/, never back)", () => {
    // The files at the core's root (model.ts, the settings) are the shared types every folder uses.
    const inFolder = (path: string): boolean => path.startsWith('core/') && path.split('/').length > 2;
    const folderOf = (path: string): string => path.split('/').slice(0, 2).join('/');
    const arrows = new Set(
      FILES.filter((file) => inFolder(file.path)).flatMap((file) =>
        file.files
          .filter((target) => inFolder(target) && folderOf(target) !== folderOf(file.path))
          .map((target) => `${folderOf(file.path)} → ${folderOf(target)}`),
      ),
    );
    const both = [...arrows].filter((arrow) => {
      const [from, to] = arrow.split(' → ');
      return from !== undefined && to !== undefined && from < to && arrows.has(`${to} → ${from}`);
    });
    assert.deepEqual(both, []);
  });
});
