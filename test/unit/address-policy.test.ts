import { isIP } from 'node:net';
import fc from 'fast-check';
import { checkUrl, isRefusedAddress } from '../../lib/outbound/address-policy';
import { messages } from '../../lib/messages';

/**
 * Where a delivery may go (docs/api.md#outbound-events): on AWS, never to the service's own network nor to any
 * address that is no public host. The ranges below are written from IANA's registries (IPv4 and
 * IPv6 Special-Purpose Address Registries, IPv6 Address Space), not from the guard's own lists.
 *
 * The guard meets addresses at two boundaries. The URL parser (WHATWG) turns every IPv4 host it
 * accepts (`0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`) into dotted decimal and writes IPv6
 * compressed in lower case: the URL properties feed it those forms and go through `checkUrl`. The
 * resolver answers what getaddrinfo writes (dotted decimal; IPv6 as inet_ntop writes it, with a
 * dotted tail for `::ffff:a.b.c.d`): a subset of the textual forms `isIP` accepts, which the
 * address properties feed to `isRefusedAddress` one by one.
 */

type Range = { network: string; prefix: number; name: string };

const refusedIpv4: Range[] = [
  { network: '0.0.0.0', prefix: 8, name: 'this network' },
  { network: '10.0.0.0', prefix: 8, name: 'private use' },
  { network: '100.64.0.0', prefix: 10, name: 'shared address space (CGNAT)' },
  { network: '127.0.0.0', prefix: 8, name: 'loopback' },
  { network: '169.254.0.0', prefix: 16, name: 'link local, instance metadata' },
  { network: '172.16.0.0', prefix: 12, name: 'private use' },
  { network: '192.0.0.0', prefix: 24, name: 'IETF protocol assignments' },
  { network: '192.0.2.0', prefix: 24, name: 'documentation (TEST-NET-1)' },
  { network: '192.88.99.0', prefix: 24, name: 'former 6to4 relay anycast' },
  { network: '192.168.0.0', prefix: 16, name: 'private use' },
  { network: '198.18.0.0', prefix: 15, name: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, name: 'documentation (TEST-NET-2)' },
  { network: '203.0.113.0', prefix: 24, name: 'documentation (TEST-NET-3)' },
  { network: '224.0.0.0', prefix: 4, name: 'multicast' },
  { network: '240.0.0.0', prefix: 4, name: 'reserved' },
  { network: '255.255.255.255', prefix: 32, name: 'limited broadcast' },
];

/** `::ffff:a.b.c.d` is judged by the IPv4 address it maps (the IPv4 properties cover it). */
const ipv4Mapped: Range = { network: '::ffff:0:0', prefix: 96, name: 'IPv4-mapped' };

const refusedIpv6: Range[] = [
  // Special-purpose blocks, each named.
  { network: '::', prefix: 128, name: 'unspecified' },
  { network: '::1', prefix: 128, name: 'loopback' },
  { network: '::', prefix: 96, name: 'IPv4-compatible (deprecated)' },
  { network: '::ffff:0:0:0', prefix: 96, name: 'IPv4-translated (SIIT)' },
  { network: '64:ff9b::', prefix: 96, name: 'NAT64 well-known prefix' },
  { network: '64:ff9b:1::', prefix: 48, name: 'NAT64 local use' },
  { network: '100::', prefix: 64, name: 'discard only' },
  { network: '2001::', prefix: 23, name: 'IETF protocol assignments' },
  { network: '2001::', prefix: 32, name: 'Teredo' },
  { network: '2001:db8::', prefix: 32, name: 'documentation' },
  { network: '2002::', prefix: 16, name: '6to4' },
  { network: '3fff::', prefix: 20, name: 'documentation (RFC 9637)' },
  { network: '5f00::', prefix: 16, name: 'SRv6 SIDs' },
  { network: 'fc00::', prefix: 7, name: 'unique local' },
  { network: 'fe80::', prefix: 10, name: 'link local' },
  { network: 'fec0::', prefix: 10, name: 'site local (deprecated)' },
  { network: 'ff00::', prefix: 8, name: 'multicast' },
  // The rest of the IPv6 Address Space outside global unicast 2000::/3 (IPv4-mapped excepted).
  { network: '::', prefix: 8, name: 'reserved by IETF' },
  { network: '100::', prefix: 8, name: 'reserved by IETF' },
  { network: '200::', prefix: 7, name: 'reserved by IETF' },
  { network: '400::', prefix: 6, name: 'reserved by IETF' },
  { network: '800::', prefix: 5, name: 'reserved by IETF' },
  { network: '1000::', prefix: 4, name: 'reserved by IETF' },
  { network: '4000::', prefix: 3, name: 'reserved by IETF' },
  { network: '6000::', prefix: 3, name: 'reserved by IETF' },
  { network: '8000::', prefix: 3, name: 'reserved by IETF' },
  { network: 'a000::', prefix: 3, name: 'reserved by IETF' },
  { network: 'c000::', prefix: 3, name: 'reserved by IETF' },
  { network: 'e000::', prefix: 4, name: 'reserved by IETF' },
  { network: 'f000::', prefix: 5, name: 'reserved by IETF' },
  { network: 'f800::', prefix: 6, name: 'reserved by IETF' },
  { network: 'fe00::', prefix: 9, name: 'reserved by IETF' },
];

