/**
 * The detail of one URL, what an auditor looks for first: its status, title,
 * redirect target and error, then its page facts (indexability, canonical,
 * h1…), what rendering it changed when the crawl rendered it, the robots decision and the redirect chain through it, then how it
 * was fetched (size, times, methods, IP, SHA-256), headers, outgoing links
 * with their status, its page resources with theirs (broken ones marked), the
 * pages linking to it and the rows using it as a resource. All values render
 * as text: the crawled HTML is never rendered (its *Source* shows it as text, `source-section.tsx`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { CrawlRecord, PageRecord } from '../core/model.ts';
import { redactRequestHeaders, redactSetCookies } from '../core/redact-headers.ts';
import {
  countText,
  failureText,
  isoText,
  localTimeText,
  mediaType,
  msText,
  shortUrl,
  sizeText,
  statusText,
} from './format.ts';
import type { RowReader } from './row-reader.ts';
import { resultsSearch } from '../messaging/routes.ts';
import { CustomSection } from './custom-detail.tsx';
import { PageFactsSection } from './page-facts-detail.tsx';
import { RenderSection } from './render-detail.tsx';
import { SourceSection } from './source-section.tsx';
import { findReferences, outlinks, redirectChain, resourcesOf, type ReferenceScan } from './url-detail-queries.ts';
import { useAsync, type AsyncState } from './use-async.ts';

/** Most outgoing links listed (a page may have thousands). */
const MAX_OUTLINKS_SHOWN = 500;
/** Most page resources listed. */
const MAX_RESOURCES_SHOWN = 500;

export interface UrlDetailProps {
  reader: RowReader;
  crawlId: string;
  /** Undefined while loading or when the crawl record is gone. */
  crawl: CrawlRecord | undefined;
  url: string;
  /** Origin of the crawl: URLs on it are shown by path. */
  origin: string | null;
  /** Opens the detail of another URL. */
  onOpen: (url: string) => void;
  onClose: () => void;
}

/** The side panel of one URL; reloads whenever `url` changes and focuses its heading. */
export function UrlDetail(props: UrlDetailProps) {
  const { reader, crawlId, url } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const row = useAsync(() => reader.getRow(crawlId, url), [reader, crawlId, url]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [url]);

  return (
    <aside class="detail" aria-labelledby="detail-heading" data-testid="detail" data-url={url}>
      <div class="detail-head">
        <h2 id="detail-heading" class="detail-title" tabIndex={-1} ref={headingRef}>
          {url}
        </h2>
        <button
          type="button"
          class="detail-close"
          data-testid="detail-close"
          aria-label="Close detail (Esc)"
          onClick={props.onClose}
        >
          ✕
        </button>
      </div>
      {row.state === 'loading' && <p class="muted">Loading…</p>}
      {row.state === 'failed' && (
        <p class="banner" role="alert">
          Could not read this URL: {row.message}
        </p>
      )}
      {row.state === 'done' && row.value === undefined && (
        <p class="muted" data-testid="detail-missing">
          This URL has no row in the crawl table.
        </p>
      )}
      {row.state === 'done' && row.value !== undefined && <RowDetail {...props} row={row.value} />}
    </aside>
  );
}

