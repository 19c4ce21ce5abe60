/**
 * docs/cli.md's option table is generated from core/setting-table.ts (src/shells/cli/option-docs.ts): kept
 * in step here. When it is out of step, `UPDATE_DOCS=1 npx tsx --test test/unit/cli-option-docs.test.ts`
 * rewrites the block between its markers.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { SETTING_ENTRIES } from '../../src/core/setting-table.ts';
import {
  OPTION_TABLE_END,
  OPTION_TABLE_START,
  optionTableMarkdown,
  withOptionTable,
} from '../../src/shells/cli/option-docs.ts';
import { USAGE } from '../../src/shells/cli/args.ts';

const CLI_MD = resolve(import.meta.dirname, '../../docs/cli.md');

describe("docs/cli.md's option table", () => {
  it('is the table the settings table generates, between its markers', () => {
    const text = readFileSync(CLI_MD, 'utf8');
    const updated = withOptionTable(text);
    assert.ok(updated !== null, `docs/cli.md has the markers ${OPTION_TABLE_START} and ${OPTION_TABLE_END}`);
    if (updated !== text && process.env.UPDATE_DOCS === '1') writeFileSync(CLI_MD, updated);
    else {
      assert.equal(
        updated,
        text,
        "docs/cli.md's option table is out of step with src/core/setting-table.ts: run `UPDATE_DOCS=1 npx tsx --test test/unit/cli-option-docs.test.ts` to rewrite it (edit an option's words in its entry, not in docs/cli.md)",
      );
    }
  });

  it('has a row for every option that sets a crawl setting, in the order --help lists them', () => {
    const table = optionTableMarkdown();
    const flags = SETTING_ENTRIES.flatMap((entry) => (entry.cli === undefined ? [] : [entry.cli.flag]));
    const rowOrder = flags.map((flag) => table.indexOf(`| \`${flag}`));
    const usageOrder = flags.map((flag) => USAGE.indexOf(`  ${flag}`));
    for (const [at, flag] of flags.entries()) {
      assert.ok((rowOrder[at] ?? -1) >= 0, `${flag} has a row`);
      assert.ok((usageOrder[at] ?? -1) >= 0, `${flag} is in --help`);
    }
    assert.deepEqual(
      [...rowOrder].sort((a, b) => a - b),
      rowOrder,
    );
    assert.deepEqual(
      [...usageOrder].sort((a, b) => a - b),
      usageOrder,
    );
  });

  it('gives each default as --help does', () => {
    const table = optionTableMarkdown();
    assert.ok(table.includes('| `--max-file-size SIZE` |'));
    assert.match(table, /\| `--agent TOKEN` \| .* \| `tabcrawl` \|/);
    assert.match(table, /\| `--max-file-size SIZE` \| .* \| `50M` \|/);
    assert.match(table, /\| `--delay SECONDS` \| .* \| 1 \|/);
    assert.match(table, /\| `--no-resources` \| .* \| on \|/);
    assert.match(table, /\| `--prefix PATH` \| .* \| none \|/);
  });
});
