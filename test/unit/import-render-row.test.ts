/** A row read back from Tabcrawl's own rows file keeps its render record, and a malformed one is refused (issue 29). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rowProblem } from '../../src/import/row-check.ts';
import { page, rendered } from '../support/audit-fixture.ts';

/** A row as the rows file holds it: JSON, read back. */
const asRead = (value: unknown): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('the render of an imported row', () => {
  it('takes a row without render, and rows with a render that succeeded, was capped or failed', () => {
    assert.equal(rowProblem(asRead(page('/'))), null);
    assert.equal(rowProblem(asRead(rendered('/a'))), null);
    assert.equal(
      rowProblem(
        asRead(
          rendered(
            '/b',
            {},
            {},
            {
              outcome: 'timeout',
              message: 'no quiet',
              static: null,
              sha256: null,
              capped: true,
              scriptErrors: ['Error: x'],
              refused: [{ url: 'https://a.example/private', because: 'robots' }],
              navigations: ['https://a.example/elsewhere'],
            },
          ),
        ),
      ),
      null,
    );
  });

  it('refuses a render of the wrong shape, saying which field', () => {
    const row = asRead(rendered('/a'));
    const withRender = (render: unknown): Record<string, unknown> => ({ ...row, render });
    const good = row['render'] as Record<string, unknown>;
    assert.equal(rowProblem(withRender(5)), 'its render is not an object');
    assert.equal(
      rowProblem(withRender({ ...good, scriptErrors: 'boom' })),
      "its render's scriptErrors is not a list of text",
    );
    assert.match(rowProblem(withRender({ ...good, outcome: 'exploded' })) ?? '', /^its render's outcome is not one of/);
    assert.equal(
      rowProblem(withRender({ ...good, refused: [{ url: 'x', because: 'evil' }] })),
      "its render's refused is not a list of {url, because}",
    );
    assert.match(rowProblem(withRender({ ...good, static: { title: 3 } })) ?? '', /^its render's static is not/);
    assert.equal(rowProblem(withRender({ ...good, durationMs: 'slow' })), "its render's durationMs is not a number");
  });
});
