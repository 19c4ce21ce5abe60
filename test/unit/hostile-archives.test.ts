/**
 * Every hostile archive of test/support/hostile-archives.ts through the
 * import (`importArchive`, what the import page and the command line run),
 * each in a child process: it must end within the time limit with a clear
 * error (the one expected, naming the file, with no value of more than a
 * couple of hundred characters in it) or a sane import, and the process's
 * resident memory must not grow by more than {@link MEMORY_BOUND} above what
 * it held before the import (the process's peak, transient spikes included).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { HOSTILE_ARCHIVES } from '../support/hostile-archives.ts';

/** What an import may add to the process's resident memory: one 64 MiB record, an inflated piece and their copies. */
const MEMORY_BOUND = 400 * 1024 * 1024;
/** How long one import may take (a hang, or minutes of inflating, fails). */
const TIME_LIMIT_MS = 45_000;
/** The longest message: the file's name, the problem, a value cut to a couple of hundred characters. */
const MAX_MESSAGE = 600;

const CHILD = resolve(import.meta.dirname, '../support/hostile-import-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'tabcrawl-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  ok: boolean;
  startUrl?: string;
  kind?: string | null;
  message?: string;
  rssBefore: number;
  peakRss: number;
  ms: number;
}

function runChild(path: string, name: string): Promise<Outcome> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CHILD, path, name],
      { timeout: TIME_LIMIT_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null)
          fail(
            new Error(
              `the import did not end within ${TIME_LIMIT_MS} ms or crashed: ${error.message} ${stderr.slice(0, 2000)}`,
            ),
          );
        else done(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Outcome);
      },
    );
  });
}

describe('hostile archives through the import', () => {
  for (const [attack, make] of Object.entries(HOSTILE_ARCHIVES)) {
    it(
      `${attack}: ends within seconds with a clear error or a sane import, its memory bounded`,
      { timeout: TIME_LIMIT_MS + 30_000 },
      async (t) => {
        const archive = await make();
        const path = join(dir, archive.name);
        writeFileSync(path, archive.bytes);
        const outcome = await runChild(path, archive.name);
        const grew = outcome.peakRss - outcome.rssBefore;
        t.diagnostic(
          `${archive.bytes.length} bytes: ${outcome.ms} ms, peak ${Math.round(grew / 2 ** 20)} MiB above the start; ${outcome.ok ? `imported from ${outcome.startUrl}` : outcome.message?.slice(0, 300)}`,
        );
        if ('error' in archive.expect) {
          assert.equal(outcome.ok, false, `the import fails (it imported from ${outcome.startUrl?.slice(0, 100)})`);
          assert.match(outcome.message ?? '', archive.expect.error);
          assert.ok(outcome.message?.startsWith(archive.name), 'the message starts with the file name');
          assert.ok(
            (outcome.message?.length ?? 0) <= MAX_MESSAGE,
            `the message is short (${outcome.message?.length} characters)`,
          );
        } else {
          assert.equal(outcome.ok, true, `the import succeeds (${outcome.message?.slice(0, 300)})`);
          assert.equal(outcome.startUrl, archive.expect.startUrl);
        }
        assert.ok(
          grew < MEMORY_BOUND,
          `the memory grew by ${Math.round(grew / 2 ** 20)} MiB, more than ${MEMORY_BOUND / 2 ** 20}`,
        );
      },
    );
  }
});
