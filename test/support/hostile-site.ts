/**
 * Fault-injection sites on 127.0.0.1 for test/e2e/hostile.test.ts: the
 * hostile and broken servers of issue 5, each a logging {@link LocalSite}
 * (every request with its times) plus a log of every streamed body: how many
 * bytes the server handed to the socket, and whether the client hung up first.
 *
 * Streams honour back-pressure, so "bytes sent" is what the client's reading
 * let through (plus the kernel's socket buffers), not what the server wished to send.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  startLocalSite,
  type LocalSite,
  type PathMatcher,
  type Route,
  type RouteHandler,
} from '../../src/shells/cli/local-site.ts';

/** A streamed response as the server saw it. */
export interface StreamLog {
  path: string;
  /** Body bytes written to the socket. */
  bytesSent: number;
  /** The client closed the connection before the body was complete. */
  closedByClient: boolean;
}

export interface HostileSite extends LocalSite {
  /** Streamed bodies, in the order they started. */
  readonly streams: StreamLog[];
  /** Requests for paths that match `pattern`, robots.txt excluded. */
  requestsTo(pattern: RegExp): string[];
}

/** 1 GiB: what the "1 GB response" routes claim in `Content-Length`. */
export const ONE_GIB = 1024 ** 3;
/** The robots.txt of the sites that have a readable one. */
export const DISALLOW_PRIVATE = 'User-agent: *\nDisallow: /private/\n';

const encoder = new TextEncoder();
const html = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const links = (hrefs: string[]): string =>
  hrefs.map((href) => `<a href="${escape(href)}">${escape(href.slice(0, 40))}</a>`).join('\n');
const page = (title: string, hrefs: string[], extra = ''): Route => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: html(title, `${extra}${links(hrefs)}`),
});

/** Starts a site whose handlers can log streams; `routes` receives the log and the origin. */
async function startHostile(
  routes: (streams: StreamLog[], origin: string) => Iterable<readonly [PathMatcher, Route]>,
): Promise<HostileSite> {
  const streams: StreamLog[] = [];
  const site = await startLocalSite((origin) => routes(streams, origin));
  return Object.assign(site, {
    streams,
    requestsTo(pattern: RegExp): string[] {
      return site.requests.map((r) => r.url).filter((url) => url !== '/robots.txt' && pattern.test(url));
    },
  });
}

/**
 * A body streamed in `chunk`s after `head`, until `totalBytes` are sent or
 * the client hangs up, honouring back-pressure; `pauseMs` between chunks
 * makes it trickle.
 */
function streamed(
  streams: StreamLog[],
  options: {
    headers: Record<string, string>;
    head: Uint8Array;
    chunk: Uint8Array;
    totalBytes: number;
    pauseMs?: number;
  },
): RouteHandler {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const log: StreamLog = { path: req.url ?? '', bytesSent: 0, closedByClient: false };
    streams.push(log);
    let isClosed = false;
    const closed = once(res, 'close').then(() => {
      isClosed = true;
    });
    res.writeHead(200, options.headers);
    const write = async (bytes: Uint8Array): Promise<void> => {
      const piece = bytes.subarray(0, Math.max(0, options.totalBytes - log.bytesSent));
      log.bytesSent += piece.byteLength;
      if (!res.write(piece)) await Promise.race([once(res, 'drain'), closed]);
    };
    await write(options.head);
    while (!isClosed && log.bytesSent < options.totalBytes) {
      if (options.pauseMs !== undefined)
        await Promise.race([new Promise((r) => setTimeout(r, options.pauseMs)), closed]);
      if (isClosed) break;
      await write(options.chunk);
    }
    if (isClosed) log.closedByClient = log.bytesSent < options.totalBytes;
    else res.end();
  };
}

/** What a robots-case site serves as /robots.txt. */
export type RobotsCase =
  | 'huge'
  | 'binary'
  | 'html'
  | 'redirected-5'
  | 'redirected-6'
  | 'unavailable-then-ok'
  | 'slow'
  | 'gzip'
  | 'crawl-delay-in-run'
  | 'colon-less';

