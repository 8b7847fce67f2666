import { isIP } from 'node:net';

/** What kind of address a webhook's host resolved to, for the SSRF rule. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'reserved'
  | 'multicast'
  | 'unspecified'
  | 'metadata'
  | 'invalid';

/** Kinds refused even with `allowPrivateAddresses`: no receiver ever lives there. */
const ALWAYS_REFUSED: ReadonlySet<AddressKind> = new Set([
  'multicast',
  'unspecified',
  'metadata',
  'invalid',
]);

/** Host names of cloud metadata services, refused whatever they resolve to. */
const METADATA_HOSTS: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
]);

const WORDS: Readonly<Record<Exclude<AddressKind, 'public'>, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  shared: 'a shared (carrier-grade NAT) address',
  reserved: 'a reserved address',
  multicast: 'a multicast or broadcast address',
  unspecified: 'the unspecified address',
  metadata: 'a cloud metadata address',
  invalid: 'not an IP address',
};

/** An IPv4 range: its first address as a 32-bit number, and its prefix length. */
type V4Range = [start: number, bits: number, kind: AddressKind];
/** An IPv6 range: its first address as a 128-bit bigint, and its prefix length. */
type V6Range = [start: bigint, bits: number, kind: AddressKind];

/** Most specific first: the first range that holds an address names its kind. */
const V4_RANGES: V4Range[] = (
  [
    ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack...
    ['169.254.170.2', 32, 'metadata'], // AWS ECS task metadata
    ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
    ['255.255.255.255', 32, 'multicast'], // broadcast
    ['0.0.0.0', 8, 'unspecified'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'shared'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'],
    ['192.0.2.0', 24, 'reserved'],
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'reserved'],
    ['198.51.100.0', 24, 'reserved'],
    ['203.0.113.0', 24, 'reserved'],
    ['224.0.0.0', 4, 'multicast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([address, bits, kind]) => [v4Number(address)!, bits, kind]);

const V6_RANGES: V6Range[] = (
  [
    ['fd00:ec2::254', 128, 'metadata'], // AWS over IPv6
    ['::', 128, 'unspecified'],
    ['::1', 128, 'loopback'],
    ['64:ff9b:1::', 48, 'private'], // local-use NAT64
    ['100::', 64, 'reserved'], // discard-only
    ['2001::', 32, 'reserved'], // Teredo, which tunnels to any IPv4 address
    ['2001:db8::', 32, 'reserved'], // documentation
    ['fc00::', 7, 'private'], // unique local
    ['fe80::', 10, 'link-local'],
    ['fec0::', 10, 'private'], // the old site-local
    ['ff00::', 8, 'multicast'],
  ] as const
).map(([address, bits, kind]) => [v6Number(address)!, bits, kind]);

/** IPv6 ranges that carry an IPv4 address, judged as that address: mapped, NAT64, IPv4-compatible. */
const V6_EMBEDDING: [start: bigint, bits: number][] = [
  [v6Number('::ffff:0:0')!, 96],
  [v6Number('64:ff9b::')!, 96],
  [v6Number('::')!, 96],
];
/** 6to4 (`2002::/16`): the IPv4 address is bits 16 to 48. */
const SIX_TO_FOUR = v6Number('2002::')!;

/**
 * The kind of `address` (an IPv4 or IPv6 address, as `dns.lookup` gives it): an IPv6 address
 * that carries an IPv4 one (mapped, NAT64, 6to4, IPv4-compatible) is judged as that one.
 */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return v4Kind(v4Number(bare)!);
  if (family !== 6) return 'invalid';
  const value = v6Number(bare);
  if (value === null) return 'invalid';
  for (const [start, bits] of V6_EMBEDDING) {
    if (value !== 0n && value !== 1n && inRange(value, start, bits, 128)) {
      return v4Kind(Number(value & 0xffffffffn));
    }
  }
  if (inRange(value, SIX_TO_FOUR, 16, 128)) {
    const kind = v4Kind(Number((value >> 80n) & 0xffffffffn));
    if (kind !== 'public') return kind;
  }
  for (const [start, bits, kind] of V6_RANGES) if (inRange(value, start, bits, 128)) return kind;
  return 'public';
}

/**
 * Why a delivery may not go to `address` (`a loopback address; ...`), or null when it may:
 * loopback, private, link-local, shared (CGNAT) and reserved addresses are refused unless
 * `allowPrivate`; multicast, broadcast, unspecified and cloud metadata addresses always are.
 */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const kind = addressKind(address);
  if (kind === 'public') return null;
  if (ALWAYS_REFUSED.has(kind)) return WORDS[kind];
  return allowPrivate ? null : `${WORDS[kind]}; WEBHOOK_ALLOW_PRIVATE=true allows it`;
}

/** Why a delivery may not go to a host of this name, before it is resolved; null when it may. */
export function refusedHostName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return METADATA_HOSTS.has(name) ? `${hostname} is a cloud metadata service` : null;
}

function v4Kind(value: number): AddressKind {
  for (const [start, bits, kind] of V4_RANGES) {
    if (inRange(BigInt(value), BigInt(start), bits, 32)) return kind;
  }
  return 'public';
}

function inRange(value: bigint, start: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === start >> shift;
}

function v4Number(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

/** An IPv6 address as a 128-bit number; a dotted IPv4 tail is read as its last 32 bits. */
function v6Number(address: string): bigint | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Number(dotted[1]);
    if (v4 === null) return null;
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [
    ...head,
    ...new Array<string>(halves.length === 2 ? missing : 0).fill('0'),
    ...tail,
  ];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}