const ipv4Value = (text: string): bigint => text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n);

function ipv6Value(text: string): bigint {
  const [head = '', tail] = text.split('::');
  const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

type Bounds = { first: bigint; last: bigint };

const boundsOf = (range: Range): Bounds => {
  const bits = range.network.includes(':') ? 128n : 32n;
  const first = bits === 128n ? ipv6Value(range.network) : ipv4Value(range.network);
  return { first, last: first + (1n << (bits - BigInt(range.prefix))) - 1n };
};

const contains = (range: Range, value: bigint): boolean => {
  const { first, last } = boundsOf(range);
  return first <= value && value <= last;
};

const refusedByRegistryIpv4 = (value: bigint): boolean => refusedIpv4.some((range) => contains(range, value));

const refusedByRegistryIpv6 = (value: bigint): boolean =>
  contains(ipv4Mapped, value)
    ? refusedByRegistryIpv4(value & 0xffffffffn)
    : refusedIpv6.some((range) => contains(range, value));

const dotted = (value: bigint): string => [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 255n).join('.');

/** The parts as written, and each run of zero parts written `::` instead (any run, as RFC 4291 allows). */
function compressions(parts: string[]): string[] {
  const forms = [parts.join(':')];
  for (let start = 0; start < parts.length; start += 1) {
    for (let end = start + 1; end <= parts.length && /^0+$/.test(parts[end - 1] ?? ''); end += 1) {
      forms.push(`${parts.slice(0, start).join(':')}::${parts.slice(end).join(':')}`);
    }
  }
  return forms;
}

/** Every way Node writes or reads this IPv6 address: full, compressed, upper case, with a dotted tail. */
function ipv6Forms(value: bigint): string[] {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((value >> shift) & 0xffffn).toString(16));
  const withTail = compressions(groups.slice(0, 6)).map((head) =>
    head.endsWith('::') ? `${head}${dotted(value)}` : `${head}:${dotted(value)}`,
  );
  const forms = [...compressions(groups.map((group) => group.padStart(4, '0'))), ...compressions(groups), ...withTail];
  return [...new Set(forms.flatMap((form) => [form, form.toUpperCase()]))];
}

/**
 * The IPv4 hosts the URL parser accepts for this address: 1 to 4 parts (the last one fills the
 * remaining bytes), each in decimal, hexadecimal (`0x`, `0X`) or octal (leading `0`), with or
 * without a trailing dot.
 */
function ipv4UrlHosts(value: bigint): string[] {
  const writings = [
    (part: bigint) => part.toString(10),
    (part: bigint) => `0x${part.toString(16)}`,
    (part: bigint) => `0X${part.toString(16).toUpperCase()}`,
    (part: bigint) => `0${part.toString(8)}`,
  ];
  const splits = [[32n], [8n, 24n], [8n, 8n, 16n], [8n, 8n, 8n, 8n]];
  const hosts: string[] = [];
  for (const widths of splits) {
    let remaining = 32n;
    const parts = widths.map((width) => {
      remaining -= width;
      return (value >> remaining) & ((1n << width) - 1n);
    });
    let written: string[][] = [[]];
    for (const part of parts) written = written.flatMap((start) => writings.map((write) => [...start, write(part)]));
    hosts.push(...written.flatMap((each) => [each.join('.'), `${each.join('.')}.`]));
  }
  return hosts;
}

