/**
 * The popup's *Issues* summary of a crawl that is not running: the issues by
 * severity and the worst checks (the most severe first, then the most issues), from one `crawl/issues`
 * request (the checks of `src/audit/` over the stored rows), and a button
 * that opens the results page on its Issues view, which lists every one.
 *
 * The request reads every row of the crawl: it is asked again only when the
 * crawl shown, its state or its rows done change, never while it runs. A
 * failed request shows one line saying so; the rest of the popup is untouched.
 */
import { useEffect, useState } from 'preact/hooks';
import { worstChecksFirst } from '../audit/audit.ts';
import { SEVERITIES, checkInfo, type Severity } from '../audit/checks.ts';
import type { Send } from '../messaging/client.ts';
import type { CrawlSummary, ReplyOf } from '../messaging/protocol.ts';
import { describeError } from './crawl-text.ts';

/** Checks named at most, the most severe first, then those with the most issues. */
export const TOP_CHECKS = 3;

type IssuesReply = ReplyOf<'crawl/issues'>;

type SummaryState = { state: 'loading' } | { state: 'done'; value: IssuesReply } | { state: 'failed'; message: string };

/** `2 errors`, `1 warning`, `0 notices`. */
export function severityCountText(severity: Severity, count: number): string {
  return `${count} ${count === 1 ? severity : `${severity}s`}`;
}

/** The checks to name, at most `limit`: the most severe first, then the most issues (see `worstChecksFirst`). */
export function topChecks(checks: IssuesReply['checks'], limit: number = TOP_CHECKS): IssuesReply['checks'] {
  return worstChecksFirst(checks).slice(0, limit);
}

export interface IssuesSummaryProps {
  /** The crawl shown; the summary is asked for again when its id, state or rows done change. */
  crawl: Pick<CrawlSummary, 'id' | 'state' | 'counts'>;
  send: Send;
  /** Opens the results page of this crawl on its Issues view. */
  onOpenIssues: () => void;
}

export function IssuesSummary({ crawl, send, onOpenIssues }: IssuesSummaryProps) {
  const [summary, setSummary] = useState<SummaryState>({ state: 'loading' });
  const { id, state } = crawl;
  const done = crawl.counts.done;

  useEffect(() => {
    let isCurrent = true;
    setSummary({ state: 'loading' });
    void send('crawl/issues', { crawlId: id }).then(
      (value) => {
        if (isCurrent) setSummary({ state: 'done', value });
      },
      (error: unknown) => {
        if (isCurrent) setSummary({ state: 'failed', message: describeError(error) });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [send, id, state, done]);

  return (
    <section class="issues-summary" aria-label="Issues" data-testid="popup-issues" data-state={summary.state}>
      <div class="issues-summary-head">
        <h2 class="issues-summary-title">Issues</h2>
        {summary.state === 'loading' && (
          <span class="muted" aria-busy="true">
            Checking…
          </span>
        )}
        {summary.state === 'done' && (
          <span class="issues-counts" data-testid="popup-issues-counts">
            {SEVERITIES.map((severity, index) => (
              <span
                key={severity}
                class={summary.value.bySeverity[severity] > 0 ? `severity-${severity}` : undefined}
                data-severity={severity}
              >
                {index > 0 && ' · '}
                {severityCountText(severity, summary.value.bySeverity[severity])}
              </span>
            ))}
          </span>
        )}
        <button type="button" class="link" data-testid="open-issues" onClick={onOpenIssues}>
          Open Issues
        </button>
      </div>
      {summary.state === 'failed' && (
        <p class="issues-failed" role="status" data-testid="popup-issues-error">
          Could not check the issues: {summary.message}
        </p>
      )}
      {summary.state === 'done' && summary.value.checks.length === 0 && <p class="muted">No issue found.</p>}
      {summary.state === 'done' && summary.value.checks.length > 0 && (
        <ul
          class="issues-top"
          data-testid="popup-issues-top"
          aria-label="The worst checks: the most severe, then the most issues"
        >
          {topChecks(summary.value.checks).map(({ check, count }) => {
            const info = checkInfo(check);
            return (
              <li
                key={check}
                class={`severity-${info.severity}`}
                data-check={check}
                data-severity={info.severity}
                title={info.why}
              >
                <span class="issues-top-title">{info.title}</span>
                <span class="issues-top-count">{count}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
