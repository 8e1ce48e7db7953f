import { matchContact } from '../../lib/domain/lead/matching';

const lead = (fields: { email?: string; phone?: string; social_url?: string }) => ({ tag_ids: [], ...fields });

describe('matching a lead to a known contact', () => {
  it('is new when no marker exists', () => {
    expect(matchContact(lead({ email: 'a@b.fr', phone: '1' }), {})).toEqual({ kind: 'new' });
  });

  it('prefers the e-mail, then the phone', () => {
    expect(matchContact(lead({ email: 'a@b.fr', phone: '1' }), { email: 'A', phone: 'A' })).toMatchObject({
      kind: 'existing',
      prospectId: 'A',
      takesNewEmail: false,
      takesNewPhone: false,
      warnings: [],
    });
    expect(matchContact(lead({ email: 'new@b.fr', phone: '1' }), { phone: 'B' })).toMatchObject({
      prospectId: 'B',
      email: 'new@b.fr',
      takesNewEmail: true,
    });
  });

  it('does not take over a phone owned by another prospect, and says so', () => {
    const match = matchContact(lead({ email: 'a@b.fr', phone: '1' }), { email: 'A', phone: 'B' });
    expect(match).toMatchObject({ prospectId: 'A', phone: undefined, takesNewPhone: false });
    expect(match.kind === 'existing' && match.warnings).toEqual([
      "Le numéro de téléphone envoyé appartient déjà à un autre prospect : il n'a pas été appliqué.",
    ]);
  });

  it('matches on social_url only when neither e-mail nor phone is known', () => {
    expect(matchContact(lead({ social_url: 'https://x/y' }), { social: 'S' })).toMatchObject({ prospectId: 'S' });
    expect(matchContact(lead({ phone: '1', social_url: 'https://x/y' }), { phone: 'P', social: 'S' })).toMatchObject({
      prospectId: 'P',
    });
    expect(matchContact(lead({ email: 'n@b.fr', social_url: 'https://x/y' }), { social: 'S' })).toMatchObject({
      prospectId: 'S',
      takesNewEmail: true,
    });
  });
});
