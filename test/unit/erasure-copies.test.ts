import { carriesContact, isAbout } from '../../lib/domain/erasure/person-copies';

/*
 * What the erasures' background counts as a copy of the person (docs/adr/0019-erasure-in-the-background.md): a kept
 * body that carries their e-mail or phone, however the form wrote it, and a delivery whose event is about the record.
 */

const job = {
  kind: 'prospect' as const,
  record_id: 'a1b2c3d4-0000-4000-8000-000000000001',
  contacts: { emails: ['Lea.Petit@acme.test'], phones: ['06 12 34 56 78', '+33612345678'], phone_region: 'FR' },
};

describe('carriesContact', () => {
  it.each([
    ['the e-mail in another case', '{"mail":"LEA.PETIT@ACME.TEST"}'],
    ['the phone as stored', 'tel=06 12 34 56 78'],
    ['the phone in E.164', '{"phone":"+33612345678"}'],
    ['the phone in another national spacing', '{"tel":"06.12.34.56.78"}'],
    ['the phone with the international prefix 00', 'numero: 0033 6 12 34 56 78'],
  ])('finds %s', (_case, body) => {
    expect(carriesContact(body, job)).toBe(true);
  });

  it.each([
    ['another e-mail', '{"email":"lea.petite@acme.test"}'],
    ['another phone', '{"phone":"06 12 34 56 79"}'],
    ['nothing', '{"first_name":"Léa"}'],
  ])('does not find %s', (_case, body) => {
    expect(carriesContact(body, job)).toBe(false);
  });

  it('a job without a phone reads no number', () => {
    expect(carriesContact('06 12 34 56 78', { contacts: { ...job.contacts, phones: [] } })).toBe(false);
  });
});

describe('isAbout', () => {
  const delivery = (type: string, data: Record<string, unknown>) => ({ payload: JSON.stringify({ type, data }) });

  it('is the deliveries of events about the record', () => {
    expect(isAbout(delivery('prospect.updated', { prospect: { id: job.record_id } }), job)).toBe(true);
    expect(isAbout(delivery('prospect.note_added', { prospect: { id: job.record_id } }), job)).toBe(true);
  });

  it('is not the event of its erasure, another record’s, nor a candidate’s of the same id', () => {
    expect(isAbout(delivery('prospect.erased', { prospect_id: job.record_id }), job)).toBe(false);
    expect(isAbout(delivery('prospect.updated', { prospect: { id: 'other' }, note: job.record_id }), job)).toBe(false);
    expect(isAbout(delivery('candidate.created', { candidate: { id: job.record_id } }), job)).toBe(false);
    expect(isAbout({}, job)).toBe(false);
  });
});
