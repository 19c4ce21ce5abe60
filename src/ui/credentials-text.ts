/**
 * What an exported file holds of credentials, in the words the export page and the results tab use.
 * The marker is `core/redact-headers.ts`'s. Pure.
 */
import { REDACTED_VALUE } from '../core/redact-headers.ts';

/**
 * For a format with HTTP headers (WARC, WACZ): that request credentials are not in it, and whether the
 * `Set-Cookie` values are. Null for the others (`setCookies` null).
 */
export function credentialsNote(result: { setCookies: 'removed' | 'kept' | null }): string | null {
  if (result.setCookies === null) return null;
  const request = `The values of Cookie and Authorization request headers are not in it (Tabcrawl never stores them): each reads "${REDACTED_VALUE}".`;
  return result.setCookies === 'kept'
    ? `${request} The cookies the site set (Set-Cookie) are in it, as you asked: share it only with whom you would give your session.`
    : `${request} The values of the cookies the site set (Set-Cookie) are removed too.`;
}
