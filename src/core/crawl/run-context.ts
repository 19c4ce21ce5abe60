/**
 * What the steps of a crawl run share: the ports, the commit queue every
 * write goes through, the host rules (robots policy, scope, gap), and the
 * admission of newly found URLs; plus the small facts about an answer and
 * the pause messages more than one step uses. The crawl runner builds one
 * {@link StepContext} and hands it to each step (`host-step.ts`, which
 * hands it on to `claim.ts`, `robots-step.ts` and `fetch-step.ts`; and
 * `run-ends.ts`).
 */
import type { CrawlRecord, FrontierEntry } from '../model.ts';
import type { CommitQueue } from './commit-queue.ts';
import type { CrawlWrites } from './crawl-writes.ts';
import type { Candidate } from './candidate.ts';
import type { HostRules } from './host-rules.ts';
import type { Clock, CrawlStore, FetchOutcome, Fetcher, Renderer } from './ports.ts';

export interface RunnerDeps {
  store: CrawlStore;
  fetcher: Fetcher;
  clock: Clock;
  /** Identifies this runner (one per worker start); leases of other run ids are stale. */
  runId: string;
  /** Uniform random in [0, 1) for jitter. @default Math.random */
  random?: () => number;
  /** Tallied links after which a fold adds them to the frontier's entries (tests make it small). @default FOLD_LINKS_AT */
  foldLinksAt?: number;
  /** Renders the pages a crawl renders (`settings.render`); absent: such pages are recorded as not rendered (`unavailable`). */
  renderer?: Renderer | null;
}

/** What every step of a run reaches. */
export interface StepContext extends Required<Omit<RunnerDeps, 'random' | 'foldLinksAt' | 'renderer'>> {
  /** Every write of a step goes through here, grouped into as few transactions as the store allows. */
  commits: CommitQueue;
  rules: HostRules;
  /**
   * Admits the URLs a step followed, in its transaction, when the scope, the depth limit, the trap rules
   * and the page budget let them in; records those they leave out (`admission.ts`).
   */
  admitFollowed(writes: CrawlWrites, candidates: Candidate[]): Promise<void>;
  /**
   * Admits URLs a step found that are fetched on any host, outside the scope (page resources, links to
   * other sites to check), when the trap rules and their kind's budget let them in.
   */
  admitAnyHost(writes: CrawlWrites, candidates: Candidate[]): Promise<void>;
}

/** What a claim in the frontier gave a step to do. */
export type Claim =
  | { kind: 'none' }
  | { kind: 'progress' }
  /** `hopOrigin`: the other site a robots.txt redirect leads to, whose request this also is; null on the host's own. */
  | { kind: 'robots'; url: string; notBefore: number; hopOrigin: string | null }
  /** `slots`: the host's request slots when claimed (see `requestSlots`). */
  | { kind: 'fetch'; entry: FrontierEntry; notBefore: number; slots: number };

/** Why a crawl paused by itself when the browser refused to store more. */
export const STORAGE_FULL_MESSAGE =
  'Paused: the browser refused to store more (its storage for Tabcrawl or the disk is full). Nothing stored was lost. Delete crawls you no longer need or free disk space, then resume.';

/** Why a crawl paused by itself when Chrome no longer let Tabcrawl reach a site (`message`: the fetcher's words). */
export function accessLostMessage(message: string): string {
  return `Paused: ${message}. Nothing was lost. Give Tabcrawl access to the site again (Chrome's extension settings, Site access), then resume.`;
}

/** Pauses a running crawl (in a transaction's copy of its record) and says why. */
export function pauseWithMessage(crawl: CrawlRecord, message: string, now: number): void {
  if (crawl.state !== 'running') return;
  crawl.state = 'paused';
  crawl.pausedAt = now;
  crawl.message = message;
}

/** A response header (lower-case name) of a successful outcome, or null. */
export const headerOf = (outcome: FetchOutcome, name: string): string | null =>
  outcome.ok ? (outcome.headers.find(([n]) => n === name)?.[1] ?? null) : null;
