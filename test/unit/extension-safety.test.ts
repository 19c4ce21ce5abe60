/**
 * Static guarantees of the extension's sources and manifest: no way in for a
 * web page or another extension, no remote or generated code, crawled HTML
 * never inserted as HTML, and docs/security.md listing exactly the permissions
 * the manifest asks for. (The built extension is checked again by
 * `test/e2e/security.test.ts`.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { FIREFOX_ONLY_PERMISSIONS } from '../../src/shells/build/manifest.ts';

const ROOT = resolve(import.meta.dirname, '../..');

interface Manifest {
  permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  optional_permissions?: string[];
  content_security_policy?: { extension_pages?: string };
  [key: string]: unknown;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Manifest;

/** Every file under `dir` whose name ends with one of `extensions`. */
function filesUnder(dir: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path, extensions));
    else if (extensions.some((extension) => entry.name.endsWith(extension))) found.push(path);
  }
  return found;
}

/** `file:line: text` of every line of the extension's sources matching `pattern`. */
function linesMatching(pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const file of filesUnder(join(ROOT, 'src'), ['.ts', '.tsx', '.html'])) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) hits.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

/** The directives of a CSP string, by name. */
function parseCsp(csp: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/** The "Permissions" section of docs/security.md. */
function permissionsSection(): string {
  const readme = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
  const start = readme.indexOf('## Permissions');
  assert.ok(start >= 0, 'docs/security.md has a Permissions section');
  const end = readme.indexOf('\n#', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('extension safety', () => {
  it('never inserts HTML into a page: no innerHTML, dangerouslySetInnerHTML, document.write or srcdoc in src/', () => {
    assert.deepEqual(
      linesMatching(
        /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\bsrcdoc\b|createContextualFragment/,
      ),
      [],
    );
  });

  it("shows the control characters of crawled text on every page: each page's shell installs showControlsVisibly before it renders", () => {
    const shells = filesUnder(join(ROOT, 'src/shells'), ['main.tsx']).filter((file) =>
      /\brender\(/.test(readFileSync(file, 'utf8')),
    );
    assert.ok(shells.length >= 5, shells.join(', '));
    for (const file of shells) {
      const text = readFileSync(file, 'utf8');
      const installed = text.search(/^showControlsVisibly\(\);$/m);
      assert.ok(
        installed >= 0 && installed < text.search(/\brender\(/),
        `${relative(ROOT, file)} calls showControlsVisibly() at its top, before render`,
      );
    }
  });

  it('runs no generated code: no eval, new Function or string timers in src/', () => {
    assert.deepEqual(
      linesMatching(
        /(^|[^\w$.])eval\s*\(|\bnew\s+Function\b|(^|[^\w$.])Function\s*\(|set(Timeout|Interval)\s*\(\s*['"`]/,
      ),
      [],
    );
  });

  it('loads no remote script: every script of the pages is a local module', () => {
    for (const file of filesUnder(join(ROOT, 'src'), ['.html'])) {
      const html = readFileSync(file, 'utf8');
      const sources = [...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1] ?? '');
      for (const source of sources)
        assert.doesNotMatch(source, /^(https?:)?\/\//i, `${relative(ROOT, file)}: ${source}`);
      assert.doesNotMatch(html, /<script\b(?![^>]*\bsrc=)[^>]*>\s*\S/i, `${relative(ROOT, file)} has an inline script`);
    }
  });

  it('lets no web page or other extension in: no externally_connectable, content scripts or web-accessible resources', () => {
    for (const key of [
      'externally_connectable',
      'content_scripts',
      'web_accessible_resources',
      'sandbox',
      'key',
      'update_url',
    ]) {
      assert.equal(manifest[key], undefined, key);
    }
  });

  it('declares a strict CSP for its pages: scripts from the extension only, no plugins, no <base>, no framing', () => {
    const csp = parseCsp(manifest.content_security_policy?.extension_pages ?? '');
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    assert.deepEqual(csp.get('base-uri'), ["'none'"]);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(csp.get('form-action'), ["'none'"]);
    for (const values of csp.values()) {
      for (const value of values) assert.doesNotMatch(value, /unsafe-(eval|inline)|^https?:|^\*$/, value);
    }
  });

  it('asks for no optional or extra permissions beyond those docs/security.md justifies', () => {
    // No optional permission: debugger, which rendering needs, cannot be one in Chromium (issue 29: required).
    assert.equal(manifest.optional_permissions, undefined);
    assert.ok(manifest.permissions?.includes('debugger'));
    const section = permissionsSection();
    const justified = new Set(
      [...section.matchAll(/^\|([^|]+)\|/gm)].flatMap((row) =>
        [...(row[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''),
      ),
    );
    // Firefox's manifest adds what its renderer needs (src/shells/build/manifest.ts): the table justifies those too.
    const asked = [
      ...(manifest.permissions ?? []),
      ...FIREFOX_ONLY_PERMISSIONS,
      ...(manifest.host_permissions ?? []),
      ...(manifest.optional_host_permissions ?? []),
      ...(manifest.optional_permissions ?? []),
    ];
    assert.deepEqual(
      [...justified].sort(),
      [...asked].sort(),
      'the Permissions table of docs/security.md names exactly the manifest permissions',
    );
  });
});
