import { InvalidInputError } from '../../lib/domain/model';
import { interpretLead, maxNamedIgnoredFields } from '../../lib/domain/lead/lead';
import { shorten } from '../../lib/messages';

describe('reading a lead', () => {
  it('keeps the known fields, trimmed, and treats empty ones as absent', () => {
    const { lead, warnings } = interpretLead({
      first_name: ' Léa ',
      last_name: '',
      email: 'Lea@Example.fr',
      phone: '+33 6 12 34 56 78',
      source: 'Typeform',
    });
    expect(lead).toEqual({
      first_name: 'Léa',
      email: 'Lea@Example.fr',
      phone: '+33 6 12 34 56 78',
      source: 'Typeform',
      tag_ids: [],
    });
    expect(warnings).toEqual([]);
  });

  it('reports unknown fields, `tags`, wrong types and invalid e-mails, and ignores them', () => {
    const { lead, warnings } = interpretLead({
      phone: '0612',
      company: 'Acme',
      tags: ['VIP'],
      first_name: 42,
      email: 'pas-une-adresse',
    });
    expect(lead).toEqual({ phone: '0612', tag_ids: [] });
    expect(warnings).toEqual([
      'Champ inconnu ignoré : « company ».',
      'Le champ « tags » est ignoré : utilisez « tag_ids » avec les identifiants des tags.',
      'Champ « first_name » ignoré : une chaîne de caractères est attendue.',
      "Champ « email » ignoré : ce n'est pas une adresse e-mail valide.",
    ]);
  });

  it('refuses a lead left without e-mail, phone or social_url', () => {
    expect(() => interpretLead({ first_name: 'Léa' })).toThrow(InvalidInputError);
    expect(() => interpretLead({ email: 'nope', phone: '' })).toThrow(InvalidInputError);
    expect(() => interpretLead({ email: 'a'.repeat(20_000) + '@x.fr' })).toThrow(InvalidInputError);
  });

  it('reads tag_ids as a list or comma-separated, distinct, at most 50', () => {
    expect(interpretLead({ email: 'a@b.fr', tag_ids: 'x, y,x' }).lead.tag_ids).toEqual(['x', 'y']);
    expect(interpretLead({ email: 'a@b.fr', tag_ids: ['x', 'x', 'z'] }).lead.tag_ids).toEqual(['x', 'z']);
    const many = interpretLead({ email: 'a@b.fr', tag_ids: Array.from({ length: 60 }, (_, i) => `t${i}`) });
    expect(many.lead.tag_ids).toHaveLength(50);
    expect(many.warnings).toHaveLength(1);
    expect(interpretLead({ email: 'a@b.fr', tag_ids: [1, 2] }).warnings).toEqual([
      'Champ « tag_ids » ignoré : une liste d’identifiants de tags est attendue.',
    ]);
  });

  it('keeps a field named __proto__ a plain, reported field', () => {
    const fields = JSON.parse('{"email":"a@b.fr","__proto__":{"polluted":true}}');
    const { warnings } = interpretLead(fields);
    expect(warnings).toEqual(['Champ inconnu ignoré : « __proto__ ».']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('very long values (keys hold only hashes; a value must still make sense)', () => {
  it('ignores an over-long field with a warning, and refuses a lead left without contact', () => {
    const long = 'x'.repeat(20_000);
    expect(interpretLead({ email: 'a@b.fr', first_name: long }).warnings).toEqual([
      'Champ « first_name » ignoré : 200 caractères au plus.',
    ]);
    expect(() => interpretLead({ phone: '1'.repeat(20_000) })).toThrow(InvalidInputError);
    expect(() => interpretLead({ social_url: `https://x.fr/${long}` })).toThrow(InvalidInputError);
  });

  it('names at most 20 ignored fields, then counts the rest in one warning', () => {
    const fields: Record<string, unknown> = { email: 'a@b.fr', first_name: 42, tags: ['x'] };
    for (let index = 0; index < 5000; index += 1) fields[`champ_${index}`] = 'x';
    const { warnings } = interpretLead(fields);
    expect(warnings).toHaveLength(maxNamedIgnoredFields + 1);
    expect(warnings[0]).toContain('first_name');
    expect(warnings[1]).toContain('tags');
    expect(warnings.at(-1)).toBe(`${5002 - maxNamedIgnoredFields} autres champs ignorés ne sont pas nommés ici.`);
  });

  it('keeps exactly 20 warnings as they are, and says "1 autre" for 21', () => {
    const fields = (count: number) =>
      Object.fromEntries([['phone', '0612'], ...Array.from({ length: count }, (_, i) => [`f${i}`, 1])]);
    expect(interpretLead(fields(20)).warnings).toHaveLength(20);
    expect(interpretLead(fields(21)).warnings.at(-1)).toBe('1 autre champ ignoré n’est pas nommé ici.');
  });

  it('quotes at most 80 code points of what was sent, never half an emoji', () => {
    expect(shorten('😀'.repeat(50))).toBe('😀'.repeat(50));
    expect(shorten('😀'.repeat(81))).toBe(`${'😀'.repeat(80)}…`);
    expect(shorten('x'.repeat(10_000))).toHaveLength(81);
  });
});
