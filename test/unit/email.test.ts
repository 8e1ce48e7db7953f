import fc from 'fast-check';
import * as z from 'zod/mini';
import { isEmailAddress, maxEmailLength } from '../../lib/domain/model';
import { emailKey } from '../../lib/storage/table-items';

describe('e-mail addresses (RFC 6531)', () => {
  it.each([
    'nina.roux@exemple.test',
    'hélène@exemple.fr',
    'HÉLÈNE@EXEMPLE.FR',
    'he\u0301le\u0300ne@exemple.fr',
    'josé.garcía@correo.es',
    'müller@bücher.de',
    'пользователь@пример.рф',
    '用户@例子.广告',
    'δοκιμή@παράδειγμα.δοκιμή',
    'a+tag@sub.exemple.fr',
    "o'neil@exemple.ie",
    'x@xn--bcher-kva.de',
  ])('accepts %s', (address) => {
    expect(isEmailAddress(address)).toBe(true);
  });

  it.each([
    '',
    'hélène',
    'hélène@',
    '@exemple.fr',
    'a@b',
    'a@b.c',
    'a..b@exemple.fr',
    '.a@exemple.fr',
    'a.@exemple.fr',
    'a b@exemple.fr',
    'a@exemple..fr',
    'a@-exemple.fr',
    '"quoted"@exemple.fr',
    'a@[192.168.0.1]',
    'a@@exemple.fr',
    '😀@exemple.fr',
    `${'a'.repeat(250)}@b.fr`,
  ])('refuses %j', (address) => {
    expect(isEmailAddress(address)).toBe(false);
  });

  it('accepts exactly what zod accepts among ASCII addresses, so no address accepted before is refused now', () => {
    const zodEmail = z.email();
    const asciiAddress = fc
      .tuple(
        fc.stringMatching(/^[A-Za-z0-9_'+.-]{1,12}$/),
        fc.stringMatching(/^[A-Za-z0-9\-.]{1,12}$/),
        fc.stringMatching(/^[A-Za-z]{1,4}$/),
      )
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
    fc.assert(
      fc.property(asciiAddress, (address) => {
        expect(isEmailAddress(address)).toBe(zodEmail.safeParse(address).success);
      }),
      { numRuns: 2000 },
    );
  });

  it('compares addresses ignoring case and Unicode normalization, whatever the locale', () => {
    expect(emailKey('HÉLÈNE@Exemple.FR')).toBe(emailKey('he\u0301le\u0300ne@exemple.fr'));
    expect(emailKey(' Nina@Exemple.test ')).toBe('nina@exemple.test');
    expect(emailKey('IRMA@EXEMPLE.TR')).toBe('irma@exemple.tr');
    expect(emailKey('straße@exemple.de')).not.toBe(emailKey('strasse@exemple.de'));
  });

  it('limits an address to 254 characters', () => {
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(maxEmailLength - 64 - 1 - 63 - 1 - 63 - 1)}`;
    expect(isEmailAddress(`${local}@${domain}`)).toBe(true);
    expect(isEmailAddress(`${local}a@${domain}`)).toBe(false);
  });
});
