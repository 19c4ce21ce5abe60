/**
 * The one message protocol between the extension's pages (popup, CLI driver
 * page) and the background service worker.
 *
 * Every request names its payload and its reply here; the background keeps a
 * handler map keyed by {@link RequestType}, so a missing handler is a compile
 * error. Replies carry errors as data ({@link Reply}); the client turns them
 * back into {@link TabcrawlError}s.
 */
import type { CrawlCounts, CrawlState, FetchFailure, RowKind } from '../core/model.ts';
import type { HostProgress } from '../core/crawl/progress.ts';
import type { CrawlSettings, SettingsError } from '../core/settings.ts';
import type { CheckId, Severity } from '../audit/checks.ts';

export type { HostProgress, HostWait } from '../core/crawl/progress.ts';

/** What the UI shows of a crawl. */
export interface CrawlSummary {
  id: string;
  startUrl: string;
  state: CrawlState;
  createdAt: number;
  endedAt: number | null;
  counts: CrawlCounts;
  /** URLs admitted but not yet done (queued or in flight). */
  queued: number;
  message: string | null;
  settings: CrawlSettings;
  /**
   * Time the crawl has run as of the reply, in ms, without the time it spent
   * paused or stopped (see `activeMs` in `core/crawl/progress.ts`). Absent
   * when the sender did not compute it.
   */
  activeMs?: number;
  /** The archive the crawl was imported from (`CrawlRecord.importedFrom`); absent for a crawl Tabcrawl made. */
  importedFrom?: string;
}

/** One row of the crawl table as the popup lists it. */
export interface PageSummary {
  seq: number;
  url: string;
  kind: RowKind;
  depth: number;
  status: number | null;
  contentType: string | null;
  location: string | null;
  blockedBy: 'robots' | null;
  error: FetchFailure | null;
  duplicateOf: string | null;
}

/**
 * Formats of `export/chunk`: rows as text, paged through the protocol (scripts, tests).
 * Files in every format are written by the export page (`src/shells/export/`).
 */
export type RowsFormat = 'jsonl';

export interface Requests {
  /**
   * Validates the settings and starts a crawl. Fails with `invalid-settings`,
   * `already-running`, or `permission-needed` when Chrome does not give
   * Tabcrawl access to the site (the user restricted its site access); then
   * nothing is stored. The popup asks for that access before sending this.
   */
  'crawl/start': {
    request: { settings: Partial<CrawlSettings> & { startUrl: string } };
    reply: { crawl: CrawlSummary };
  };
  /** Stops a running or paused crawl; what is stored stays. Other states are answered unchanged. */
  'crawl/stop': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
  /**
   * Pauses a running crawl: requests in flight finish and are recorded, no new
   * one starts; the frontier and host clocks stay. A paused crawl is not
   * resumed by a worker start. Other states are answered unchanged.
   */
  'crawl/pause': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
  /**
   * Runs a paused or stopped crawl again from where it was, keeping each
   * host's spacing. Fails with `already-running` when another crawl of the
   * site runs, `bad-request` when the crawl is finished or failed.
   */
  'crawl/resume': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
  /** Starts a new crawl with the settings of this one. Fails with `already-running` or `permission-needed` like `crawl/start`. */
  'crawl/rerun': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
  /**
   * Applies custom searches and extractions (docs/search-and-extraction.md) to a stored crawl's pages from their
   * stored bodies, nothing fetched, and keeps them as its rules: *Re-run extraction*, as the command line's
   * `--import` uses it. Fails with `invalid-settings` (each bad spec named) or `bad-request` (a crawl still
   * running or paused).
   */
  'crawl/apply-rules': {
    request: { crawlId: string; searches: string[]; extractions: string[] };
    reply: { crawl: CrawlSummary; pages: number; withoutBody: number };
  };
  /** The hosts of a crawl with URLs left, most pending first, and what each waits for. */
  'crawl/hosts': { request: { crawlId: string }; reply: { hosts: HostProgress[] } };
  'crawl/get': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
  /** Every stored crawl, newest first. */
  'crawl/list': { request: Record<string, never>; reply: { crawls: CrawlSummary[] } };
  'crawl/delete': { request: { crawlId: string }; reply: Record<string, never> };
  /** The newest rows of the crawl table, newest first. */
  'pages/latest': { request: { crawlId: string; limit: number }; reply: { pages: PageSummary[] } };
  /**
   * The Issues checks (docs/audit.md) over the crawl's rows as stored now: the
   * issues by severity and the checks that failed with their counts, in the
   * registry's order. Reads every row (up to three scans): ask once a crawl is over.
   */
  'crawl/issues': {
    request: { crawlId: string };
    reply: { bySeverity: Record<Severity, number>; checks: { check: CheckId; count: number }[] };
  };
  /**
   * One chunk of an export: rows with `seq > afterSeq`, at most `limit`.
   * Callers loop until `done`, so no export is held whole in memory.
   */
  'export/chunk': {
    request: { crawlId: string; format: RowsFormat; afterSeq: number; limit: number };
    reply: { text: string; lastSeq: number; rows: number; done: boolean };
  };
  /**
   * Sent by the import page once it has stored a crawl read from an archive
   * (the page writes the database itself: a File cannot travel through
   * runtime messaging). The background tells open pages the crawl changed
   * (`crawl/changed`), so the popup's Crawls list shows it. Fails with
   * `not-found` when no such crawl is stored.
   */
  'crawl/imported': { request: { crawlId: string }; reply: { crawl: CrawlSummary } };
}