/** The page whose name has a `*`, disallowed by the robots-case sites that write it `%2A` (RFC 9309 §2.2.3). */
export const STAR_PAGE = '/file-with-a-*.html';

/**
 * A robots.txt in which a Crawl-delay line sits inside a run of User-agent lines: one group for both
 * agents (RFC 9309 §2.2.4), so our product token gets the Disallow rules and the 0.1 s Crawl-delay.
 * robots-parser alone would see two groups and allow everything.
 */
export const CRAWL_DELAY_IN_RUN =
  'User-agent: tabcrawl\nCrawl-delay: 0.1\nUser-agent: otherbot\nDisallow: /private/\nDisallow: /file-with-a-%2A.html\n';

/** A robots.txt whose every colon was forgotten, as Google's reference parser accepts it. */
export const COLON_LESS = 'user-agent tabcrawl\ndisallow /private/\ndisallow /file-with-a-%2A.html\n';

/**
 * A small site (`/` → `/a`, `/private/x`) whose robots.txt is one hostile case.
 * Where the file says anything, it is {@link DISALLOW_PRIVATE}.
 * - `huge`: the rule, then comment lines without end (chunked, no length);
 * - `binary`: 64 KiB of random-looking bytes as application/octet-stream;
 * - `html`: a 200 HTML page, as a site with a catch-all route serves;
 * - `redirected-5` / `redirected-6`: `/robots.txt` → `/r/1` → ... ; the file is reached
 *   after that many redirects;
 * - `unavailable-then-ok`: 503 first, the file after;
 * - `slow`: the first answer never comes (the crawl's timeout ends it), the second after `slowMs`;
 * - `gzip`: the file with `Content-Encoding: gzip`;
 * - `crawl-delay-in-run`: {@link CRAWL_DELAY_IN_RUN}, and the home page also links {@link STAR_PAGE};
 * - `colon-less`: {@link COLON_LESS}, and the home page also links {@link STAR_PAGE}.
 */
export async function startRobotsSite(kind: RobotsCase, options: { slowMs?: number } = {}): Promise<HostileSite> {
  let robotsAnswers = 0;
  const robotsRoutes = (streams: StreamLog[]): [PathMatcher, Route][] => {
    const text = { headers: { 'content-type': 'text/plain' }, body: DISALLOW_PRIVATE };
    switch (kind) {
      case 'huge':
        return [
          [
            '/robots.txt',
            streamed(streams, {
              headers: { 'content-type': 'text/plain' },
              head: encoder.encode(DISALLOW_PRIVATE),
              chunk: encoder.encode(`# ${'filler '.repeat(8)}\n`.repeat(1024)),
              totalBytes: ONE_GIB,
            }),
          ],
        ];
      case 'binary':
        return [
          [
            '/robots.txt',
            {
              headers: { 'content-type': 'application/octet-stream' },
              body: Uint8Array.from({ length: 65_536 }, (_, i) => (i * 7919 + 17) % 251),
            },
          ],
        ];
      case 'html':
        return [
          [
            '/robots.txt',
            {
              headers: { 'content-type': 'text/html' },
              body: html('Welcome', '<h1>Page not found</h1><p>Try <a href="/">the home page</a>.</p>'),
            },
          ],
        ];
      case 'redirected-5':
      case 'redirected-6': {
        const hops = kind === 'redirected-5' ? 5 : 6;
        return [
          ['/robots.txt', { status: 301, headers: { location: '/r/1' } }],
          [
            (path) => path.startsWith('/r/'),
            (req, res) => {
              const n = Number((req.url ?? '').slice('/r/'.length));
              if (n < hops) res.writeHead(302, { location: `/r/${n + 1}`, 'content-length': '0' }).end();
              else res.writeHead(200, { 'content-type': 'text/plain' }).end(DISALLOW_PRIVATE);
            },
          ],
        ];
      }
      case 'unavailable-then-ok':
        return [
          [
            '/robots.txt',
            (_req, res) => {
              robotsAnswers += 1;
              if (robotsAnswers === 1) res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
              else res.writeHead(200, text.headers).end(text.body);
            },
          ],
        ];
      case 'slow':
        return [
          [
            '/robots.txt',
            (_req, res) => {
              robotsAnswers += 1;
              // The first answer never comes: only the client's timeout ends the request.
              if (robotsAnswers === 1) return;
              setTimeout(() => res.writeHead(200, text.headers).end(text.body), options.slowMs ?? 500);
            },
          ],
        ];
      case 'gzip':
        return [
          [
            '/robots.txt',
            {
              headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
              body: gzipSync(encoder.encode(DISALLOW_PRIVATE)),
            },
          ],
        ];
      case 'crawl-delay-in-run':
        return [['/robots.txt', { headers: text.headers, body: CRAWL_DELAY_IN_RUN }]];
      case 'colon-less':
        return [['/robots.txt', { headers: text.headers, body: COLON_LESS }]];
    }
  };
  const hasStarPage = kind === 'crawl-delay-in-run' || kind === 'colon-less';
  return startHostile((streams) => [
    ...robotsRoutes(streams),
    ['/', page('home', ['/a', '/private/x', ...(hasStarPage ? [STAR_PAGE] : [])])],
    ['/a', page('a', ['/'])],
    ['/private/x', page('private', [])],
    [(path) => path.startsWith('/file-with-a-'), page('star', [])],
  ]);
}

