/**
 * An in-memory web for the crawl core's tests: a {@link Fetcher} that serves
 * fixed responses by URL on a {@link VirtualClock}, and logs every request
 * with its virtual start and end times.
 */
import type { FetchOutcome, FetchRequest, Fetcher } from '../../src/core/crawl/ports.ts';
import type { VirtualClock } from './virtual-clock.ts';

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** How long the response takes, in virtual ms. @default 10 */
  responseMs?: number;
  /**
   * Fail at the network level instead of answering (`no-access`: as the access guard refuses a host Chrome
   * keeps Tabcrawl from; `dns`, `refused`: as the browser fetcher reports a host name that does not resolve
   * and a connection refused).
   */
  networkError?: 'network' | 'timeout' | 'no-access' | 'dns' | 'refused';
  /** The request headers the browser reports having sent (as the wire observer does). @default { 'user-agent': 'fake' } */
  requestHeaders?: Record<string, string>;
  /** The server's IP address, as the browser's `webRequest` reports it. @default "192.0.2.1" */
  ipAddress?: string;
}

export interface LoggedRequest {
  url: string;
  method: 'GET' | 'HEAD';
  startedAt: number;
  endedAt: number;
  /** The request asked to carry no credentials (a link to another site). */
  withoutCredentials: boolean;
}

/** HTML for a page that links to `hrefs` (each as `<a href>` with its href as text). */
export function page(hrefs: string[], extra = ''): FakeResponse {
  const links = hrefs.map((h) => `<a href="${h}">${h}</a>`).join('\n');
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><title>t</title>${extra}${links}`,
  };
}

export class FakeSite implements Fetcher {
  readonly requests: LoggedRequest[] = [];
  /** Responses by absolute URL; a function can vary by attempt (0-based). */
  private readonly routes = new Map<string, FakeResponse | ((attempt: number) => FakeResponse)>();
  private readonly attempts = new Map<string, number>();
  /** URLs whose requests never answer (to simulate a worker killed mid-request). */
  readonly hang = new Set<string>();

  constructor(private readonly clock: VirtualClock) {}

  route(url: string, response: FakeResponse | ((attempt: number) => FakeResponse)): this {
    this.routes.set(url, response);
    return this;
  }

  /** Requests for one URL, in order. */
  requestsFor(url: string): LoggedRequest[] {
    return this.requests.filter((r) => r.url === url);
  }

  async fetch(request: FetchRequest): Promise<FetchOutcome> {
    const startedAt = this.clock.now();
    // Aborted before the call: no request is sent (as the browser fetcher does).
    if (request.signal?.aborted === true)
      return { ok: false, error: { code: 'aborted', message: 'aborted' }, startedAt, endedAt: startedAt };
    const log: LoggedRequest = {
      url: request.url,
      method: request.method,
      startedAt,
      endedAt: startedAt,
      withoutCredentials: request.withoutCredentials === true,
    };
    this.requests.push(log);
    if (this.hang.has(request.url)) return new Promise<FetchOutcome>(() => undefined);
    const attempt = this.attempts.get(request.url) ?? 0;
    this.attempts.set(request.url, attempt + 1);
    const route = this.routes.get(request.url);
    const response: FakeResponse =
      route === undefined
        ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' }
        : typeof route === 'function'
          ? route(attempt)
          : route;
    try {
      await this.clock.sleep(response.responseMs ?? 10, request.signal);
    } catch {
      log.endedAt = this.clock.now();
      return { ok: false, error: { code: 'aborted', message: 'aborted' }, startedAt, endedAt: log.endedAt };
    }
    log.endedAt = this.clock.now();
    if (response.networkError) {
      return {
        ok: false,
        error: { code: response.networkError, message: `simulated ${response.networkError} error` },
        startedAt,
        endedAt: log.endedAt,
      };
    }
    const status = response.status ?? 200;
    const headers = Object.entries(response.headers ?? {}).map(([k, v]): [string, string] => [k.toLowerCase(), v]);
    const contentType = headers.find(([k]) => k === 'content-type')?.[1] ?? null;
    const locationHeader = headers.find(([k]) => k === 'location')?.[1];
    const location =
      locationHeader === undefined || status < 300 || status >= 400 ? null : new URL(locationHeader, request.url).href;
    const raw = response.body ?? '';
    const limit = request.method === 'GET' ? request.bodyLimit(status, contentType) : 0;
    let body: Uint8Array | null = limit > 0 ? (typeof raw === 'string' ? new TextEncoder().encode(raw) : raw) : null;
    let truncated = false;
    if (body !== null && body.byteLength > limit) {
      body = body.slice(0, limit);
      truncated = true;
    }
    const wire = {
      statusLine: `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Status'}`,
      requestHeaders: Object.entries(response.requestHeaders ?? { 'user-agent': 'fake' }),
      ipAddress: response.ipAddress ?? '192.0.2.1',
    };
    return { ok: true, status, headers, location, body, truncated, wire, startedAt, endedAt: log.endedAt };
  }
}
