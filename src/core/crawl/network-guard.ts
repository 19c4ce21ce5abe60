/**
 * A crawl cannot be aimed at the user's network. A public page may name any
 * host (`<img src="http://192.168.1.1/cgi-bin/reboot.cgi">`), and the crawl
 * asks for what its pages name from inside the user's network, without the
 * Private Network Access checks the page itself would get. So when a crawl
 * starts on a public host, no request of any kind (robots.txt, a page, a
 * resource, a linked file, a link to check, a redirect hop) goes to a private
 * address (`url/address-class.ts`: loopback, the local network, link-local,
 * metadata): such a URL is listed as not crawled (`private-address`). It is a
 * rule of the scheduler, not of one kind of work: admission refuses the URLs
 * whose host is private as written (`admission.ts`), and the claim, which
 * every request passes (`claim.ts`), asks nothing of a private host, not
 * even a robots.txt redirect hop. Pages rendered in a browser (not yet) will
 * ask for what their scripts name: a renderer must put each of those requests
 * to {@link NetworkGuard.isBarred} too (a blocking rule on the tab), not a
 * rule of its own.
 *
 * A name is read as written; a host whose name reads public but whose
 * answer came from a private address (the IP the browser reports, when it
 * does) is marked so ({@link HostState.privateAddress}): its first request
 * (its robots.txt) has left, nothing more does. Unless the crawl's own site
 * answered from that very address ({@link CrawlRecord.ownSiteAddresses}):
 * then it is the user's proxy or gateway, which the browser reports for
 * every host behind it, and says nothing of where the host is.
 *
 * Exempt: a crawl that starts on a private host (an intranet, a local build:
 * it reaches its own network as before), one with
 * {@link CrawlSettings.allowPrivateAddresses}, and the crawl's own sites: the
 * hosts the user named (the start URL's and the extra sites', on any scheme
 * or port) and every host the scope takes in (its subdomains, when asked).
 * An intranet under a public-looking name is crawled as the user asked; only
 * the other hosts its pages name are held to the rule.
 */
import type { CrawlRecord, FrontierEntry, HostState } from '../model.ts';
import type { CrawlSettings } from '../settings.ts';
import { addressClassOfUrl, isPrivateHost } from '../url/address-class.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import { BLOCKED_BATCH } from './frontier-queue.ts';
import { workKindOf } from './kinds/registry.ts';

export interface NetworkGuard {
  /** Whether the rule applies to the crawl at all (a public start, the setting off). */
  readonly isOn: boolean;
  /** Whether a URL or origin must not be requested: its host is private as written, or was found to answer from a private address. */
  isBarred(url: string): boolean;
  /**
   * Whether nothing may be asked of the host: private as written, or found to answer from a private address
   * ({@link HostState.privateAddress}, which {@link isBarred} remembers from then on).
   */
  isBarredHost(host: HostState): boolean;
  /** Whether an answer from the host at `ipAddress` bars it (a private address, on a host not exempt). */
  barsAt(origin: string, ipAddress: string | null | undefined): boolean;
  /** Whether the origin is one of the crawl's own sites (or the rule is off): never barred. */
  isExempt(origin: string): boolean;
}

/**
 * The rule for a crawl of these settings. Pure.
 * @param isOwnSite whether the crawl's scope takes in URLs of this origin (see `isSiteHost`): exempt.
 */
export function networkGuardFor(
  settings: Pick<CrawlSettings, 'startUrl' | 'extraOrigins' | 'allowPrivateAddresses'>,
  isOwnSite: (origin: string) => boolean = () => false,
): NetworkGuard {
  const isOn = settings.allowPrivateAddresses !== true && addressClassOfUrl(settings.startUrl) === 'public';
  const named = new Set([settings.startUrl, ...(settings.extraOrigins ?? [])].map(hostnameOrNull));
  /** Each origin's verdict by name (exempt, or private as written), read once: admission asks for every link. */
  const byName = new Map<string, 'exempt' | 'private' | 'public'>();
  const verdictOf = (origin: string): 'exempt' | 'private' | 'public' => {
    let verdict = byName.get(origin);
    if (verdict === undefined) {
      verdict =
        named.has(hostnameOrNull(origin)) || isOwnSite(origin)
          ? 'exempt'
          : addressClassOfUrl(origin) !== 'public'
            ? 'private'
            : 'public';
      byName.set(origin, verdict);
    }
    return verdict;
  };
  const isExempt = (origin: string): boolean => !isOn || verdictOf(origin) === 'exempt';
  /** Hosts whose name reads public found to answer from a private address: a cache of their stored marks, safe to lose. */
  const found = new Set<string>();
  const isBarred = (url: string): boolean => {
    if (!isOn) return false;
    const origin = originOrNull(url);
    if (origin === null) return false;
    const verdict = verdictOf(origin);
    return verdict === 'private' || (verdict === 'public' && found.has(origin));
  };
  return {
    isOn,
    isBarred,
    isBarredHost: (host) => {
      if (isExempt(host.origin)) return false;
      if (host.privateAddress !== undefined) found.add(host.origin);
      return isBarred(host.origin);
    },
    barsAt: (origin, ipAddress) =>
      !isExempt(origin) && typeof ipAddress === 'string' && ipAddress !== '' && isPrivateHost(ipAddress),
    isExempt,
  };
}