/** The first bytes of the `/huge-body` stream: a page with one link, then filler forever. */
export const HUGE_BODY_HEAD = encoder.encode(
  '<!doctype html><html><head><title>Huge</title></head><body><a href="/from-huge">more</a>\n',
);
export const HUGE_BODY_CHUNK = encoder.encode(`<p>${'lorem ipsum '.repeat(20)}</p>\n`.repeat(256));

/** The first `length` bytes of the `/huge-body` stream, to compare with what the crawl stored. */
export function hugeBodyPrefix(length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(HUGE_BODY_HEAD.subarray(0, length));
  for (let offset = HUGE_BODY_HEAD.byteLength; offset < length; offset += HUGE_BODY_CHUNK.byteLength) {
    out.set(HUGE_BODY_CHUNK.subarray(0, length - offset), offset);
  }
  return out;
}

/** Page bytes whose encoding is only known from the Content-Type header: 日本 in Shift_JIS. */
export const SHIFT_JIS_PAGE = Uint8Array.from([
  ...encoder.encode('<html><head><title>'),
  0x93,
  0xfa,
  0x96,
  0x7b,
  ...encoder.encode('</title></head><body><a href="/from-sjis">'),
  0x93,
  0xfa,
  0x96,
  0x7b,
  ...encoder.encode('</a></body></html>'),
]);
/** A windows-1252 page declared only by `<meta http-equiv>`: "café" in a title, a link text and a path. */
export const WINDOWS_1252_PAGE = Uint8Array.from([
  ...encoder.encode('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>caf'),
  0xe9,
  ...encoder.encode('</title></head><body><a href="/caf'),
  0xe9,
  ...encoder.encode('">caf'),
  0xe9,
  ...encoder.encode('</a></body></html>'),
]);
/** A page served without Content-Type that is binary, with a link-like text inside. */
export const UNTYPED_BINARY = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  0x0d,
  ...encoder.encode('<a href="/from-binary">x</a>'),
]);

/** An 8,000-character path (more than the crawl follows) and a 4,000-character one (less). */
export const LONG_PATH = `/long/${'x'.repeat(8000 - '/long/'.length)}`;
export const LONGISH_PATH = `/longish/${'y'.repeat(4000 - '/longish/'.length)}`;

/**
 * The page cases of issue 5 on one site, robots.txt {@link DISALLOW_PRIVATE}.
 * `/` links to each; `retryDateMs()` is the HTTP-date (ms) the first `/busy-date` answer asked to wait for.
 */
