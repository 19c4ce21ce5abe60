/**
 * How far a crawl is, as a bar: the popup and the results tab draw the same
 * one (styles in `theme.css`). The percent comes from `progressPercent`.
 */
export interface ProgressBarProps {
  /** Done of what is known, 0 to 100. */
  percent: number;
  /** Test id of the bar; its filled part gets `fillTestId`. */
  testId: string;
  fillTestId?: string;
  /** Read out by screen readers in place of the percent, e.g. `12 done, 30 queued, limit 500`. */
  valueText?: string;
  /** An extra class, for where a page places or sizes the bar. */
  class?: string;
}

export function ProgressBar({ percent, testId, fillTestId, valueText, class: extraClass }: ProgressBarProps) {
  return (
    <div
      class={extraClass === undefined ? 'progress-bar' : `progress-bar ${extraClass}`}
      role="progressbar"
      data-testid={testId}
      aria-label="URLs done of the URLs known"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      aria-valuetext={valueText}
    >
      <span class="progress-fill" data-testid={fillTestId} style={{ width: `${percent}%` }} />
    </div>
  );
}
