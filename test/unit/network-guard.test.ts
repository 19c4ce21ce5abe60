/**
 * The rule that keeps a crawl of a public site off the user's network (`core/crawl/network-guard.ts`):
 * when it applies, which hosts it bars, and which it exempts (issue 27, item 8).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkGuardFor } from '../../src/core/crawl/network-guard.ts';
import { newHostState } from '../../src/core/crawl/crawl-writes.ts';

const guard = (startUrl: string, more: { extraOrigins?: string[]; allowPrivateAddresses?: boolean } = {}) =>
  networkGuardFor({
    startUrl,
    extraOrigins: more.extraOrigins ?? [],
    allowPrivateAddresses: more.allowPrivateAddresses ?? false,
  });

describe('networkGuardFor', () => {
  it('applies to a crawl that starts on a public host, unless private addresses are allowed', () => {
    assert.equal(guard('https://example.com/').isOn, true);
    assert.equal(guard('https://example.com/', { allowPrivateAddresses: true }).isOn, false);
  });

  it("does not apply to a crawl that starts on the user's own network", () => {
    for (const start of [
      'http://127.0.0.1:8080/',
      'http://localhost:3000/',
      'http://192.168.1.10/',
      'http://[::1]/',
      'http://wiki.internal/',
      'http://intranet/',
    ]) {
      const rule = guard(start);
      assert.equal(rule.isOn, false, start);
      assert.equal(rule.isBarred('http://10.0.0.1/'), false, start);
    }
  });

  it("bars the private hosts a public crawl finds, whatever the URL's path, port or spelling", () => {
    const rule = guard('https://example.com/');
    for (const url of [
      'http://127.0.0.1/x',
      'http://2130706433/',
      'https://[::ffff:10.0.0.1]:8443/',
      'http://169.254.169.254/latest/',
      'http://printer.local/',
    ]) {
      assert.equal(rule.isBarred(url), true, url);
    }
    for (const url of ['https://cdn.example.net/a.css', 'http://8.8.8.8/', 'not a url'])
      assert.equal(rule.isBarred(url), false, url);
  });

  it('exempts the hosts the user named, on any scheme or port, and those the scope takes in', () => {
    const rule = networkGuardFor(
      { startUrl: 'https://example.com/', extraOrigins: ['http://10.0.0.7'], allowPrivateAddresses: false },
      (origin) => origin === 'http://192.168.5.5',
    );
    assert.equal(rule.isBarred('http://10.0.0.7/wiki'), false);
    assert.equal(rule.isBarred('https://10.0.0.7:8443/wiki'), false);
    assert.equal(rule.isBarred('http://192.168.5.5/'), false);
    assert.equal(rule.isBarred('http://10.0.0.8/'), true);
    assert.equal(
      rule.barsAt('http://example.com', '127.0.0.1'),
      false,
      'the start host, over http, answering from loopback',
    );
  });

  it('bars a host whose public name answered from a private address, and remembers it', () => {
    const rule = guard('https://example.com/');
    assert.equal(rule.barsAt('https://sneaky.example', '10.1.2.3'), true);
    assert.equal(rule.barsAt('https://sneaky.example', '::1'), true);
    assert.equal(rule.barsAt('https://sneaky.example', '93.184.216.34'), false);
    assert.equal(rule.barsAt('https://sneaky.example', null), false);
    assert.equal(rule.barsAt('https://sneaky.example', ''), false);
    const host = newHostState('c1', 'https://sneaky.example');
    assert.equal(rule.isBarredHost(host), false);
    host.privateAddress = '10.1.2.3';
    assert.equal(rule.isBarredHost(host), true);
    assert.equal(rule.isBarred('https://sneaky.example/later'), true, 'a URL found later is refused at once');
  });
});
