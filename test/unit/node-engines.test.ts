/**
 * The Node versions Tabcrawl says it runs on (`engines` in package.json, named
 * in the README and CONTRIBUTING.md) are versions every installed package
 * accepts: otherwise `npm install` warns (EBADENGINE) on a Node the project
 * claims, and a package may not work there.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const ROOT = resolve(import.meta.dirname, '../..');

interface LockedPackage {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
}

/** The `node` range of a locked package's `engines`, or undefined when it names none. */
function nodeRangeOf(entry: LockedPackage): string | undefined {
  const engines = entry.engines;
  return engines !== undefined && !Array.isArray(engines) ? (engines as { node?: string }).node : undefined;
}

test("package.json's engines name a Node range that every locked package's engines admit whole", () => {
  const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const projectRange = project.engines?.node;
  assert.ok(projectRange !== undefined && semver.validRange(projectRange) !== null, 'package.json names a Node range');
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };
  const refusing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') continue;
    const range = nodeRangeOf(entry);
    if (range === undefined) continue;
    if (!semver.subset(projectRange, range)) refusing.push(`${path}@${entry.version ?? '?'} wants node ${range}`);
  }
  assert.deepEqual(refusing, [], `packages whose engines do not admit every Node in ${projectRange}`);
});

test('the Node running these tests is one package.json admits', () => {
  const project = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  assert.ok(semver.satisfies(process.versions.node, project.engines?.node ?? ''), process.versions.node);
});
