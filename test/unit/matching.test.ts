import { matchContact } from '../../lib/domain/lead/lead';

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

  it('writes no phone that already designates the prospect: the phone stays as first sent', () => {
    expect(matchContact(lead({ phone: '+33 6 12 34 56 78' }), { phone: 'A' })).toMatchObject({
      prospectId: 'A',
      phone: undefined,
      takesNewPhone: false,
    });
    expect(matchContact(lead({ email: 'a@b.fr', phone: '07 00 00 00 01' }), { email: 'A' })).toMatchObject({
      phone: '07 00 00 00 01',
      takesNewPhone: true,
    });
  });

  describe('in E.164 matching (phone: the E.164 marker, phone_exact: the string sent)', () => {
    it('lets the E.164 form decide, the exact string serving while no prospect holds the form', () => {
      expect(matchContact(lead({ phone: '0612345678' }), { phone: 'A', phone_exact: 'B' })).toMatchObject({
        prospectId: 'A',
      });
      expect(matchContact(lead({ phone: '0612345678' }), { phone_exact: 'B' })).toMatchObject({ prospectId: 'B' });
    });

    it("counts the phone as the prospect's when either marker names it", () => {
      const match = matchContact(lead({ email: 'b@b.fr', phone: '+33612345678' }), {
        email: 'B',
        phone: 'A',
        phone_exact: 'B',
      });
      expect(match).toMatchObject({ prospectId: 'B', phone: undefined, takesNewPhone: false, warnings: [] });
    });

    it('does not take over a number another prospect holds in either form', () => {
      for (const owners of [{ phone: 'O' }, { phone_exact: 'O' }]) {
        const match = matchContact(lead({ email: 'a@b.fr', phone: '0612345678' }), { email: 'A', ...owners });
        expect(match).toMatchObject({ prospectId: 'A', phone: undefined, takesNewPhone: false });
        expect(match.kind === 'existing' && match.warnings).toHaveLength(1);
      }
    });
  });
});
