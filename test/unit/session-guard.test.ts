import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startUrlProblem } from '../../src/core/crawl/crawl-lifecycle.ts';
import {
  SESSION_EXCLUDE_PATTERNS,
  validateSettings,
  withSessionGuard,
  type CrawlSettings,
} from '../../src/core/settings.ts';
import { createScope } from '../../src/core/url/scope.ts';

function settings(overrides: Partial<CrawlSettings> = {}): CrawlSettings {
  const result = validateSettings({ startUrl: 'https://shop.test/', ...overrides });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.settings;
}

/** Whether a crawl with cookies of shop.test would fetch this URL. */
function fetchedWithCookies(url: string): boolean {
  return createScope(withSessionGuard(settings({ withCookies: true }))).check(url).inScope;
}

describe('session guard of a crawl with cookies', () => {
  it('leaves a crawl without cookies as it is', () => {
    const plain = settings({ excludePatterns: ['*.pdf'] });
    assert.deepEqual(withSessionGuard(plain), plain);
  });

  it("adds its patterns after the user's own, each once, also when applied twice", () => {
    const once = withSessionGuard(settings({ withCookies: true, excludePatterns: ['*.pdf', '*logout*'] }));
    assert.equal(once.excludePatterns[0], '*.pdf');
    assert.equal(once.excludePatterns.filter((p) => p === '*logout*').length, 1);
    assert.deepEqual(withSessionGuard(once).excludePatterns, once.excludePatterns);
    assert.ok(SESSION_EXCLUDE_PATTERNS.every((pattern) => once.excludePatterns.includes(pattern)));
    // A re-run passes the stored patterns back through the validator: they must fit.
    assert.equal(validateSettings(once).ok, true);
  });

  it('never fetches logout, sign-out, delete, remove or unsubscribe URLs in their usual spellings', () => {
    for (const path of [
      '/logout',
      '/account/Logout',
      '/LogOut.aspx',
      '/user/logOut',
      '/LOGOUT',
      '/log-out',
      '/Log-Out',
      '/log_out',
      '/signout',
      '/SignOut',
      '/sign-out?next=/',
      '/auth/sign_out',
      '/logoff',
      '/Sign-Off',
      '/?action=logout',
      '/cart/remove?id=3',
      '/items/7/delete',
      '/posts/7?_method=DELETE',
      '/Delete/7',
      '/newsletter/unsubscribe?u=1',
      '/Unsubscribe',
      '/session/destroy',
      '/account/deactivate',
    ]) {
      assert.equal(fetchedWithCookies(`https://shop.test${path}`), false, path);
    }
  });

  it('still crawls ordinary pages', () => {
    for (const path of ['/', '/products/7', '/login', '/account', '/blog/2024/logo', '/search?q=shoes', '/about-us']) {
      assert.equal(fetchedWithCookies(`https://shop.test${path}`), true, path);
    }
  });

  it('refuses to start a crawl with cookies at a logout URL, saying why', () => {
    const problem = startUrlProblem(
      withSessionGuard(settings({ startUrl: 'https://shop.test/logout', withCookies: true })),
    );
    assert.equal(problem?.field, 'startUrl');
    assert.match(problem?.message ?? '', /looks like a logout or delete link/);
    // Without cookies, the same URL is an ordinary page.
    assert.equal(startUrlProblem(withSessionGuard(settings({ startUrl: 'https://shop.test/logout' }))), null);
  });
});
