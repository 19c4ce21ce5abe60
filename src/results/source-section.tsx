/**
 * The URL detail's *Source*: the body the crawl stored for the URL, byte for byte as fetched, shown as text
 * (decoded as the crawl decoded it) on request, with a search that marks and counts its matches. Read from
 * the crawl's store (`RowReader.getBody`), nothing asked of the site. The text renders inside a `<pre>` as
 * text: markup in it is never parsed, scripts never run.
 */
import { useState } from 'preact/hooks';
import type { PageRecord } from '../core/model.ts';
import { countText, sizeText } from './format.ts';
import type { RowReader } from './row-reader.ts';
import { markMatches, sourceText, type SourceText as ShownSource } from './source-text.ts';
import { useAsync } from './use-async.ts';

export function SourceSection({ reader, crawlId, row }: { reader: RowReader; crawlId: string; row: PageRecord }) {
  const [shown, setShown] = useState(false);
  return (
    <section class="detail-section" data-testid="detail-source">
      <h3>Source</h3>
      {row.sha256 === null ? (
        <p class="muted">No body stored.</p>
      ) : shown ? (
        <StoredSource reader={reader} crawlId={crawlId} row={row} sha256={row.sha256} />
      ) : (
        <button type="button" data-testid="detail-source-show" onClick={() => setShown(true)}>
          Show the stored body{row.contentLength === null ? '' : ` (${sizeText(row.contentLength)})`}
        </button>
      )}
    </section>
  );
}

function StoredSource({
  reader,
  crawlId,
  row,
  sha256,
}: {
  reader: RowReader;
  crawlId: string;
  row: PageRecord;
  sha256: string;
}) {
  const source = useAsync(async (): Promise<ShownSource | null> => {
    const bytes = await reader.getBody(crawlId, sha256);
    return bytes === undefined ? null : sourceText(bytes, row.contentType);
  }, [reader, crawlId, sha256, row.contentType]);
  if (source.state === 'loading') return <p class="muted">Loading the body…</p>;
  if (source.state === 'failed')
    return (
      <p class="banner" role="alert">
        Could not read the body: {source.message}
      </p>
    );
  const value = source.value;
  if (value === null) return <p class="muted">The body is no longer in the store.</p>;
  if (value.kind === 'binary')
    return (
      <p class="muted" data-testid="detail-source-binary">
        Binary ({value.mediaType === '' ? 'no Content-Type' : value.mediaType}, {sizeText(value.bytes)}): not shown as
        text.
      </p>
    );
  return <SourceBody source={value} truncated={row.truncated} />;
}

function SourceBody({ source, truncated }: { source: ShownSource & { kind: 'text' }; truncated: boolean }) {
  const [query, setQuery] = useState('');
  const { pieces, count } = markMatches(source.text, query);
  return (
    <>
      <p class="muted" data-testid="detail-source-about">
        {countText(source.totalChars, 'character')}, decoded as {source.charset}
        {source.cut ? `; the first ${source.text.length.toLocaleString('en-US')} are shown` : ''}
        {truncated ? '; the crawl stored the body cut at its size limit' : ''}.
      </p>
      <label class="source-search">
        Find in the source{' '}
        <input
          type="search"
          data-testid="detail-source-search"
          value={query}
          onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
        />
      </label>{' '}
      {query !== '' && (
        <span data-testid="detail-source-count" aria-live="polite">
          {count === 1 ? '1 match' : `${count.toLocaleString('en-US')} matches`}
        </span>
      )}
      <pre class="source-text" data-testid="detail-source-text">
        {pieces.map((piece, index) => (piece.marked ? <mark key={index}>{piece.text}</mark> : piece.text))}
      </pre>
    </>
  );
}