const urlsOfIpv4 = (value: bigint): string[] => [
  ...ipv4UrlHosts(value).map((host) => `https://${host}/hook`),
  ...ipv6Forms((0xffffn << 32n) | value).map((form) => `https://[${form}]/hook`),
];

const urlsOfIpv6 = (value: bigint): string[] => ipv6Forms(value).map((form) => `https://[${form}]:8443/hook`);

/** The address forms the guard does not refuse (empty when it refuses them all); each must be an IP to Node. */
const notRefused = (forms: string[]): string[] => forms.filter((form) => isIP(form) === 0 || !isRefusedAddress(form));

/** The host as the URL parser writes it, brackets removed; empty when it rejects the URL. */
const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return '';
  }
};

/** The URLs `checkUrl` does not refuse for the address they name (a URL the parser rejects counts as not refused). */
const urlsNotRefused = (urls: string[]): string[] =>
  urls.filter((url) => {
    const checked = checkUrl(url, 'aws');
    return !('error' in checked) || checked.error !== messages.delivery.privateAddress(hostOf(url));
  });

/** The URLs `checkUrl` refuses, or does not read as an IP literal. */
const urlsRefused = (urls: string[]): string[] =>
  urls.filter((url) => {
    const checked = checkUrl(url, 'aws');
    return 'error' in checked || !checked.ipLiteral;
  });

/** Runs `check` on a range's first address, its last, and random ones inside (IPv4-mapped ones left to the IPv4 rules). */
const forFirstLastAndAny = (range: Range, check: (value: bigint) => void): void => {
  const { first, last } = boundsOf(range);
  const inside = fc.bigInt({ min: first, max: last }).filter((value) => !contains(ipv4Mapped, value));
  fc.assert(fc.property(inside, check), { examples: [[first], [last]], numRuns: 20 });
};

/** The addresses just outside a range: refused exactly when the registries refuse them. */
const neighbours = (range: Range, top: bigint): bigint[] => {
  const { first, last } = boundsOf(range);
  return [first - 1n, last + 1n].filter((value) => value >= 0n && value <= top);
};

describe('isRefusedAddress and checkUrl on AWS, over every refused IPv4 range', () => {
  test.each(refusedIpv4)(
    '$network/$prefix ($name): first, last and any address, in every form, IPv4-mapped and in URLs',
    (range) => {
      forFirstLastAndAny(range, (value) => {
        expect(notRefused([dotted(value), ...ipv6Forms((0xffffn << 32n) | value)])).toEqual([]);
        expect(urlsNotRefused(urlsOfIpv4(value))).toEqual([]);
      });
    },
  );

  test.each(refusedIpv4)('$network/$prefix ($name): its bounds are exact', (range) => {
    for (const value of neighbours(range, 0xffffffffn)) {
      expect([dotted(value), isRefusedAddress(dotted(value))]).toEqual([dotted(value), refusedByRegistryIpv4(value)]);
    }
  });
});

describe('isRefusedAddress and checkUrl on AWS, over every refused IPv6 range', () => {
  test.each(refusedIpv6)(
    '$network/$prefix ($name): first, last and any address, in every form and in URLs',
    (range) => {
      forFirstLastAndAny(range, (value) => {
        expect(notRefused(ipv6Forms(value))).toEqual([]);
        expect(urlsNotRefused(urlsOfIpv6(value))).toEqual([]);
      });
    },
  );

  test.each(refusedIpv6)('$network/$prefix ($name): its bounds are exact', (range) => {
    for (const value of neighbours(range, (1n << 128n) - 1n)) {
      const [form = ''] = ipv6Forms(value);
      expect([form, isRefusedAddress(form)]).toEqual([form, refusedByRegistryIpv6(value)]);
    }
  });
});

