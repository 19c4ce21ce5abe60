/**
 * A URL of a report or view: a link that opens its detail in the results
 * tab when the view can open one, else plain text. Row data is only rendered
 * as text. Styles: `reports-view.css`.
 */
export interface UrlLinkProps {
  url: string;
  /** Opens the URL's detail; without it the URL is text. */
  onOpen: ((url: string) => void) | undefined;
  /** The link's `data-testid`. */
  testId: string;
}

export function UrlLink({ url, onOpen, testId }: UrlLinkProps) {
  if (onOpen === undefined) return <span class="reports-url">{url}</span>;
  return (
    <a
      href={`#${encodeURIComponent(url)}`}
      class="reports-url reports-link"
      data-testid={testId}
      title={`Open the detail of ${url}`}
      onClick={(event) => {
        event.preventDefault();
        onOpen(url);
      }}
    >
      {url}
    </a>
  );
}