/** The host name of a URL, or null when it is not one. */
function hostnameOrNull(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** The origin of a URL, or null when it is not one. */
function originOrNull(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Most addresses of the crawl's own sites kept ({@link CrawlRecord.ownSiteAddresses}): a proxy or two, not a list to grow. */
export const MAX_OWN_SITE_ADDRESSES = 4;

/**
 * Notes where an answer came from. A host not exempt that answered from a private address is marked
 * ({@link HostState.privateAddress}): nothing more is asked of it. One of the crawl's own sites that answered
 * from a private address has it kept on the crawl ({@link CrawlRecord.ownSiteAddresses}): another host
 * answering from that same address is behind the same proxy or gateway (the browser reports the proxy's
 * address for every host behind it), which tells nothing of where the host is, so it is not marked.
 */
export function noteAnswerAddress(
  guard: NetworkGuard,
  crawl: CrawlRecord,
  host: HostState,
  ipAddress: string | null | undefined,
): void {
  if (!guard.isOn || typeof ipAddress !== 'string' || ipAddress === '' || !isPrivateHost(ipAddress)) return;
  if (guard.isExempt(host.origin)) {
    const own = crawl.ownSiteAddresses ?? [];
    if (!own.includes(ipAddress) && own.length < MAX_OWN_SITE_ADDRESSES) crawl.ownSiteAddresses = [...own, ipAddress];
    return;
  }
  if (host.privateAddress !== undefined || crawl.ownSiteAddresses?.includes(ipAddress) === true) return;
  host.privateAddress = ipAddress;
  guard.isBarredHost(host);
}

/**
 * Takes the host's queued entries (at most {@link BLOCKED_BATCH}) out of the crawl without a request and
 * lists them as not crawled (`private-address`), their admission undone in the counts. When none is queued,
 * the host's `pending` is set to what it has leased, as `nextReady` does.
 * @returns `'dropped'` when it took some (ask again), `'none'` when none was queued.
 */
export async function dropBarredEntries(writes: CrawlWrites, origin: string): Promise<'dropped' | 'none'> {
  const { tx, crawl } = writes;
  const host = await writes.host(origin);
  const dropped: FrontierEntry[] = [];
  for (
    let entry = await tx.nextEntry(crawl.id, origin);
    entry !== undefined && dropped.length < BLOCKED_BATCH;
    entry = await tx.nextEntry(crawl.id, origin)
  ) {
    dropped.push(entry);
    await tx.deleteEntries(crawl.id, [entry.url]);
    writes.forget(entry.url);
    unadmit(writes, host, entry);
  }
  if (dropped.length === 0) {
    host.pending = (await tx.leasedEntries(crawl.id)).filter((e) => e.origin === origin).length;
    return 'none';
  }
  await tx.putNotCrawled(
    dropped.map((entry) => ({
      crawlId: crawl.id,
      url: entry.url,
      reason: 'private-address' as const,
      depth: entry.depth,
      referrer: entry.referrer,
    })),
  );
  return 'dropped';
}

/** Undoes what admitting the entry counted (see `newEntry` in `frontier-admit.ts`, `WorkKind.countAdmitted`). */
function unadmit(writes: CrawlWrites, host: HostState, entry: FrontierEntry): void {
  const { counts } = writes.crawl;
  host.pending = Math.max(0, host.pending - 1);
  workKindOf(entry.kind).countAdmitted(counts, host, -1);
}
