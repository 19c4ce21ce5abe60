/**
 * The results page's *Search and extraction* panel (issue 30): the crawl's custom searches and extractions,
 * editable, and *Re-run on stored pages*, which applies them again to every HTML page the crawl stored
 * (`core/custom-rules/rerun-rules.ts`), requesting nothing. It runs in this tab (however many pages: the tab
 * lives while the user keeps it open), shows its progress, names each bad rule, and refuses while the crawl
 * still runs. Platform-free: the store comes in as a port.
 */
import { useState } from 'preact/hooks';
import {
  RERUNNABLE_STATES,
  rerunRules,
  type RerunProgress,
  type RerunResult,
  type RerunStore,
} from '../core/custom-rules/rerun-rules.ts';
import type { CrawlRecord } from '../core/model.ts';
import { EXTRACTIONS_LABEL, SEARCHES_LABEL } from '../core/setting-table.ts';

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The result of a run in words. */
function resultText(result: Extract<RerunResult, { ok: true }>): string {
  const missing =
    result.withoutBody === 0 ? '' : ` ${count(result.withoutBody, 'page has', 'pages have')} no stored body.`;
  return `Done: ${count(result.pages, 'page', 'pages')} searched again from what the crawl stored; nothing was requested.${missing} The exports have the new columns.`;
}

/** One list of rules: a labelled text area, a rule per line. */
function RuleField(props: { label: string; testId: string; value: string; onInput: (value: string) => void }) {
  return (
    <label class="rerun-field">
      {props.label}
      <textarea
        rows={3}
        value={props.value}
        data-testid={props.testId}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </label>
  );
}

export function RerunPanel({ crawl, store }: { crawl: CrawlRecord; store: RerunStore }) {
  const [searches, setSearches] = useState((crawl.settings.searches ?? []).join('\n'));
  const [extractions, setExtractions] = useState((crawl.settings.extractions ?? []).join('\n'));
  const [progress, setProgress] = useState<RerunProgress | null>(null);
  const [isRunning, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<RerunResult | { ok: false; message: string } | null>(null);
  const canRun = RERUNNABLE_STATES.includes(crawl.state);

  const run = async (): Promise<void> => {
    setRunning(true);
    setOutcome(null);
    setProgress({ rows: 0, pages: 0 });
    try {
      setOutcome(
        await rerunRules(store, crawl, { searches: lines(searches), extractions: lines(extractions) }, setProgress),
      );
    } catch (error) {
      setOutcome({
        ok: false,
        message: `Could not run the rules: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setRunning(false);
    }
  };

  const problems = outcome !== null && !outcome.ok && 'problems' in outcome ? outcome.problems : null;
  return (
    <details class="rerun-panel" data-testid="rerun-panel">
      <summary>Search and extraction</summary>
      <p class="muted">
        One rule per line: NAME=TEXT or NAME=regex:PATTERN to search, NAME=css:SELECTOR, NAME=xpath:EXPR or
        NAME=regex:PATTERN to extract. The results are in the URL detail and the CSV and JSON Lines exports.
      </p>
      <RuleField label={SEARCHES_LABEL} testId="rerun-searches" value={searches} onInput={setSearches} />
      <RuleField label={EXTRACTIONS_LABEL} testId="rerun-extractions" value={extractions} onInput={setExtractions} />
      <button type="button" data-testid="rerun-run" disabled={!canRun || isRunning} onClick={() => void run()}>
        Re-run on stored pages
      </button>
      {!canRun && (
        <p class="muted" data-testid="rerun-not-now">
          The crawl is {crawl.state}: stop it, or wait until it ends, to run the rules again.
        </p>
      )}
      {isRunning && progress !== null && (
        <p role="status" data-testid="rerun-progress">
          Searching the stored pages: {count(progress.pages, 'page', 'pages')} of {count(progress.rows, 'row', 'rows')}{' '}
          looked at…
        </p>
      )}
      {outcome !== null && outcome.ok && (
        <p role="status" data-testid="rerun-done">
          {resultText(outcome)}
        </p>
      )}
      {outcome !== null && !outcome.ok && 'message' in outcome && (
        <p class="banner" role="alert" data-testid="rerun-error">
          {outcome.message}
        </p>
      )}
      {problems !== null && (
        <ul class="banner" role="alert" data-testid="rerun-problems">
          {[...problems.searches, ...problems.extractions].map((problem, i) => (
            <li key={i}>
              “{problem.spec}”: {problem.message}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
