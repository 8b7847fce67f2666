import type { IncomingMessage } from 'node:http';

import proxyAddr from 'proxy-addr';

import type { TrustProxy } from '../config';

/**
 * Whether the address at `hop` of a request's chain (0: the socket's peer, then the entries of
 * `X-Forwarded-For` from the right) is a proxy whose `X-Forwarded-For` is believed.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * The one rule of `TRUST_PROXY`, for everything that reads a client address: Fastify's
 * `request.ip` (rate limits, logs, admission), the WebSocket upgrades and the connection caps.
 * A number trusts that many hops, whoever the peer; addresses and ranges trust only those peers,
 * so that a client that reaches the port directly cannot name its own address.
 */
export function proxyTrust(trustProxy: TrustProxy): ProxyTrust {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return proxyAddr.compile([...trustProxy]);
}

/** True when `trustProxy` believes some peers: Fastify then reads `X-Forwarded-For`. */
export function trustsProxies(trustProxy: TrustProxy): boolean {
  return typeof trustProxy === 'number' ? trustProxy > 0 : trustProxy.length > 0;
}

/** The client address of `request` under `trust`: what Fastify gives as `request.ip`. */
export function clientAddressOf(request: IncomingMessage, trust: ProxyTrust): string {
  return proxyAddr(request, trust);
}

/** {@link clientAddressOf} under `trustProxy`, for a caller that reads many requests. */
export function clientAddressReader(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trust = proxyTrust(trustProxy);
  return (request) => clientAddressOf(request, trust);
}

/** Whether an address is in `ranges` (proxy-addr's syntax); never, for none. */
export function addressMatcher(ranges: readonly string[]): (address: string) => boolean {
  if (ranges.length === 0) return () => false;
  const matches = proxyAddr.compile([...ranges]);
  return (address) => matches(address, 0);
}
