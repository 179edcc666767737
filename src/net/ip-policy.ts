// Classifies IP addresses that Herald must never connect to on a user's behalf (SSRF defence).
import { BlockList, isIPv4, isIPv6 } from 'node:net';

type Range = readonly [label: string, network: string, prefix: number];

// Order matters: the first matching label is reported, so specific ranges precede their supernets.
const V4_RANGES: readonly Range[] = [
  ['cloud-metadata', '169.254.169.254', 32],
  ['this-network', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['shared-address-space', '100.64.0.0', 10],
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16],
  ['private', '172.16.0.0', 12],
  ['ietf-protocol-assignments', '192.0.0.0', 24],
  ['documentation', '192.0.2.0', 24],
  ['6to4-relay-anycast', '192.88.99.0', 24],
  ['private', '192.168.0.0', 16],
  ['benchmarking', '198.18.0.0', 15],
  ['documentation', '198.51.100.0', 24],
  ['documentation', '203.0.113.0', 24],
  ['multicast', '224.0.0.0', 4],
  ['broadcast', '255.255.255.255', 32],
  ['reserved', '240.0.0.0', 4],
];

const V6_RANGES: readonly Range[] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['ipv4-compatible', '::', 96],
  ['nat64-local-use', '64:ff9b:1::', 48],
  ['discard-only', '100::', 64],
  ['documentation', '2001:db8::', 32],
  // Teredo, ORCHID, benchmarking and other IETF assignments: not ordinary hosts, and Teredo embeds IPv4.
  ['ietf-protocol-assignments', '2001::', 23],
  // 6to4 embeds an IPv4 address that would reach whatever the relay routes to.
  ['6to4', '2002::', 16],
  ['documentation', '3fff::', 20],
  ['segment-routing', '5f00::', 16],
  ['cloud-metadata', 'fd00:ec2::254', 128],
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['site-local', 'fec0::', 10],
  ['multicast', 'ff00::', 8],
];

function compile(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): [string, BlockList][] {
  return ranges.map(([label, network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [label, list];
  });
}

const V4 = compile(V4_RANGES, 'ipv4');
const V6 = compile(V6_RANGES, 'ipv6');

/** Parses an IPv6 literal (no zone id) into 16 bytes, or null when it is not one. */
export function parseIPv6(address: string): Uint8Array | null {
  if (!isIPv6(address) || address.includes('%')) return null;
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (s: string | undefined): number[] =>
    s
      ? s
          .split(':')
          .filter((p) => p !== '')
          .map((p) => parseInt(p, 16))
      : [];
  const left = parse(head);
  const right = parse(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(Math.max(fill, 0)).fill(0), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

function embeddedIPv4(bytes: Uint8Array, offset: number): string {
  return Array.from(bytes.subarray(offset, offset + 4)).join('.');
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const TRANSLATED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0];
const NAT64_PREFIX = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * Returns why an address must not be contacted (a short label such as "loopback"), or null when it
 * is an ordinary public unicast address. Anything that is not a plain IP literal is refused.
 */
export function blockedRangeOf(address: string): string | null {
  if (isIPv4(address)) {
    for (const [label, list] of V4) if (list.check(address, 'ipv4')) return label;
    return null;
  }
  const bytes = parseIPv6(address);
  if (!bytes) return 'not-an-ip-address';
  // Forms that carry an IPv4 address are judged by that address, since that is where packets go.
  for (const [prefix, form] of [
    [MAPPED_PREFIX, 'ipv4-mapped'],
    [TRANSLATED_PREFIX, 'ipv4-translated'],
    [NAT64_PREFIX, 'nat64'],
  ] as const) {
    if (startsWith(bytes, prefix)) {
      const inner = blockedRangeOf(embeddedIPv4(bytes, 12));
      return inner ? `${form} ${inner}` : null;
    }
  }
  for (const [label, list] of V6) if (list.check(address, 'ipv6')) return label;
  return null;
}

export function isPublicAddress(address: string): boolean {
  return blockedRangeOf(address) === null;
}
