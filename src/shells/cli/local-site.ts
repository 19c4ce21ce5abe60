/**
 * A tiny HTTP server on 127.0.0.1 for the demo and the end-to-end tests.
 *
 * Each site listens on its own random port, so several sites running at once
 * are several origins (hosts, for the crawler's politeness). Every request is
 * logged with its timing so tests can check what the crawler asked for and
 * when.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A response given as data. */
export interface StaticResponse {
  /** HTTP status code. @default 200 */
  status?: number;
  /** Response headers. @default {} */
  headers?: Record<string, string>;
  /** Response body; a string is sent as UTF-8. @default "" */
  body?: string | Uint8Array;
  /** Wait before sending the status line, in ms. @default 0 */
  delayMs?: number;
}

/** A response given as code: it must end `res` (or destroy it). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export type Route = StaticResponse | RouteHandler;

/** Matches a request by its path and query (e.g. `/search?q=1`). */
export type PathMatcher = string | ((pathAndQuery: string) => boolean);

/**
 * Routes by exact path and query (`{ '/': ..., '/a?b=1': ... }`), or a list of
 * `[matcher, route]` pairs tried in order (a `Map` works too). Unknown paths get 404.
 */
export type Routes = Readonly<Record<string, Route>> | Iterable<readonly [PathMatcher, Route]>;

export interface LocalSiteOptions {
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Loopback address to listen on (any of `127.0.0.0/8` on Linux), for tests that tell two hosts apart by address. @default "127.0.0.1" */
  host?: string;
}

/** One request as the site saw it. */
export interface RequestLogEntry {
  method: string;
  /** Path and query, as sent on the request line. */
  url: string;
  /** The `User-Agent` header, or null when absent. */
  userAgent: string | null;
  /** When the request arrived, in ms since the epoch with sub-ms precision (`performance.timeOrigin + performance.now()`). */
  startedAt: number;
  /** When the handler ended the response (or the connection dropped), same clock as `startedAt`; null while in progress. */
  endedAt: number | null;
}

export interface LocalSite {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly origin: string;
  /** Every request so far, in arrival order. Entries are updated in place when their response ends. */
  readonly requests: RequestLogEntry[];
  /** Stops listening and closes every open connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** The clock used by the request log, in ms since the epoch with sub-ms precision. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function isStaticResponse(route: Route): route is StaticResponse {
  return typeof route !== 'function';
}

function toMatchers(routes: Routes): [PathMatcher, Route][] {
  if (Symbol.iterator in routes)
    return Array.from(routes as Iterable<readonly [PathMatcher, Route]>, ([m, r]) => [m, r]);
  return Object.entries(routes as Readonly<Record<string, Route>>);
}

function findRoute(matchers: [PathMatcher, Route][], pathAndQuery: string): Route | undefined {
  for (const [matcher, route] of matchers) {
    if (typeof matcher === 'string' ? matcher === pathAndQuery : matcher(pathAndQuery)) return route;
  }
  return undefined;
}

const NOT_FOUND: StaticResponse = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: 'Not found\n',
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function sendStatic(req: IncomingMessage, res: ServerResponse, response: StaticResponse): Promise<void> {
  if (response.delayMs !== undefined && response.delayMs > 0) await sleep(response.delayMs);
  if (res.destroyed) return;
  const body =
    typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : (response.body ?? new Uint8Array());
  res.writeHead(response.status ?? 200, { 'content-length': String(body.byteLength), ...response.headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Starts a site on 127.0.0.1 (or `options.host`).
 * @param routes what to answer; anything else is a 404. A function receives the
 *   site's origin (known once listening), for bodies that name it (sitemaps, absolute links).
 */
export async function startLocalSite(
  routes: Routes | ((origin: string) => Routes),
  options: LocalSiteOptions = {},
): Promise<LocalSite> {
  let matchers: [PathMatcher, Route][] = [];
  const requests: RequestLogEntry[] = [];

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const entry: RequestLogEntry = {
      method: req.method ?? 'GET',
      url,
      userAgent: req.headers['user-agent'] ?? null,
      startedAt: preciseNow(),
      endedAt: null,
    };
    requests.push(entry);
    const markEnded = (): void => {
      if (entry.endedAt === null) entry.endedAt = preciseNow();
    };
    // Stamp the end when the handler hands over the last bytes, not on 'finish': that event waits for
    // this process's event loop, which a busy test (driving a browser) can hold for tens of ms. A late
    // stamp would make a polite client look impolite; this one is never later than the client's end.
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      markEnded();
      return end(...args);
    }) as typeof res.end;
    res.on('close', markEnded);

    const route = findRoute(matchers, url) ?? NOT_FOUND;
    const handled = isStaticResponse(route) ? sendStatic(req, res, route) : (async () => route(req, res))();
    handled.catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Handler failed: ${error instanceof Error ? error.message : String(error)}\n`);
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  matchers = toMatchers(typeof routes === 'function' ? routes(origin) : routes);

  let closing: Promise<void> | null = null;
  return {
    origin,
    requests,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
