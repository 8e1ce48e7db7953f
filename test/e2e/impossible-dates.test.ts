import { useSeededApi } from '../support/seeded-api';

const world = useSeededApi();
const { call, show, aProspect } = world;

describe('follow_up_at that does not exist', () => {
  it('answers 400 with details for each, and leaves the prospect as it was', async () => {
    const id = await aProspect();
    const set = await call('PATCH', `/prospects/${id}`, { follow_up_at: '2026-12-01T09:30:00+01:00' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ next_follow_up_at: '2026-12-01T08:30:00.000Z', changed: ['follow_up'] });
    for (const followUp of [
      '2026-02-30T10:00:00Z',
      '2027-02-29T10:00:00Z',
      '2026-04-31T10:00:00+02:00',
      '2026-12-01T24:00:00Z',
      '2026-12-01T10:61Z',
      '2026-12-31T23:59:60Z',
      '2026-12-01T10:00:00+24:00',
    ]) {
      const response = await call('PATCH', `/prospects/${id}`, {
        follow_up_at: followUp,
        setter_id: world.ws.members.alice,
      });
      expect({ followUp, status: response.status }).toEqual({ followUp, status: 400 });
      expect(response.body).toEqual({
        error: {
          code: 'bad_request',
          message: expect.any(String),
          details: { field: 'follow_up_at', message: expect.any(String) },
        },
      });
    }
    const { prospect, changelog } = await show(id);
    expect(prospect).toMatchObject({ next_follow_up_at: '2026-12-01T08:30:00.000Z', setter_id: null, version: 2 });
    expect(changelog.map((entry) => entry.field)).toEqual(['follow_up']);
  });

  it('accepts an existing one with an offset, and answers it in UTC', async () => {
    const id = await aProspect();
    const response = await call('PATCH', `/prospects/${id}`, { follow_up_at: '2028-02-29T23:30:00-05:00' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ next_follow_up_at: '2028-03-01T04:30:00.000Z', changed: ['follow_up'] });
    expect((await show(id)).prospect.next_follow_up_at).toBe('2028-03-01T04:30:00.000Z');
  });
});

describe('note date that does not exist', () => {
  const invalidDate = "La date de la note n'est pas une date ISO 8601 valide : la date de réception a été retenue.";

  it('keeps the reception date and warns, never a rolled-over day', async () => {
    const id = await aProspect();
    const response = await call('POST', `/prospects/${id}/notes`, { content: 'Appel', date: '2026-02-30T10:00:00Z' });
    expect(response.status).toBe(201);
    const created = response.body as { id: string; created_at: string; warnings: string[] };
    expect(created.warnings).toEqual([invalidDate]);
    const { notes } = await show(id);
    expect(notes).toEqual([
      { id: created.id, content: 'Appel', date: created.created_at, created_at: created.created_at },
    ]);
  });

  it('reads a date without zone as UTC, and a date alone as UTC midnight', async () => {
    const id = await aProspect();
    const withoutZone = await call('POST', `/prospects/${id}/notes`, {
      content: 'Sans fuseau',
      date: '2024-03-05T10:00:00',
    });
    const dateAlone = await call('POST', `/prospects/${id}/notes`, { content: 'Jour seul', date: '2024-02-29' });
    for (const response of [withoutZone, dateAlone]) {
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ warnings: [] });
    }
    const dates = Object.fromEntries((await show(id)).notes.map((note) => [note.content, note.date]));
    expect(dates).toEqual({ 'Sans fuseau': '2024-03-05T10:00:00.000Z', 'Jour seul': '2024-02-29T00:00:00.000Z' });
  });
});
