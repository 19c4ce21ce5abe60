/**
 * Which newly found URLs join the crawl: a followed link (or redirect, or
 * sitemap) when it is in scope, within the depth limit, passes the trap rules
 * (`url/traps.ts`) and the page budget has room; a URL fetched on any host (a
 * page resource, a link to another site to check) when it passes the trap
 * rules and its kind's budget has room. A followed URL the crawl's own rules
 * leave out is recorded with the reason (`not-crawled.ts`), and so is a link
 * to another site left unchecked (checks off, past a budget), and so is a
 * URL on any host on the user's network that a crawl of a public site never
 * asks for (`network-guard.ts`; a followed URL is on one of the crawl's own
 * sites, which the rule exempts); a link to
 * another site is not recorded when it is checked (it is outside the crawl,
 * not left out of it).
 */
import type { FrontierEntry } from '../model.ts';
import type { CrawlStore } from './ports.ts';
import { blockDisallowed } from './frontier-queue.ts';
import { QueryVariantCounter, queryVariantsCap, urlTrapReason } from '../url/traps.ts';
import { type CrawlWrites } from './crawl-writes.ts';
import { admit } from './frontier-admit.ts';
import type { Candidate } from './candidate.ts';
import type { HostRules } from './host-rules.ts';
import { workKindOf } from './kinds/registry.ts';
import { recordNotCrawled, type RecordedUrls, type Refusal } from './not-crawled.ts';

export class Admission {
  /**
   * Query variants admitted per path, per crawl (the trap rule of `url/traps.ts`).
   * Rebuilt from the store at the start of every run ({@link Admission.loadQueryVariants}),
   * so a new worker counts on from where the last one stopped.
   */
  private readonly queryVariants = new Map<string, QueryVariantCounter>();

  /**
   * @param recordedOf what the run of a crawl has recorded as not crawled (null when the crawl is not
   *   run here: everything refused is written).
   */
  constructor(
    private readonly rules: HostRules,
    private readonly recordedOf: (crawlId: string) => RecordedUrls | null,
  ) {}

  /** Counts the query variants of every URL the crawl holds (rows and frontier). */
  async loadQueryVariants(store: CrawlStore, crawlId: string): Promise<void> {
    const crawl = await store.getCrawl(crawlId);
    if (!crawl) return;
    const counter = new QueryVariantCounter(queryVariantsCap(crawl.settings.maxPages));
    for (const url of await store.knownUrls(crawlId)) counter.add(url);
    this.queryVariants.set(crawlId, counter);
  }

  /**
   * Admits the followed candidates the crawl's rules let in (scope, depth, traps, page budget) and
   * records the ones they leave out, with the reason; links to other sites are dropped here (they come
   * to {@link admitAnyHost} as links to check).
   */
  async admitFollowed(writes: CrawlWrites, candidates: Candidate[]): Promise<void> {
    const { crawl } = writes;
    const scope = this.rules.scopeOf(crawl);
    const variants = this.variantsOf(writes);
    const refused: Refusal[] = [];
    const kept = candidates.filter((candidate) => {
      const verdict = scope.check(candidate.url);
      if (!verdict.inScope) {
        if (verdict.reason === 'prefix' || verdict.reason === 'excluded')
          refused.push({ candidate, reason: verdict.reason });
        return false;
      }
      if (candidate.depth > crawl.settings.maxDepth) refused.push({ candidate, reason: 'depth' });
      else if (urlTrapReason(candidate.url) !== null) refused.push({ candidate, reason: 'trap' });
      else return true;
      return false;
    });
    const queued = await admit(
      writes,
      kept,
      (candidate) => variants.admit(candidate.url) || (refused.push({ candidate, reason: 'trap' }), false),
      (candidate) => refused.push({ candidate, reason: 'page-limit' }),
    );
    await this.blockDisallowed(writes, queued);
    await recordNotCrawled(writes, refused, this.recordedOf(crawl.id));
  }

  /**
   * Admits URLs fetched on any host, outside the scope (page resources, links to other sites to check),
   * and records the links to other sites left unchecked: all of them when the crawl does not check them,
   * else those past the crawl's or their host's budget.
   */
  async admitAnyHost(writes: CrawlWrites, candidates: Candidate[]): Promise<void> {
    const { crawl } = writes;
    const guard = this.rules.guardOf(crawl);
    const refused: Refusal[] = [];
    const kept = candidates.filter((candidate) => {
      if (urlTrapReason(candidate.url) !== null) return false;
      if (guard.isBarred(candidate.url)) {
        refused.push({ candidate, reason: 'private-address' });
        return false;
      }
      // A kind of work the crawl does not do (links to other sites, unless it checks them): listed as not crawled.
      const off = workKindOf(candidate.kind).offReason(crawl);
      if (off === null) return true;
      refused.push({ candidate, reason: off });
      return false;
    });
    const queued = await admit(writes, kept, undefined, (candidate, budget) => {
      const reason = workKindOf(candidate.kind).overBudgetReason(budget);
      if (reason !== null) refused.push({ candidate, reason });
    });
    await this.blockDisallowed(writes, queued);
    await recordNotCrawled(writes, refused, this.recordedOf(crawl.id));
  }

  /** Records the URLs just queued that a robots.txt already read disallows, blocked (see `blockDisallowed`). */
  private blockDisallowed(writes: CrawlWrites, queued: FrontierEntry[]): Promise<void> {
    const { productToken } = writes.crawl.settings;
    return blockDisallowed(writes, queued, (host) =>
      host.robots.phase === 'ready' ? this.rules.policyFor(productToken, host) : null,
    );
  }

  private variantsOf(writes: CrawlWrites): QueryVariantCounter {
    let counter = this.queryVariants.get(writes.crawl.id);
    if (!counter) {
      counter = new QueryVariantCounter(queryVariantsCap(writes.crawl.settings.maxPages));
      this.queryVariants.set(writes.crawl.id, counter);
    }
    return counter;
  }
}