function RowDetail(props: UrlDetailProps & { row: PageRecord }) {
  const { row } = props;
  const references = useReferences(props);
  // What an auditor looks for first (status, title, where it leads, indexability, canonical, h1), then
  // robots.txt and the redirects, then how the URL was fetched (timings, method, IP, digest), then the lists.
  return (
    <>
      <Fields {...props} />
      <PageFactsSection
        row={row}
        link={(url) => <DetailLink crawlId={props.crawlId} url={url} onOpen={props.onOpen} />}
      />
      <RenderSection row={row} link={(url) => <DetailLink crawlId={props.crawlId} url={url} onOpen={props.onOpen} />} />
      <CustomSection row={row} />
      <Section title="Robots" testId="detail-robots">
        {row.blockedBy === 'robots' ? (
          <p>
            Blocked by robots.txt
            {row.blockedRule !== null ? (
              <>
                : <code>{row.blockedRule}</code>
              </>
            ) : (
              ' (rule not recorded)'
            )}
            . Never requested.
          </p>
        ) : (
          <p>Allowed by robots.txt.</p>
        )}
      </Section>
      <Chain {...props} />
      <FetchFields {...props} />
      {/* Cookie values are credentials: shown as removed, as exports write them (`core/redact-headers.ts`). */}
      <Section title="Response headers" testId="detail-response-headers">
        <HeaderTable headers={redactSetCookies(row.headers)} />
      </Section>
      <Section title="Request headers" testId="detail-request-headers">
        {row.requestHeaders === null ? (
          <p class="muted">Not reported by the browser.</p>
        ) : (
          <HeaderTable headers={redactRequestHeaders(row.requestHeaders) ?? []} />
        )}
      </Section>
      <SourceSection reader={props.reader} crawlId={props.crawlId} row={row} />
      <Outlinks {...props} />
      {(row.kind === 'page' || row.resources.length > 0) && <Resources {...props} />}
      {(row.kind === 'resource' || (references.scan.state === 'done' && references.scan.value.users.length > 0)) && (
        <UsedBy {...props} references={references} />
      )}
      <Inlinks {...props} references={references} />
    </>
  );
}

