/**
 * Session ids in URLs. A site that keeps sessions in URLs instead of cookies
 * (Java's `;jsessionid=`, PHP's `?PHPSESSID=`) writes a new id into every
 * link of every page it serves to a client without cookies, which the
 * crawler always is: each page then names the whole site again under new
 * URLs, an endless trap. The crawler removes these ids from every URL it
 * sees, so one page has one URL.
 *
 * Only names that mean nothing but a session are removed whatever their
 * value; `sid`, which some sites use for other ids, only when its value
 * looks random. Pure.
 */

/** Query parameter names (lower case) that only ever carry a session id. */
const SESSION_PARAMETERS: ReadonlySet<string> = new Set([
  'jsessionid', // Java servlets
  'phpsessid', // PHP
  'sessionid',
  'session_id',
  'sessid',
  'cfid', // ColdFusion, with cftoken
  'cftoken',
  'zenid', // Zen Cart
  'oscsid', // osCommerce
]);
/** ASP's `ASPSESSIONIDxxxxxxxx=` carries random letters in the name itself. */
const ASP_SESSION_PREFIX = 'aspsessionid';
/** A value that looks like a generated token: 16 or more letters and digits, at least one digit. */
const TOKEN = /^(?=[A-Za-z]*\d)[0-9A-Za-z]{16,}$/;
/** A `;jsessionid=...` path parameter and its value. */
const PATH_SESSION = /;jsessionid=[^;/]*/gi;

/** Whether one `name=value` piece of a query is a session id. */
export function isSessionParameter(piece: string): boolean {
  const equals = piece.indexOf('=');
  const name = (equals === -1 ? piece : piece.slice(0, equals)).toLowerCase();
  const value = equals === -1 ? '' : piece.slice(equals + 1);
  if (SESSION_PARAMETERS.has(name) || name.startsWith(ASP_SESSION_PREFIX)) return true;
  return name === 'sid' && TOKEN.test(value);
}

/**
 * Removes session ids from a parsed URL, in place: `;jsessionid=...` path
 * parameters and the query parameters {@link isSessionParameter} names. The
 * other parameters keep their order and spelling; a query left empty is removed.
 * @returns whether anything was removed.
 */
export function stripSessionIds(url: URL): boolean {
  let changed = false;
  if (/;jsessionid=/i.test(url.pathname)) {
    url.pathname = url.pathname.replace(PATH_SESSION, '');
    changed = true;
  }
  if (url.search.length > 1) {
    const pieces = url.search.slice(1).split('&');
    const kept = pieces.filter((piece) => !isSessionParameter(piece));
    if (kept.length !== pieces.length) {
      url.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
      changed = true;
    }
  }
  return changed;
}