describe('public addresses are allowed', () => {
  test('any IPv4 address outside the refused ranges, in every form, IPv4-mapped and in URLs', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 0xffffffffn }).filter((value) => !refusedByRegistryIpv4(value)),
        (value) => {
          const forms = [dotted(value), ...ipv6Forms((0xffffn << 32n) | value)];
          expect(forms.filter((form) => isRefusedAddress(form))).toEqual([]);
          expect(urlsRefused(urlsOfIpv4(value))).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  test('any global unicast IPv6 address (2000::/3) outside the refused ranges, in every form and in URLs', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: ipv6Value('2000::'), max: ipv6Value('3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff') }),
        (value) => {
          fc.pre(!refusedByRegistryIpv6(value));
          expect(ipv6Forms(value).filter((form) => isRefusedAddress(form))).toEqual([]);
          expect(urlsRefused(urlsOfIpv6(value))).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  test.each([
    '8.8.8.8',
    '192.31.196.1', // AS112, globally reachable
    '::ffff:8.8.8.8',
    '2001:200::1', // the first address after 2001::/23 (APNIC)
    '2001:4860:4860::8888',
    '2620:4f:8000::1', // AS112 direct delegation, globally reachable
    '2a00:1450:4007:80e::200e',
  ])('allows %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  test.each(['not-an-address', '', '0x7f.1', '2130706433', '[::1]'])(
    'refuses %j, which is no IP address to Node',
    (text) => {
      expect(isRefusedAddress(text)).toBe(true);
    },
  );

  test('a link-local address with its zone (as a resolver may write it) is still link local', () => {
    expect(isRefusedAddress('fe80::1%eth0')).toBe(true);
  });
});

describe('checkUrl', () => {
  test('https to a public name is allowed everywhere, with its port and path', () => {
    expect(checkUrl('https://hooks.exemple.fr/crm/événements?x=1', 'aws')).toEqual({
      protocol: 'https:',
      hostname: 'hooks.exemple.fr',
      port: 443,
      path: '/crm/%C3%A9v%C3%A9nements?x=1',
      ipLiteral: false,
    });
    expect(checkUrl('https://hooks.exemple.fr:8443/', 'local')).toMatchObject({ port: 8443 });
  });

  test.each(['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://LOCALHOST/x'])(
    'plain http to this machine only in the local run: %s',
    (url) => {
      expect(checkUrl(url, 'local')).toMatchObject({ protocol: 'http:' });
      expect(checkUrl(url, 'aws')).toEqual({ error: expect.stringContaining('protocole http refusé') });
    },
  );

  test.each([
    'http://exemple.fr/',
    'http://10.0.0.1/',
    'http://127.0.0.2/',
    'http://[::1]:9000/x',
    'ftp://exemple.fr/',
    'file:///etc/passwd',
  ])('refuses %s in either policy', (url) => {
    expect(checkUrl(url, 'local')).toEqual({ error: expect.stringMatching(/^protocole .* refusé/) });
    expect(checkUrl(url, 'aws')).toEqual({ error: expect.stringMatching(/^protocole .* refusé/) });
  });

  test.each([
    ['https://10.0.0.1/', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://[::ffff:10.0.0.1]/', '::ffff:a00:1'],
    ['https://[fd00::1]/', 'fd00::1'],
    ['https://0x7f.1/', '127.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1'],
    ['https://[2002:a00:1::]/', '2002:a00:1::'],
    ['https://[FEC0::1]/', 'fec0::1'],
  ])('on AWS an IP literal is checked like a resolved address: %s', (url, shown) => {
    expect(checkUrl(url, 'aws')).toEqual({
      error: `adresse refusée (non publique : privée, locale, réservée ou de bouclage) : ${shown}`,
    });
    expect(checkUrl(url, 'local')).toMatchObject({ ipLiteral: true });
  });

  test('a public IP literal passes on AWS', () => {
    expect(checkUrl('https://[2001:4860:4860::8888]:444/', 'aws')).toMatchObject({
      hostname: '2001:4860:4860::8888',
      port: 444,
      ipLiteral: true,
    });
  });

  test.each(['', 'pas une url', 'https://', '//exemple.fr/'])('refuses the malformed URL %j', (url) => {
    expect(checkUrl(url, 'aws')).toEqual({ error: 'adresse invalide' });
  });
});