/**
 * Events the background pushes to every open Tabcrawl page (the popup, the
 * results tab), so that they show changes as they happen instead of asking
 * again and again. Pages read what changed with the requests above (or from
 * the database); an event only says that something did.
 */
export interface Events {
  /**
   * A crawl's stored record, hosts or rows changed (progress, a new state), or
   * it was deleted. Sent at most every `CRAWL_EVENT_MIN_MS` per crawl, the
   * last change always (`background/crawl-events.ts`).
   */
  'crawl/changed': { crawlId: string; isDeleted: boolean };
}

export type EventType = keyof Events;

/** The envelope of one event, sent over `runtime.sendMessage` by the background. */
export interface EventMessageOf<K extends EventType> {
  event: K;
  payload: Events[K];
}
export type EventMessage = { [K in EventType]: EventMessageOf<K> }[EventType];

/**
 * Listens to one kind of event; returns the function that stops listening.
 * Pages get it in their deps, so tests can push events by hand.
 */
export type OnEvent = <K extends EventType>(type: K, listener: (payload: Events[K]) => void) => () => void;

/** Narrows an unknown value received over messaging to an {@link EventMessage}. */
export function isEventMessage(value: unknown): value is EventMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { event, payload } = value as { event?: unknown; payload?: unknown };
  if (event !== 'crawl/changed' || typeof payload !== 'object' || payload === null) return false;
  const { crawlId, isDeleted } = payload as { crawlId?: unknown; isDeleted?: unknown };
  return typeof crawlId === 'string' && typeof isDeleted === 'boolean';
}

export type RequestType = keyof Requests;
export type RequestOf<K extends RequestType> = Requests[K]['request'];
export type ReplyOf<K extends RequestType> = Requests[K]['reply'];

/** The envelope of one request type. */
export interface MessageOf<K extends RequestType> {
  type: K;
  payload: RequestOf<K>;
}

/** The envelope sent over `runtime.sendMessage`. */
export type Message = { [K in RequestType]: MessageOf<K> }[RequestType];

/**
 * - `forbidden`: the sender is not one of Tabcrawl's own pages.
 * - `permission-needed`: Chrome gives Tabcrawl no access to the site (see `crawl/start`).
 */
export type ErrorCode =
  'bad-request' | 'invalid-settings' | 'not-found' | 'already-running' | 'permission-needed' | 'forbidden' | 'internal';

/** An error as it crosses the boundary. */
export interface ProtocolError {
  code: ErrorCode;
  message: string;
  /** Per-field problems for `invalid-settings`. */
  fields?: SettingsError[];
  /**
   * For `already-running`: the id of the running or paused crawl in the way,
   * so that a page can follow it (the refusal no longer holds once it ends) or stop it.
   */
  crawlId?: string;
}

export type Reply<K extends RequestType> = { ok: true; value: ReplyOf<K> } | { ok: false; error: ProtocolError };

/** A failed request, typed again on the caller's side. */
export class TabcrawlError extends Error {
  readonly code: ErrorCode;
  readonly fields: SettingsError[];
  /** See {@link ProtocolError.crawlId}; null when the error names no crawl. */
  readonly crawlId: string | null;
  constructor(error: ProtocolError) {
    super(error.message);
    this.name = 'TabcrawlError';
    this.code = error.code;
    this.fields = error.fields ?? [];
    this.crawlId = error.crawlId ?? null;
  }
}

/** Every request type, as a record so that a type missing here is a compile error. */
const REQUEST_TYPE_LIST: Record<RequestType, true> = {
  'crawl/start': true,
  'crawl/stop': true,
  'crawl/pause': true,
  'crawl/resume': true,
  'crawl/rerun': true,
  'crawl/apply-rules': true,
  'crawl/hosts': true,
  'crawl/get': true,
  'crawl/list': true,
  'crawl/delete': true,
  'pages/latest': true,
  'crawl/issues': true,
  'export/chunk': true,
  'crawl/imported': true,
};
const REQUEST_TYPES: ReadonlySet<string> = new Set(Object.keys(REQUEST_TYPE_LIST));

/** Narrows an unknown value received over messaging to a {@link Message} envelope (payload checked by its handler). */
export function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const { type, payload } = value as { type?: unknown; payload?: unknown };
  return typeof type === 'string' && REQUEST_TYPES.has(type) && typeof payload === 'object' && payload !== null;
}
