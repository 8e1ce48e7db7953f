import { checkUrl, isRefusedAddress } from '../../lib/outbound/address-policy';

/**
 * Where a delivery may go (decisions 6.2): on AWS, never to the service's own network. Every form
 * an address can take counts, IPv4-mapped IPv6 included.
 */
describe('isRefusedAddress', () => {
  test.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a00:1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '100.63.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '2001:4860:4860::8888',
    '2a00:1450:4007:80e::200e',
    '::ffff:8.8.8.8',
    'fec0::1',
  ])('allows %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
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
    ['https://0.0.0.0/', '0.0.0.0'],
  ])('on AWS an IP literal is checked like a resolved address: %s', (url, shown) => {
    expect(checkUrl(url, 'aws')).toEqual({ error: `adresse refusée (réseau privé) : ${shown}` });
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
