import { derivedTimeOrderedId, keys } from '../../lib/storage/table-items';
import { eventsOf, startEventWorld, verified, type EventWorld, type ReceivedEvent } from '../support/event-world';
import { aWorkspace } from '../support/seed';

/**
 * `prospect.follow_up_due` in real time through `npm start`'s own pieces (docs/events.md, "Follow-ups falling due"):
 * a PATCH through the local API, the table's real stream, the follow-up queue, the sweep on its 5-second timer, the
 * delivery function, a receiver. A few seconds of real waiting: the follow-ups are set 3 seconds ahead (the first PATCH must land before then).
 */

let world: EventWorld;
beforeAll(async () => {
  world = await startEventWorld();
}, 60_000);
afterAll(() => world.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a follow-up set a few seconds ahead arrives at its time, not before and within the minute, signed, once, with an id from the prospect and the time; one cancelled sends nothing; neither changes the prospect', async () => {
  const ws = await world.seed(aWorkspace({ prospects: [] }));
  const receiver = await world.receiver();
  // Made without `events`: every type, the new one included.
  const subscription = await world.subscribe(ws, receiver);
  expect(subscription.events).toContain('prospect.follow_up_due');
  const leads = await Promise.all([world.lead(ws), world.lead(ws)]);
  const [kept, cancelled] = leads.map((answer) => (answer.body as { prospect_id: string }).prospect_id) as [
    string,
    string,
  ];

  const due = new Date(Date.now() + 3_000);
  const dueAt = due.toISOString();
  const patched = await world.call(ws, 'PATCH', `/prospects/${kept}`, { follow_up_at: dueAt });
  expect(patched.status).toBe(200);
  expect((await world.call(ws, 'PATCH', `/prospects/${cancelled}`, { follow_up_at: dueAt })).status).toBe(200);
  expect((await world.call(ws, 'PATCH', `/prospects/${cancelled}`, { follow_up_at: null })).status).toBe(200);
  const before = (await world.call(ws, 'GET', `/prospects/${kept}`)).body;

  const dueEvents = (): ReceivedEvent[] =>
    eventsOf(receiver.requests).filter((event) => event.type === 'prospect.follow_up_due');
  for (const giveUp = Date.now() + 30_000; dueEvents().length === 0 && Date.now() < giveUp;) await pause(100);
  // Room for a second copy or the cancelled one to show, if either were sent: each comes through the same steps.
  await pause(1_000);

  const [event, ...others] = dueEvents();
  expect(others).toEqual([]);
  expect(event).toBeDefined();
  if (!event) return;
  expect(verified(subscription.secret, event.request)).toEqual(JSON.parse(event.request.body));
  expect(event.request.receivedAt).toBeGreaterThanOrEqual(due.getTime());
  expect(event.request.receivedAt).toBeLessThanOrEqual(due.getTime() + 60_000);
  expect(event.data).toEqual({
    prospect: expect.objectContaining({ id: kept, next_follow_up_at: dueAt }),
    follow_up_at: dueAt,
    late: false,
  });
  const seed = `${keys.prospectPk(ws.workspace_id, kept)}#prospect.follow_up_due#${dueAt}`;
  expect(event.id).toBe(derivedTimeOrderedId(due, seed));

  // Not a change of the prospect: read as it was before its time came, its one change-log entry.
  expect((await world.call(ws, 'GET', `/prospects/${kept}`)).body).toEqual(before);
  const changes = await world.call(ws, 'GET', `/prospects/${kept}/changes`);
  expect((changes.body as { changes: { field: string }[] }).changes.map((change) => change.field)).toEqual([
    'follow_up',
  ]);
  const updates = eventsOf(receiver.requests).filter(
    (received) => received.type === 'prospect.updated' && (received.data.prospect as { id: string }).id === kept,
  );
  expect(updates).toHaveLength(1);
}, 60_000);
