/**
 * The User-Agent a Tabcrawl crawl sends: one format for the background's request rule
 * (`shells/background/adapters/user-agent-rule.ts` sets it, since `fetch` drops the header)
 * and the Browsertrix hand-off (`handoff/browsertrix-config.ts`), so a site sees one name.
 */

/** Tabcrawl's home page, named in its User-Agent. */
export const TABCRAWL_PROJECT_URL = 'https://github.com/tabcrawl/tabcrawl';

/** The User-Agent of Tabcrawl `version` (the extension manifest's). */
export function crawlerUserAgent(version: string): string {
  return `Mozilla/5.0 (compatible; tabcrawl/${version}; +${TABCRAWL_PROJECT_URL})`;
}