function Section({ title, testId, children }: { title: string; testId: string; children: ComponentChildren }) {
  return (
    <section class="detail-section" data-testid={testId}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** A link to another URL's detail, inside the page (never to the crawled site). */
function DetailLink({
  crawlId,
  url,
  label,
  onOpen,
  testId,
}: {
  crawlId: string;
  url: string;
  label?: string;
  onOpen: (url: string) => void;
  testId?: string;
}) {
  return (
    <a
      href={resultsSearch(crawlId, url)}
      class="detail-link"
      title={url}
      data-testid={testId}
      onClick={(event) => {
        if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        onOpen(url);
      }}
    >
      {label ?? url}
    </a>
  );
}

/** The first fields: what the row says to an auditor (its status, title, where it leads, its errors, how it is linked). */
function Fields({ row, crawlId, onOpen }: UrlDetailProps & { row: PageRecord }) {
  const entries: [string, ComponentChildren][] = [
    ['Status', row.statusLine ?? statusText(row)],
    ['Title', row.title ?? '—'],
    ['Content type', row.contentType ?? '—'],
    ['Location', row.location === null ? '—' : <DetailLink crawlId={crawlId} url={row.location} onOpen={onOpen} />],
    ['Error', failureText(row.error)],
    [
      'Duplicate of',
      row.duplicateOf === null ? (
        '—'
      ) : (
        <DetailLink crawlId={crawlId} url={row.duplicateOf} onOpen={onOpen} testId="detail-duplicate-of" />
      ),
    ],
    ['Depth', String(row.depth)],
    ['Kind', row.kind],
    ['Inlinks (counted)', String(row.inlinks)],
    ['Anchor texts', row.anchors.length === 0 ? '—' : row.anchors.join(' · ')],
    [
      'Referrer',
      row.referrer === null ? '— (start URL)' : <DetailLink crawlId={crawlId} url={row.referrer} onOpen={onOpen} />,
    ],
  ];
  return <FieldList entries={entries} testId="detail-fields" />;
}

/** The fields of the fetch itself, after what an auditor reads first: size, timings, source, methods, IP, digest. */
function FetchFields({ row }: UrlDetailProps & { row: PageRecord }) {
  const entries: [string, ComponentChildren][] = [
    [
      'Content length',
      row.contentLength === null ? '—' : `${sizeText(row.contentLength)} (${row.contentLength} bytes)`,
    ],
    [
      'Response time',
      row.responseTimeMs !== null
        ? `${msText(row.responseTimeMs)} ms`
        : row.source === 'archive'
          ? '— (not recorded in the archive)'
          : '—',
    ],
    [
      row.source === 'archive' ? 'Captured at' : 'Fetched at',
      row.fetchedAt === null ? (
        '—'
      ) : (
        <time dateTime={isoText(row.fetchedAt)} title={isoText(row.fetchedAt)} data-testid="detail-fetched-at">
          {localTimeText(row.fetchedAt)}
        </time>
      ),
    ],
    // An imported row (of any tool's archive, Tabcrawl's own WACZ too): not fetched here, so no politeness timings (see docs/import.md).
    ...(row.source === 'archive'
      ? [
          [
            'Source',
            <span data-testid="detail-source">from an archive (imported, not fetched in this browser)</span>,
          ] as [string, ComponentChildren],
        ]
      : []),
    ['Methods', row.methods.length === 0 ? '—' : row.methods.join(', ')],
    ['IP address', row.ipAddress ?? '—'],
    ['SHA-256', row.sha256 ?? '—'],
    ['Truncated', row.truncated ? 'yes (body cut at the size limit)' : 'no'],
  ];
  return (
    <Section title="Fetch" testId="detail-fetch">
      <FieldList entries={entries} testId="detail-fetch-fields" />
    </Section>
  );
}

function FieldList({ entries, testId }: { entries: [string, ComponentChildren][]; testId: string }) {
  return (
    <dl class="fields" data-testid={testId}>
      {entries.map(([label, value]) => (
        <div key={label} class="field-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function HeaderTable({ headers }: { headers: readonly [string, string][] }) {
  if (headers.length === 0) return <p class="muted">None recorded.</p>;
  return (
    <table class="kv-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {headers.map(([name, value], index) => (
          <tr key={index}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Chain({ reader, row, crawlId, onOpen, origin }: UrlDetailProps & { row: PageRecord }) {
  const chain = useAsync(() => redirectChain(reader, row), [reader, row]);
  if (chain.state !== 'done') {
    return (
      <Section title="Redirect chain" testId="detail-chain">
        <p class="muted">
          {chain.state === 'loading' ? 'Following redirects…' : `Could not follow redirects: ${chain.message}`}
        </p>
      </Section>
    );
  }
  const { hops, selfIndex, hasLoop, isCut } = chain.value;
  return (
    <Section title="Redirect chain" testId="detail-chain">
      {hops.length === 1 ? (
        <p class="muted">No redirect through this URL.</p>
      ) : (
        <>
          {hasLoop && (
            <p class="banner" data-testid="chain-loop">
              Redirect loop: a URL repeats.
            </p>
          )}
          <ol class="chain">
            {hops.map((hop, index) => (
              <li
                key={index}
                class={`chain-hop${index === selfIndex ? ' is-self' : ''}${hop.isRepeat ? ' is-repeat' : ''}`}
                data-testid="chain-hop"
              >
                <span class="chain-status">{hop.row === undefined ? 'not crawled' : statusText(hop.row)}</span>{' '}
                {hop.row !== undefined && index !== selfIndex ? (
                  <DetailLink crawlId={crawlId} url={hop.url} label={shortUrl(hop.url, origin)} onOpen={onOpen} />
                ) : (
                  <span title={hop.url}>{shortUrl(hop.url, origin)}</span>
                )}
                {index === selfIndex && <span class="chain-tag"> (this URL)</span>}
                {hop.isRepeat && <span class="chain-tag chain-loop-tag"> ↺ loop</span>}
              </li>
            ))}
          </ol>
          {isCut && <p class="muted">Cut after 20 hops.</p>}
        </>
      )}
    </Section>
  );
}

function Outlinks({ reader, crawl, row, crawlId, onOpen, origin }: UrlDetailProps & { row: PageRecord }) {
  const links = useAsync(() => outlinks(reader, crawl, row), [reader, crawl, row]);
  return (
    <Section title={`Outlinks (${row.links.length})`} testId="detail-outlinks">
      {links.state === 'loading' && <p class="muted">Looking up links…</p>}
      {links.state === 'failed' && <p class="banner">Could not look up links: {links.message}</p>}
      {links.state === 'done' && links.value.length === 0 && <p class="muted">No links extracted.</p>}
      {links.state === 'done' && links.value.length > 0 && (
        <>
          <table class="link-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Anchor text</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {links.value.slice(0, MAX_OUTLINKS_SHOWN).map((link) => (
                <tr key={link.url} data-testid="outlink" data-url={link.url}>
                  <td class="link-url">
                    {link.row !== undefined ? (
                      <DetailLink crawlId={crawlId} url={link.url} label={shortUrl(link.url, origin)} onOpen={onOpen} />
                    ) : (
                      <span title={link.url}>{shortUrl(link.url, origin)}</span>
                    )}
                  </td>
                  <td>{link.anchorText}</td>
                  <td class={link.row === undefined ? 'muted' : ''} data-testid="outlink-status">
                    {link.row !== undefined ? statusText(link.row) : link.notCrawledReason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {links.value.length > MAX_OUTLINKS_SHOWN && (
            <p class="muted">
              First {MAX_OUTLINKS_SHOWN} of {links.value.length} links.
            </p>
          )}
        </>
      )}
    </Section>
  );
}

/** The one scan of the crawl for the rows linking to the URL and the rows using it, with its progress. */
interface References {
  scan: AsyncState<ReferenceScan>;
  /** The matches so far while the scan runs. */
  progress: ReferenceScan | null;
}

function useReferences({ reader, row, crawlId }: UrlDetailProps & { row: PageRecord }): References {
  const [progress, setProgress] = useState<ReferenceScan | null>(null);
  const scan = useAsync(
    (signal) => {
      setProgress(null);
      const primary = row.kind === 'resource' ? 'users' : 'inlinks';
      return findReferences(reader, crawlId, row.url, {
        signal,
        primary,
        onProgress: (partial) => !signal.aborted && setProgress(partial),
      });
    },
    [reader, crawlId, row],
  );
  return { scan, progress };
}

/** What a scan shows: its result once done, else its progress. */
function shownScan({ scan, progress }: References): ReferenceScan | null {
  return scan.state === 'done' ? scan.value : progress;
}

function ScanStatus({ references, what }: { references: References; what: string }) {
  const { scan, progress } = references;
  if (scan.state === 'loading') {
    return (
      <p class="muted" role="status">
        Scanning the crawl… {progress === null ? '' : `${countText(progress.scannedRows, 'row')} read`}
      </p>
    );
  }
  if (scan.state === 'failed')
    return (
      <p class="banner">
        Could not scan for {what}: {scan.message}
      </p>
    );
  return null;
}

function Resources({ reader, crawl, row, crawlId, onOpen, origin }: UrlDetailProps & { row: PageRecord }) {
  const uses = useAsync(() => resourcesOf(reader, crawl, row), [reader, crawl, row]);
  const brokenCount = uses.state === 'done' ? uses.value.filter((use) => use.isBroken).length : 0;
  return (
    <Section title={`Page resources (${row.resources.length})`} testId="detail-resources">
      {uses.state === 'loading' && <p class="muted">Looking up resources…</p>}
      {uses.state === 'failed' && <p class="banner">Could not look up resources: {uses.message}</p>}
      {uses.state === 'done' && uses.value.length === 0 && (
        <p class="muted">
          {crawl !== undefined && crawl.settings.archiveResources !== true
            ? 'None recorded: this crawl did not archive page resources.'
            : 'No page resources.'}
        </p>
      )}
      {uses.state === 'done' && brokenCount > 0 && (
        <p class="is-broken" data-testid="resources-broken">
          {countText(brokenCount, 'broken resource')}
        </p>
      )}
      {uses.state === 'done' && uses.value.length > 0 && (
        <>
          <table class="link-table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {uses.value.slice(0, MAX_RESOURCES_SHOWN).map((use) => (
                <tr
                  key={use.url}
                  data-testid="resource"
                  data-url={use.url}
                  data-broken={use.isBroken ? 'true' : 'false'}
                >
                  <td class="link-url">
                    {use.row !== undefined ? (
                      <DetailLink crawlId={crawlId} url={use.url} label={shortUrl(use.url, origin)} onOpen={onOpen} />
                    ) : (
                      <span title={use.url}>{shortUrl(use.url, origin)}</span>
                    )}
                  </td>
                  <td>{use.row === undefined ? '' : mediaType(use.row.contentType)}</td>
                  <td
                    class={use.row === undefined ? 'muted' : use.isBroken ? 'is-broken' : ''}
                    data-testid="resource-status"
                  >
                    {use.row === undefined
                      ? use.notFetchedReason
                      : use.isBroken
                        ? `${statusText(use.row)} · broken`
                        : statusText(use.row)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {uses.value.length > MAX_RESOURCES_SHOWN && (
            <p class="muted">
              First {MAX_RESOURCES_SHOWN} of {uses.value.length} resources.
            </p>
          )}
        </>
      )}
    </Section>
  );
}

function Inlinks({
  crawlId,
  onOpen,
  origin,
  references,
}: UrlDetailProps & { row: PageRecord; references: References }) {
  const { scan } = references;
  const shown = shownScan(references);
  return (
    <Section title="Inlinks" testId="detail-inlinks">
      <ScanStatus references={references} what="inlinks" />
      {scan.state === 'done' && scan.value.inlinks.length === 0 && <p class="muted">No crawled page links here.</p>}
      {scan.state === 'done' && scan.value.isCapped && (
        <p class="muted" data-testid="inlinks-capped">
          Showing the first {scan.value.inlinks.length} pages linking here.
        </p>
      )}
      {shown !== null && shown.inlinks.length > 0 && (
        <table class="link-table">
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Anchor text</th>
              <th scope="col">Page title</th>
            </tr>
          </thead>
          <tbody>
            {shown.inlinks.map((inlink) => (
              <tr key={inlink.url} data-testid="inlink" data-url={inlink.url}>
                <td class="link-url">
                  <DetailLink crawlId={crawlId} url={inlink.url} label={shortUrl(inlink.url, origin)} onOpen={onOpen} />
                </td>
                <td data-testid="inlink-anchor">{inlink.anchorText}</td>
                <td>{inlink.title ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** The rows that use the URL as a page resource: pages, and stylesheets for what they import or load. */
function UsedBy({ crawlId, onOpen, origin, references }: UrlDetailProps & { row: PageRecord; references: References }) {
  const { scan } = references;
  const shown = shownScan(references);
  return (
    <Section title="Used by" testId="detail-used-by">
      <ScanStatus references={references} what="the pages using it" />
      {scan.state === 'done' && scan.value.users.length === 0 && (
        <p class="muted">No crawled page uses this resource.</p>
      )}
      {scan.state === 'done' && scan.value.isUsersCapped && (
        <p class="muted" data-testid="users-capped">
          Showing the first {scan.value.users.length} pages using it.
        </p>
      )}
      {shown !== null && shown.users.length > 0 && (
        <table class="link-table">
          <thead>
            <tr>
              <th scope="col">Used by</th>
              <th scope="col">Title</th>
            </tr>
          </thead>
          <tbody>
            {shown.users.map((user) => (
              <tr key={user.url} data-testid="resource-user" data-url={user.url}>
                <td class="link-url">
                  <DetailLink crawlId={crawlId} url={user.url} label={shortUrl(user.url, origin)} onOpen={onOpen} />
                  {user.kind !== 'page' && (
                    <span class="muted"> ({user.kind === 'resource' ? 'stylesheet' : user.kind})</span>
                  )}
                </td>
                <td>{user.title ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
