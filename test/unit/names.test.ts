import { findByIdOrName, isProtectedStage, nameKey, protectedStageKeys, sameName } from '../../lib/domain/model';

const decomposedClose = 'Close\u0301';

describe('names as references', () => {
  it.each([
    ['NFC and NFD spellings of é', 'Closé', decomposedClose],
    ['case', 'Relance', 'RELANCE'],
    ['case of an accented letter', 'Développeurs', 'DÉVELOPPEURS'],
    ['case of a decomposed accented letter', 'Développeurs', 'DE\u0301VELOPPEURS'],
    ['surrounding spaces', 'VIP', '  VIP '],
    ['no-break and tab padding', 'VIP', '\u00a0VIP\t'],
    ['dotless capital I, lower-cased without a locale', 'IVOIRE', 'ivoire'],
  ])('treats %s as the same name', (_label, a, b) => {
    expect(sameName(a, b)).toBe(true);
  });

  it.each([
    ['ß and ss (lower-casing, not full case folding)', 'Straße', 'STRASSE'],
    ['dotted capital İ and plain i', 'İstanbul', 'istanbul'],
    ['dotless ı and i', 'ılık', 'ILIK'],
    ['inner spaces', 'V I P', 'VIP'],
    ['an accent and none', 'Closé', 'Close'],
  ])('keeps %s apart', (_label, a, b) => {
    expect(sameName(a, b)).toBe(false);
  });

  it('lower-cases I and İ as Unicode does, not as a Turkish locale would (ı and i)', () => {
    expect(nameKey('I')).toBe('i');
    expect(nameKey('İ')).toBe('i\u0307');
    expect(nameKey('I')).not.toBe('I'.toLocaleLowerCase('tr'));
  });

  it('gives an NFC key even when lower-casing decomposes', () => {
    for (const name of ['İ', decomposedClose, 'ÅNGSTRÖM', 'A\u030a']) {
      expect(nameKey(name)).toBe(nameKey(name).normalize('NFC'));
    }
  });

  it('protects Closé and Acompte however they are spelt or encoded', () => {
    expect(protectedStageKeys).toEqual(['Closé', 'Acompte'].map(nameKey));
    for (const name of ['Closé', decomposedClose, 'CLOSÉ', ' closé ', 'CLOSE\u0301', 'acompte', ' ACOMPTE\u00a0']) {
      expect(isProtectedStage({ name })).toBe(true);
    }
    for (const name of ['Close', 'Clos', 'Acomptes', 'Closé 2']) expect(isProtectedStage({ name })).toBe(false);
  });

  it('finds by id ignoring case and padding, else by name', () => {
    const items = [
      { id: '0b6c1c1e-0000-4000-8000-000000000001', name: 'VIP' },
      { id: '0b6c1c1e-0000-4000-8000-000000000002', name: decomposedClose },
    ];
    expect(findByIdOrName(items, ' 0B6C1C1E-0000-4000-8000-000000000001 ')).toBe(items[0]);
    expect(findByIdOrName(items, 'vip ')).toBe(items[0]);
    expect(findByIdOrName(items, 'closé')).toBe(items[1]);
    expect(findByIdOrName(items, 'VIPs')).toBeUndefined();
  });
});
