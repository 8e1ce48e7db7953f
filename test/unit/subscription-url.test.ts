import { eventTypes } from '../../lib/domain/events/event-types';
import {
  checkEventTypes,
  checkSubscriptionUrl,
  maxSubscriptionUrlLength,
} from '../../lib/domain/events/subscription-url';

/** The rules of a subscription's URL and event list (docs/api.md#outbound-events), on both networks. */

const accepted = <T>(value: T) => ({ ok: true, value });
const refusal = (pattern: RegExp) => ({ ok: false, reason: expect.stringMatching(pattern) });

describe('checkSubscriptionUrl', () => {
  it.each([
    ['https://hooks.exemple.fr/crm', 'https://hooks.exemple.fr/crm'],
    ['  https://hooks.exemple.fr/crm?x=1  ', 'https://hooks.exemple.fr/crm?x=1'],
    ['https://HOOKS.Exemple.FR', 'https://hooks.exemple.fr/'],
    ['https://exemple.fr/événements', 'https://exemple.fr/%C3%A9v%C3%A9nements'],
    ['https://bücher.example/hook', 'https://xn--bcher-kva.example/hook'],
    ['https://93.184.215.14:8443/hook', 'https://93.184.215.14:8443/hook'],
  ])('accepts %j on both networks, as the parser writes it', (url, written) => {
    expect(checkSubscriptionUrl(url, 'aws')).toEqual(accepted(written));
    expect(checkSubscriptionUrl(url, 'local')).toEqual(accepted(written));
  });

  it('accepts an internationalized host however many URLs were checked before', () => {
    for (let checked = 0; checked < 10_000; checked += 1) checkSubscriptionUrl('https://exemple.fr/hook', 'aws');
    expect(checkSubscriptionUrl('https://bücher.example/hook', 'aws')).toEqual(
      accepted('https://xn--bcher-kva.example/hook'),
    );
  });

  it.each(['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://LOCALHOST/hook'])(
    'accepts plain http to this machine locally (%j), never on AWS',
    (url) => {
      expect(checkSubscriptionUrl(url, 'local')).toMatchObject({ ok: true });
      expect(checkSubscriptionUrl(url, 'aws')).toEqual(refusal(/https/));
    },
  );

  it.each(['http://exemple.fr/hook', 'http://10.0.0.1/hook', 'http://[::1]/hook', 'http://127.0.0.2/hook'])(
    'refuses plain http elsewhere, even locally (%j)',
    (url) => {
      expect(checkSubscriptionUrl(url, 'local')).toEqual(refusal(/doit être en https/));
    },
  );

  it.each([
    'ftp://exemple.fr/hook',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/plain,x',
    'ws://exemple.fr',
  ])('refuses another scheme (%j)', (url) => {
    expect(checkSubscriptionUrl(url, 'local')).toEqual(refusal(/https/));
    expect(checkSubscriptionUrl(url, 'aws')).toEqual(refusal(/https/));
  });

  it.each(['', '   ', 'exemple.fr/hook', '/hook', 'https://', 'https://exa mple.fr', 'https://[::1'])(
    'refuses what is no complete URL (%j)',
    (url) => {
      expect(checkSubscriptionUrl(url, 'local')).toEqual(refusal(/^URL invalide/));
    },
  );

  it.each(['https://user:secret@exemple.fr/hook', 'https://user@exemple.fr/hook', 'https://:secret@exemple.fr/'])(
    'refuses a user or password in the URL (%j), without quoting it',
    (url) => {
      const checked = checkSubscriptionUrl(url, 'aws');
      expect(checked).toEqual(refusal(/ni utilisateur ni mot de passe/));
      expect(JSON.stringify(checked)).not.toContain('secret@');
    },
  );

  it('takes 2048 characters at most, as typed and as written', () => {
    const base = 'https://exemple.fr/';
    const longest = `${base}${'a'.repeat(maxSubscriptionUrlLength - base.length)}`;
    expect(checkSubscriptionUrl(longest, 'aws')).toEqual(accepted(longest));
    expect(checkSubscriptionUrl(`${longest}a`, 'aws')).toEqual(refusal(/^URL trop longue : 2049 caractères pour 2048/));
    expect(checkSubscriptionUrl(`${base}${'a'.repeat(3000)}`, 'local')).toEqual(refusal(/3019 caractères/));
    // 700 « é » are 700 characters typed, 4200 once percent-encoded.
    expect(checkSubscriptionUrl(`${base}${'é'.repeat(700)}`, 'aws')).toEqual(refusal(/4219 caractères/));
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a00:1]/hook',
    'https://0x7f.1/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://198.18.0.1/hook',
    'https://[64:ff9b::10.0.0.1]/hook',
    'https://[64:ff9b:1::1]/hook',
    'https://[2002:a9fe:a9fe::1]/hook',
    'https://[2001::1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[::ffff:0:a00:1]/hook',
    'https://[FEC0::1]/hook',
    'https://[100::1]/hook',
    'https://[2001:db8::1]/hook',
    'https://localhost/hook',
    'https://api.localhost/hook',
  ])('refuses a host that is no public address on AWS (%j), not locally', (url) => {
    expect(checkSubscriptionUrl(url, 'aws')).toEqual(
      refusal(/n'est pas publique \(privée, locale, réservée ou de bouclage\)/),
    );
    expect(checkSubscriptionUrl(url, 'local')).toMatchObject({ ok: true });
  });
});

describe('checkEventTypes', () => {
  it('is all ten types, in order, when --events is absent', () => {
    expect(checkEventTypes(undefined)).toEqual(accepted([...eventTypes]));
    expect(eventTypes).toHaveLength(10);
  });

  it('keeps known types once each, in the order of the list of types', () => {
    expect(checkEventTypes(' candidate.created, prospect.created ,prospect.created,,')).toEqual(
      accepted(['prospect.created', 'candidate.created']),
    );
  });

  it.each(['', ' ', ',', ' , ,'])('refuses an empty list (%j)', (value) => {
    expect(checkEventTypes(value)).toEqual(refusal(/au moins un type/));
  });

  it.each([
    ['prospect.deleted', /prospect\.deleted \(types possibles : prospect\.created, /],
    ['Prospect.Created', /Prospect\.Created/],
    ['prospect.created,lead.*', /inconnu : lead\.\*/],
    ['prospect.created\u0301', /prospect\.created/],
  ])('refuses an unknown type (%j), naming it', (value, pattern) => {
    expect(checkEventTypes(value)).toEqual(refusal(pattern));
  });

  it('quotes a huge unknown type by its start only', () => {
    const checked = checkEventTypes('x'.repeat(100_000));
    expect(checked.ok).toBe(false);
    expect(JSON.stringify(checked).length).toBeLessThan(600);
  });
});