export async function startHostilePagesSite(): Promise<HostileSite & { retryDateMs(): number | null }> {
  const attempts = new Map<string, number>();
  const attempt = (path: string): number => {
    const n = attempts.get(path) ?? 0;
    attempts.set(path, n + 1);
    return n;
  };
  const state = { retryDateMs: null as number | null };
  const site = await startHostile((streams) => [
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: DISALLOW_PRIVATE }],
    [
      '/',
      page('hostile', [
        '/unterminated',
        '/legacy-sjis',
        '/legacy-meta',
        '/no-type',
        '/no-type-binary',
        '/huge-body',
        '/huge-file.bin',
        '/never-ends',
        '/loop/a',
        '/chain/0',
        '/busy-seconds',
        '/busy-date',
        '/bad-location',
        '/to-javascript',
        LONG_PATH,
        LONGISH_PATH,
        '/bad%zz%',
        '/private/%zz',
        '/private/secret',
        'http://BÜCHER.example/',
        'javascript:fetch("/private/from-js")',
        "data:text/html,<a href='/private/from-data'>x</a>",
        '/session;jsessionid=0123456789ABCDEF?PHPSESSID=abc&keep=1',
      ]),
    ],
    [
      '/unterminated',
      {
        headers: { 'content-type': 'text/html' },
        body: '<html><head><title>Broken</title><body><div class="x"<p>text <b>bold <a href="/after-broken">after</a><table><tr><td><a href="/private/in-broken">x</a><i>never closed <!-- <a href="/in-comment"> <a href="/last-broken',
      },
    ],
    ['/after-broken', page('after broken', [])],
    ['/legacy-sjis', { headers: { 'content-type': 'text/html; charset=shift_jis' }, body: SHIFT_JIS_PAGE }],
    ['/from-sjis', page('from sjis', [])],
    ['/legacy-meta', { headers: { 'content-type': 'text/html' }, body: WINDOWS_1252_PAGE }],
    ['/caf%C3%A9', page('cafe', [])],
    ['/no-type', { body: html('untyped', '<a href="/from-no-type">x</a>') }],
    ['/from-no-type', page('from untyped', [])],
    ['/no-type-binary', { body: UNTYPED_BINARY }],
    [
      '/huge-body',
      streamed(streams, {
        headers: { 'content-type': 'text/html', 'content-length': String(ONE_GIB) },
        head: HUGE_BODY_HEAD,
        chunk: HUGE_BODY_CHUNK,
        totalBytes: ONE_GIB,
      }),
    ],
    ['/from-huge', page('from huge', [])],
    [
      '/huge-file.bin',
      streamed(streams, {
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(ONE_GIB) },
        head: new Uint8Array(0),
        chunk: new Uint8Array(65_536),
        totalBytes: ONE_GIB,
      }),
    ],
    [
      '/never-ends',
      streamed(streams, {
        headers: { 'content-type': 'text/html' },
        head: encoder.encode('<html><body>'),
        chunk: encoder.encode('.'),
        totalBytes: ONE_GIB,
        pauseMs: 100,
      }),
    ],
    ['/loop/a', { status: 302, headers: { location: '/loop/b' } }],
    ['/loop/b', { status: 301, headers: { location: '/loop/a' } }],
    [
      (path) => path.startsWith('/chain/'),
      (req, res) => {
        const n = Number((req.url ?? '').slice('/chain/'.length));
        res.writeHead(302, { location: `/chain/${n + 1}`, 'content-length': '0' }).end();
      },
    ],
    [
      '/busy-seconds',
      (_req, res) => {
        if (attempt('/busy-seconds') === 0) res.writeHead(429, { 'retry-after': '1', 'content-length': '0' }).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end(html('busy', 'ok'));
      },
    ],
    [
      '/busy-date',
      (_req, res) => {
        if (attempt('/busy-date') === 0) {
          const date = new Date(Date.now() + 2000);
          state.retryDateMs = Math.floor(date.getTime() / 1000) * 1000;
          res.writeHead(503, { 'retry-after': date.toUTCString(), 'content-length': '0' }).end();
        } else {
          res.writeHead(200, { 'content-type': 'text/html' }).end(html('busy date', 'ok'));
        }
      },
    ],
    ['/bad-location', { status: 302, headers: { location: 'http://[::1' } }],
    ['/to-javascript', { status: 302, headers: { location: 'javascript:alert(1)' } }],
    [(path) => path.startsWith('/longish/') || path.startsWith('/long/'), page('long', [])],
    ['/bad%zz%', page('bad escape', [])],
    ['/session?keep=1', page('session', [])],
  ]);
  return Object.assign(site, { retryDateMs: (): number | null => state.retryDateMs });
}

