import { BlockList, isIPv4, isIPv6 } from 'node:net';

import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/** The `avatar` column's width: the normalised URL must fit it. */
export const MAX_AVATAR_URL_LENGTH = 2048;

/**
 * IPv4 ranges that are not public: this network, private, shared (CGNAT), loopback, link-local,
 * protocol assignments, documentation, benchmarking, multicast and reserved.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
// IPv6 inside global unicast (2000::/3) that is still not a public host: IETF protocol
// assignments (Teredo, benchmarking...), documentation, and 6to4, which embeds any IPv4.
for (const [network, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}
/** Only global unicast IPv6 is public: not loopback, link-local, unique-local, mapped IPv4... */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** Top-level names that never resolve on the public internet (RFC 2606, 6761, 6762, 8375, 9476). */
const SPECIAL_USE_TLDS = new Set([
  'alt',
  'arpa',
  'example',
  'internal',
  'invalid',
  'local',
  'localhost',
  'test',
]);
/** A DNS label of letters, digits and inner hyphens (IDNs arrive as punycode). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const CONTROL = /\p{Cc}/u;

function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !NOT_PUBLIC.check(address, 'ipv4');
  return GLOBAL_UNICAST.check(address, 'ipv6') && !NOT_PUBLIC.check(address, 'ipv6');
}

/** A name of two labels or more, each a DNS label, under a top-level name that is public. */
function isPublicName(hostname: string): boolean {
  const labels = hostname.replace(/\.$/, '').split('.');
  return (
    hostname.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !/^\d+$/.test(labels[labels.length - 1]) &&
    !SPECIAL_USE_TLDS.has(labels[labels.length - 1])
  );
}

function isPublicHost(hostname: string): boolean {
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIPv4(address) || isIPv6(address)) return isPublicAddress(address);
  return isPublicName(hostname);
}

/** What the schema says of an avatar input. */
export const AVATAR_DESCRIPTION =
  'An http(s) URL of a public host, without user name or password; stored normalised.';

/** An avatar URL as it is stored, or why it is refused (to follow the field's name). */
export type AvatarUrl = { href: string } | { problem: string };

/**
 * Reads `text` as the WHATWG URL parser does (as browsers will), and accepts it only as an
 * http(s) URL of a public host without a user name or password; the answer is its normalised
 * form (`url.href`: host in lower case and punycode, default port dropped, quotes and spaces
 * percent-encoded, `'` included), which is what is stored. Control characters are refused
 * rather than dropped as the parser would.
 */
export function parseAvatarUrl(text: string): AvatarUrl {
  if (CONTROL.test(text)) return { problem: 'may not contain control characters' };
  if (text.length > MAX_AVATAR_URL_LENGTH) {
    return { problem: `must be at most ${MAX_AVATAR_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'must be an http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: 'must be an http(s) URL' };
  }
  if (url.username || url.password) return { problem: 'may not contain a user name or password' };
  if (!isPublicHost(url.hostname)) {
    return {
      problem:
        'must name a public host: not localhost, a private, loopback or link-local address, or a name of one label',
    };
  }
  // The parser leaves ' in paths and fragments: encoded too, so that no quote of either kind
  // can end an attribute or a CSS url('...') the URL is written into.
  const href = url.href.replaceAll("'", '%27');
  if (href.length > MAX_AVATAR_URL_LENGTH) {
    return { problem: `must be at most ${MAX_AVATAR_URL_LENGTH} characters once normalised` };
  }
  return { href };
}

function problemOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be an http(s) URL';
  const parsed = parseAvatarUrl(value);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/**
 * An avatar input: trimmed, checked by {@link parseAvatarUrl} and replaced by its normalised
 * form; BAD_USER_INPUT on the field, saying what is wrong, otherwise. Null and undefined pass
 * (pair it with `IsOptional`).
 */
export const IsAvatarUrl = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const parsed = parseAvatarUrl(value.trim());
      return 'href' in parsed ? parsed.href : value;
    }),
    ValidateBy({
      name: 'isAvatarUrl',
      validator: {
        validate: (value: unknown) => problemOf(value) === undefined,
        defaultMessage: (args) => `${args?.property} ${problemOf(args?.value)}`,
      },
    }),
  );
