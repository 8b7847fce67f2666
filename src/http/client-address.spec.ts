import type { IncomingMessage } from 'node:http';

import { addressMatcher, clientAddressOf, proxyTrust, trustsProxies } from './client-address';

/** A request from `peer` that carries `forwardedFor`. */
function request(peer: string, forwardedFor?: string): IncomingMessage {
  const socket = { remoteAddress: peer };
  return {
    socket,
    connection: socket,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

describe('client addresses', () => {
  it('should trust a number of hops whoever the peer is, as before', () => {
    const trust = proxyTrust(1);
    expect(clientAddressOf(request('10.0.0.1', '203.0.113.7'), trust)).toBe('203.0.113.7');
    expect(clientAddressOf(request('198.51.100.1', '6.6.6.6, 203.0.113.7'), trust)).toBe(
      '203.0.113.7',
    );
    expect(clientAddressOf(request('10.0.0.1', '203.0.113.7'), proxyTrust(0))).toBe('10.0.0.1');
  });

  it('should believe X-Forwarded-For only from the proxies it names', () => {
    const trust = proxyTrust(['10.0.0.0/8', '127.0.0.1']);
    expect(clientAddressOf(request('10.1.2.3', '203.0.113.7'), trust)).toBe('203.0.113.7');
    expect(clientAddressOf(request('198.51.100.1', '203.0.113.7'), trust)).toBe('198.51.100.1');
    // Through two trusted proxies, up to the first address that is not one.
    expect(clientAddressOf(request('127.0.0.1', '6.6.6.6, 203.0.113.7, 10.0.0.2'), trust)).toBe(
      '203.0.113.7',
    );
    expect(trust('::ffff:10.0.0.1', 0)).toBe(true);
  });

  it("should know proxy-addr's named ranges", () => {
    const trust = proxyTrust(['loopback', 'uniquelocal']);
    expect(trust('127.0.0.5', 0)).toBe(true);
    expect(trust('::1', 0)).toBe(true);
    expect(trust('192.168.1.1', 0)).toBe(true);
    expect(trust('8.8.8.8', 0)).toBe(false);
  });

  it('should say whether any proxy is trusted', () => {
    expect([trustsProxies(0), trustsProxies(2), trustsProxies(['loopback'])]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('should match addresses against ranges, and none against no range', () => {
    const exempt = addressMatcher(['10.0.0.0/8', '192.0.2.7']);
    expect(['10.9.9.9', '192.0.2.7', '192.0.2.8'].map(exempt)).toEqual([true, true, false]);
    expect(addressMatcher([])('10.9.9.9')).toBe(false);
  });
});
