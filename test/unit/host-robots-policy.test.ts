import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hostRobotsPolicy } from '../../src/core/robots/host-robots-policy.ts';

const ORIGIN = 'https://example.test';
const TOKEN = 'tabcrawl';
const BODY = 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\n';

describe('hostRobotsPolicy', () => {
  it('parses the body of a ready robots.txt as the host origin /robots.txt', () => {
    const policy = hostRobotsPolicy(ORIGIN, { phase: 'ready', status: 200, body: BODY }, TOKEN);
    assert.equal(policy.crawlDelayMs, 2000);
    assert.equal(policy.isAllowed(`${ORIGIN}/private/a`).allowed, false);
    assert.equal(policy.isAllowed(`${ORIGIN}/public`).allowed, true);
  });

  it('allows everything when a ready robots.txt has no body (a 4xx answer)', () => {
    const policy = hostRobotsPolicy(ORIGIN, { phase: 'ready', status: 404, body: null }, TOKEN);
    assert.equal(policy.isAllowed(`${ORIGIN}/private/a`).allowed, true);
    assert.equal(policy.crawlDelayMs, null);
  });

  it('disallows everything but /robots.txt once the robots.txt failed, naming the status', () => {
    const policy = hostRobotsPolicy(ORIGIN, { phase: 'failed', status: 503, body: null }, TOKEN);
    assert.deepEqual(policy.isAllowed(`${ORIGIN}/a`), { allowed: false, rule: 'robots.txt unavailable (HTTP 503)' });
    assert.equal(policy.isAllowed(`${ORIGIN}/robots.txt`).allowed, true);
  });

  it('names a network error when the failed robots.txt never answered', () => {
    const policy = hostRobotsPolicy(ORIGIN, { phase: 'failed', status: null, body: null }, TOKEN);
    assert.equal(policy.isAllowed(`${ORIGIN}/a`).rule, 'robots.txt unavailable (network error)');
  });
});
