/**
 * The two pools of "hosts at once" (`hostConcurrency`): the crawl's own
 * site (its start host, its subdomains and extra sites when the scope takes
 * them in) and the other hosts it asks only for page resources (a CDN, a
 * font host) or to check a link to another site. Each pool has the setting's
 * number of hosts at once, so that checking links to other sites (or a slow
 * CDN) never makes the crawl of the site itself wait for a free host.
 * Politeness is per host whatever its pool: its robots.txt, its gap.
 */
import type { Scope } from '../url/scope.ts';

export type HostPool = 'site' | 'other';

/**
 * Whether a host (scheme, host and port) is one of the crawl's own sites: the scope takes its URLs in
 * (some of them, at least: a path prefix or an exclude pattern leaves out some URLs of a host, not the
 * host). Other hosts are only asked for page resources or to check a link.
 */
export function isSiteHost(scope: Scope, origin: string): boolean {
  const verdict = scope.check(`${origin}/`);
  return verdict.inScope || verdict.reason === 'prefix' || verdict.reason === 'excluded';
}

export class HostPools {
  private readonly pools = new Map<string, HostPool>();

  constructor(private readonly scope: Scope) {}

  /** The pool of a host (scheme, host and port): `site` when the scope takes its URLs in (some of them, at least). */
  poolOf(origin: string): HostPool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = isSiteHost(this.scope, origin) ? 'site' : 'other';
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** How many of the hosts with steps running (`stepsOf`'s keys) are in `pool`. */
  busy(stepsOf: ReadonlyMap<string, number>, pool: HostPool): number {
    let n = 0;
    for (const origin of stepsOf.keys()) if (this.poolOf(origin) === pool) n += 1;
    return n;
  }
}
