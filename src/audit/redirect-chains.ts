/**
 * The one redirect-chain walker: how a chain of 3xx rows is followed from a
 * URL, and how a crawl's redirects split into chains. The Issues checks
 * (`redirect-chain`, `redirect-loop`), the *Redirects* report, the exports'
 * redirect columns and the URL detail all follow chains here, so they agree
 * on where a chain ends, when it loops and when it is cut.
 *
 * The walker does not read rows itself: it asks `redirectOf(url)` for the
 * redirect a URL's row makes, synchronously ({@link walkRedirects}) or from
 * storage ({@link walkRedirectsAsync}); both run the same steps.
 *
 * Pure: no Dexie, no browser API.
 */

/** What the walker needs of a redirect row: where it points (null: a 3xx without `Location`). */
export interface RedirectStep {
  location: string | null;
}

/**
 * Where a walk stops:
 * - `exit`: `url` is not a redirect row (a page, a failure, or no row at all);
 * - `no-location`: the last hop is a 3xx without a `Location`;
 * - `loop`: `url` is a hop of the chain already (or one the caller marked as on it);
 * - `limit`: `url` is a redirect row past the most follows allowed: the chain is cut there.
 */
export type WalkEnd =
  | { kind: 'exit'; url: string }
  | { kind: 'no-location' }
  | { kind: 'loop'; url: string }
  | { kind: 'limit'; url: string };

/** A chain followed from its first URL. */
export interface RedirectWalk {
  /** The redirect rows followed, the start first; empty when the start is not a redirect. */
  hops: string[];
  end: WalkEnd;
}

/** Options of a walk. */
export interface WalkOptions {
  /** Most redirects followed before the chain is cut (a `limit` end). @default Infinity */
  maxFollows?: number;
  /** URLs counted as on the chain before it starts (a walk reaching one is a loop). @default none */
  alreadyOn?: Iterable<string>;
}

/** The walk's steps: yields each URL whose redirect it needs, is sent the answer (undefined: not a redirect). */
function* walkSteps(start: string, options: WalkOptions): Generator<string, RedirectWalk, RedirectStep | undefined> {
  const maxFollows = options.maxFollows ?? Infinity;
  const onChain = new Set(options.alreadyOn ?? []);
  const hops: string[] = [];
  for (let url = start; ;) {
    if (onChain.has(url)) return { hops, end: { kind: 'loop', url } };
    const redirect = yield url;
    if (redirect === undefined) return { hops, end: { kind: 'exit', url } };
    if (hops.length >= maxFollows) return { hops, end: { kind: 'limit', url } };
    hops.push(url);
    onChain.add(url);
    if (redirect.location === null) return { hops, end: { kind: 'no-location' } };
    url = redirect.location;
  }
}

/** Follows the chain from `start`, asking `redirectOf` for each URL's redirect (undefined: not a redirect row). */
export function walkRedirects(
  start: string,
  redirectOf: (url: string) => RedirectStep | undefined,
  options: WalkOptions = {},
): RedirectWalk {
  const steps = walkSteps(start, options);
  for (let step = steps.next(); ;) {
    if (step.done === true) return step.value;
    step = steps.next(redirectOf(step.value));
  }
}

/** {@link walkRedirects} with the redirects read from storage, one URL at a time. */
export async function walkRedirectsAsync(
  start: string,
  redirectOf: (url: string) => Promise<RedirectStep | undefined>,
  options: WalkOptions = {},
): Promise<RedirectWalk> {
  const steps = walkSteps(start, options);
  for (let step = steps.next(); ;) {
    if (step.done === true) return step.value;
    step = steps.next(await redirectOf(step.value));
  }
}

/**
 * Every chain of a set of redirects, each redirect in exactly one: from each
 * redirect no other one points to, in the map's order, then from the earliest
 * one not visited yet (those are on loops with no way in).
 * @param redirects the redirect rows by URL, in `seq` order.
 * @param canStart whether a chain may start at a redirect: the others are followed only as hops of a
 *   chain that starts elsewhere (the Issues and the *Redirects* report start chains at the site's own
 *   redirects and follow them through other sites' redirects). @default every redirect
 */
export function allRedirectChains(
  redirects: ReadonlyMap<string, RedirectStep>,
  canStart: (url: string) => boolean = () => true,
): RedirectWalk[] {
  const targeted = new Set<string>();
  for (const { location } of redirects.values()) if (location !== null) targeted.add(location);
  const visited = new Set<string>();
  const chains: RedirectWalk[] = [];
  const follow = (start: string): void => {
    const walk = walkRedirects(start, (url) => redirects.get(url));
    for (const hop of walk.hops) visited.add(hop);
    chains.push(walk);
  };
  for (const url of redirects.keys()) if (!targeted.has(url) && canStart(url)) follow(url);
  for (const url of redirects.keys()) if (!visited.has(url) && canStart(url)) follow(url);
  return chains;
}
