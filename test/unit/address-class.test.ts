/**
 * The class of a host (`core/url/address-class.ts`): which hosts are on the user's own machine or
 * network, as a crawl of a public site must not ask them (issue 27, item 8).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addressClassOf,
  addressClassOfUrl,
  isPrivateHost,
  type AddressClass,
} from '../../src/core/url/address-class.ts';

describe('addressClassOf: IP literals and names', () => {
  const cases: [string, AddressClass][] = [
    // IPv4 loopback and "this network"
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    // RFC 1918, CGNAT, benchmarking
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.0.1', 'public'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.0', 'public'],
    ['198.18.0.1', 'private'],
    // link-local and metadata
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    // public
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['126.255.255.255', 'public'],
    ['128.0.0.1', 'public'],
    // IPv6
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['[::]', 'unspecified'],
    ['[fc00::1]', 'private'],
    ['[fd12:3456::1]', 'private'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['[fec0::1]', 'private'],
    ['[fd00:ec2::254]', 'metadata'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['[::ffff:192.168.0.1]', 'private'],
    ['[::ffff:169.254.169.254]', 'metadata'],
    ['[::ffff:8.8.8.8]', 'public'],
    ['[::127.0.0.1]', 'loopback'],
    ['[64:ff9b::10.0.0.1]', 'private'],
    ['[2002:c0a8:101::1]', 'private'],
    ['[2001:4860:4860::8888]', 'public'],
    ['[2606:4700::1111]', 'public'],
    // names
    ['localhost', 'loopback'],
    ['LOCALHOST', 'loopback'],
    ['localhost.', 'loopback'],
    ['app.localhost', 'loopback'],
    ['metadata', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['router', 'private'],
    ['printer.local', 'private'],
    ['nas.lan', 'private'],
    ['wiki.internal', 'private'],
    ['tv.home.arpa', 'private'],
    ['box.localdomain', 'private'],
    ['example.com', 'public'],
    ['www.example.com.', 'public'],
    ['localhost.example.com', 'public'],
    ['local.example.com', 'public'],
    ['a.test', 'public'],
    ['xn--caf-dma.example', 'public'],
  ];
  for (const [host, expected] of cases) {
    test(`reads ${host} as ${expected}`, () => {
      assert.equal(addressClassOf(host), expected);
    });
  }

  test('reads a text that is not a host as public (it names no address)', () => {
    assert.equal(addressClassOf('exa mple'), 'public');
    assert.equal(addressClassOf('[::1'), 'public');
  });
});

describe('addressClassOfUrl: the odd IPv4 spellings the URL parser canonicalises', () => {
  const cases: [string, AddressClass][] = [
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://3232235777/', 'private'],
    ['http://0xa9fea9fe/', 'metadata'],
    ['http://0/', 'unspecified'],
    ['http://[0:0:0:0:0:ffff:7f00:1]:8080/', 'loopback'],
    ['https://LocalHost:8443/x', 'loopback'],
    ['http://192.168.1.1.nip.io/', 'public'],
    ['https://example.com/', 'public'],
    ['not a url', 'public'],
  ];
  for (const [url, expected] of cases) {
    test(`reads ${url} as ${expected}`, () => {
      assert.equal(addressClassOfUrl(url), expected);
    });
  }

  test('calls every class but public private', () => {
    assert.equal(isPrivateHost('10.0.0.1'), true);
    assert.equal(isPrivateHost('[::1]'), true);
    assert.equal(isPrivateHost('example.com'), false);
  });
});