/**
 * A site of crawler traps, robots.txt {@link DISALLOW_PRIVATE}:
 * - `/cal?m=N`: a calendar without end; each month links the months around
 *   it and 30 day pages `/cal?d=N`, each day the days around it;
 * - `/pcal/N/`: a calendar laid out in paths, each month links the next;
 * - `/s/a`, `/s/b`: every answer links them again with a new session id;
 * - `/loop/...`: every page links `again/`, relative to itself;
 * - `/real/0` to `/real/10`: the site's real pages, behind the traps;
 * - each trap page also links `/private/...`.
 */
export async function startTrapSite(): Promise<HostileSite> {
  let sessions = 0;
  const sessionId = (): string => `${(sessions += 1).toString(16).padStart(8, '0')}ABCDEF0123456789`;
  const sessionPage: RouteHandler = (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      html(
        `session ${req.url ?? ''}`,
        links([`/s/a;jsessionid=${sessionId()}`, `/s/b?PHPSESSID=${sessionId()}&tab=1`, '/private/s']),
      ),
    );
  };
  return startHostile(() => [
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: DISALLOW_PRIVATE }],
    ['/', page('traps', ['/cal?m=0', '/pcal/0/', `/s/a;jsessionid=${sessionId()}`, '/loop/', '/real/0', '/private/x'])],
    [
      (path) => path.startsWith('/cal?'),
      (req, res) => {
        const query = new URL(req.url ?? '/', 'http://x').searchParams;
        const month = query.get('m');
        const day = query.get('d');
        const hrefs =
          month !== null
            ? [
                `/cal?m=${Number(month) - 1}`,
                `/cal?m=${Number(month) + 1}`,
                ...Array.from({ length: 30 }, (_, d) => `/cal?d=${Number(month) * 30 + d}`),
              ]
            : [`/cal?d=${Number(day) - 1}`, `/cal?d=${Number(day) + 1}`, `/private/cal?d=${day ?? ''}`];
        res.writeHead(200, { 'content-type': 'text/html' }).end(html(`calendar ${req.url ?? ''}`, links(hrefs)));
      },
    ],
    [
      (path) => path.startsWith('/pcal/'),
      (req, res) => {
        const n = Number((req.url ?? '').split('/')[2]);
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(html(`month ${n}`, links([`/pcal/${n + 1}/`, '/private/pcal'])));
      },
    ],
    [(path) => path.startsWith('/s/'), sessionPage],
    [
      (path) => path.startsWith('/loop/'),
      (req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(html(`loop ${req.url ?? ''}`, links(['again/', '/private/loop'])));
      },
    ],
    [
      (path) => path.startsWith('/real/'),
      (req, res) => {
        const n = Number((req.url ?? '').slice('/real/'.length));
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(html(`real ${n}`, links(n < 10 ? [`/real/${n + 1}`] : [])));
      },
    ],
  ]);
}

/**
 * A site whose `/huge-links` page has 100,000 links: in document order,
 * `/n/I` with every tenth one `/private/I` instead (disallowed), for I below
 * 10,000; `/late/I` after that.
 */
export async function startManyLinksSite(): Promise<HostileSite> {
  const hrefs = Array.from({ length: 100_000 }, (_, i) =>
    i >= 10_000 ? `/late/${i}` : i % 10 === 0 ? `/private/${i}` : `/n/${i}`,
  );
  const body = `<!doctype html><title>100,000 links</title>${hrefs.map((h) => `<a href=${h}>${h}</a>`).join('\n')}`;
  return startHostile(() => [
    ['/robots.txt', { headers: { 'content-type': 'text/plain' }, body: DISALLOW_PRIVATE }],
    ['/', page('home', ['/huge-links'])],
    ['/huge-links', { headers: { 'content-type': 'text/html' }, body }],
    [
      (path) => path.startsWith('/n/') || path.startsWith('/late/'),
      (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(html(req.url ?? '', ''));
      },
    ],
  ]);
}
