import { BlockList, isIP } from 'node:net';
import type { NetworkPolicy } from '../domain/events/ports';
import { messages } from '../messages';

/**
 * Where a delivery may go (decisions 6.2). On AWS a subscriber's URL must not reach the service's
 * own network: no private, loopback, link-local (169.254.169.254 is the instance metadata
 * service), shared (CGNAT), unspecified, multicast or reserved address, in IPv4 or IPv6.
 * BlockList also matches the IPv4-mapped IPv6 form (`::ffff:10.0.0.1`) against the IPv4 rules.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** An IP address (no brackets) the `aws` policy refuses to connect to; true for anything not an IP. */
export function isRefusedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return true;
  return refused.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

export type Target = {
  protocol: 'https:' | 'http:';
  /** As in the URL, brackets removed from an IPv6 literal: what SNI and Host name. */
  hostname: string;
  port: number;
  /** `pathname + search`, the request target. */
  path: string;
  /** The host is itself an IP address: nothing to resolve. */
  ipLiteral: boolean;
};

/** Hosts plain http may name, and only in the local run (decisions 6.2: "127.0.0.1 or localhost"). */
const localHttpHosts = new Set(['127.0.0.1', 'localhost']);

/** The one rule on plain http, for subscription URLs (admin) and for every delivery attempt. */
export const plainHttpAllowed = (hostname: string, policy: NetworkPolicy): boolean =>
  policy === 'local' && localHttpHosts.has(hostname.toLowerCase());

/**
 * The URL rules: https only on AWS; locally (npm start, tests) https, or plain http to this
 * machine alone. The addresses a host name resolves to are checked later, at connection time.
 */
export function checkUrl(url: string, policy: NetworkPolicy): Target | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: messages.delivery.invalidUrl };
  }
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const httpAllowed = plainHttpAllowed(hostname, policy);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && httpAllowed)) {
    return { error: messages.delivery.httpsRequired(parsed.protocol) };
  }
  if (hostname === '') return { error: messages.delivery.invalidUrl };
  const ipLiteral = isIP(hostname) !== 0;
  if (policy === 'aws' && ipLiteral && isRefusedAddress(hostname)) {
    return { error: messages.delivery.privateAddress(hostname) };
  }
  return {
    protocol: parsed.protocol,
    hostname,
    port: parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port),
    path: `${parsed.pathname}${parsed.search}`,
    ipLiteral,
  };
}
