/** The README lists every Issues check by severity (scripts rely on the ids): kept true against the registry. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CHECKS, SEVERITIES } from '../../src/audit/checks.ts';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The ids listed after `- **<severity>s**:`, up to the next list item. */
function listedIds(severity: string): string[] {
  const start = README.indexOf(`- **${severity}s**:`);
  assert.ok(start >= 0, `the README lists the ${severity}s`);
  const end = README.indexOf('\n- **', start + 1);
  const text = README.slice(start, end < 0 ? undefined : end).split('\n\n')[0] ?? '';
  return [...text.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] ?? '');
}

describe("the README's Issues ids", () => {
  it('lists every check once, under its severity, and nothing else', () => {
    for (const severity of SEVERITIES) {
      assert.deepEqual(
        listedIds(severity).sort(),
        CHECKS.filter((c) => c.severity === severity)
          .map((c) => c.id)
          .sort(),
        severity,
      );
    }
  });
});
