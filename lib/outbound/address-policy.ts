import { BlockList, isIP } from 'node:net';
import { messages } from '../messages';

/** Where the service runs: on AWS, https only and no private, loopback or link-local address. */
export type NetworkPolicy = 'aws' | 'local';

/*
 * Where a delivery may go (docs/api.md#outbound-events). On AWS a subscriber's URL must not reach the service's
 * own network, nor any address that is not a public host. Node's `BlockList` does the matching: it
 * parses every textual form of an address and matches an IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) against the IPv4 subnets.
 */
const subnets = (type: 'ipv4' | 'ipv6', list: ReadonlyArray<readonly [string, number]>): BlockList => {
  const blocks = new BlockList();
  for (const [network, prefix] of list) blocks.addSubnet(network, prefix, type);
  return blocks;
};

/**
 * IPv4: every block IANA's IPv4 Special-Purpose Address Registry marks not globally reachable, and
 * multicast. A block is refused whole, even where the registry marks a few addresses inside it
 * globally reachable: those serve protocols, never a webhook.
 */
const refusedIpv4 = subnets('ipv4', [
  ['0.0.0.0', 8], // "this network"; a connection to 0.0.0.0 reaches the machine itself
  ['10.0.0.0', 8], // private use
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link local: 169.254.169.254 is the instance metadata service
  ['172.16.0.0', 12], // private use
  ['192.0.0.0', 24], // IETF protocol assignments (the PCP and TURN anycast addresses included)
  ['192.0.2.0', 24], // documentation (TEST-NET-1): never a real host, so only ever someone's internal use
  ['192.88.99.0', 24], // former 6to4 relay anycast (RFC 7526): an entry into 6to4, refused below as 2002::/16
  ['192.168.0.0', 16], // private use
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 (limited broadcast) included
]);

/** `::ffff:a.b.c.d`: a socket connects to the IPv4 address it maps, so the IPv4 rules decide. */
const ipv4Mapped = subnets('ipv6', [['::ffff:0:0', 96]]);

/**
 * IPv6: only 2000::/3 is allocated for global unicast (IANA IPv6 Address Space registry). Outside
 * it lies nothing a public host has: unspecified and loopback, IPv4-compatible (`::/96`) and
 * IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), discard-only
 * (`100::/64`), SRv6 (`5f00::/16`), unique local (`fc00::/7`), link local (`fe80::/10`), site local
 * (`fec0::/10`), multicast (`ff00::/8`), and space no registry has handed out yet. Allowing 2000::/3
 * alone refuses them all, and whatever IANA reserves outside it later.
 *
 * NAT64 is refused whole rather than by its embedded IPv4 address: a translator sends
 * `64:ff9b::a.b.c.d` to a.b.c.d whatever it is, and the functions run outside any VPC
 * (infra/cdk/validators.ts), so no DNS64 resolver of ours answers with such addresses (a subnet's
 * `EnableDns64`, "AWS::EC2::Subnet", https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-ec2-subnet.html):
 * a subscriber's name only resolves into it if someone chose so.
 */
const globalUnicast = subnets('ipv6', [['2000::', 3]]);

/** Inside 2000::/3, the blocks of IANA's IPv6 Special-Purpose Address Registry that hold no public host. */
const refusedGlobalUnicast = subnets('ipv6', [
  // IETF protocol assignments, refused whole as 192.0.0.0/24 is: Teredo (2001::/32, a tunnel to an
  // IPv4 address it embeds), benchmarking, ORCHID, and protocol services (anycast, AMT, AS112).
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: a tunnel to the IPv4 address in its bits 16 to 47, private or not
  ['3fff::', 20], // documentation (RFC 9637)
]);

/** An IP address (no brackets) the `aws` policy refuses to connect to; true for anything not an IP. */
export function isRefusedAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return refusedIpv4.check(address, 'ipv4');
    case 6:
      if (ipv4Mapped.check(address, 'ipv6')) return refusedIpv4.check(address, 'ipv6');
      return !globalUnicast.check(address, 'ipv6') || refusedGlobalUnicast.check(address, 'ipv6');
    default:
      return true;
  }
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

/** Hosts plain http may name, and only in the local run (docs/api.md#outbound-events). */
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
