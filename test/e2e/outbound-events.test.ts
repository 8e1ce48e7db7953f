import { randomUUID } from 'node:crypto';
import { eventTypes } from '../../lib/domain/events/event-types';
import { deliveryTimeoutMs, retryDelaysSeconds } from '../../lib/domain/events/retry-schedule';
import type { DeliveryView } from '../../lib/domain/events/delivery-view';
import { messages } from '../../lib/messages';
import type { SeedOutput } from '../../tools/seed/seed';
import type { CreatedSubscription } from '../../lib/settings/subscriptions';
import {
  eventsOf,
  startEventWorld,
  verified,
  type EventWorld,
  type ReceivedEvent,
  type ReceivedRequest,
  type Receiver,
} from '../support/event-world';
import { captureLogs } from '../support/captured-logs';
import { aWorkspace } from '../support/seed';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { withDeletedField, withNewField } from '../../lib/domain/fields/field-definitions';

/**
 * Outbound events over the real HTTP API (docs/events.md, docs/api.md#outbound-events): each call of the API, the
 * webhooks and the admin command line, then what the subscribed receivers got, on a table of this
 * file's own read through DynamoDB Local's stream by the same functions as on AWS. Tests that need
 * real signatures run first, at the real time: Standard Webhooks' verify compares the timestamp with
 * the real clock, and the retry tests stop the world's clock, then move it forward themselves.
 */

let world: EventWorld;
beforeAll(async () => {
  world = await startEventWorld();
}, 60_000);
afterAll(() => world.close());

type Setup = { ws: SeedOutput; receiver: Receiver; subscription: CreatedSubscription };

/** A workspace of its own (no seeded prospects), a receiver subscribed to every type. */
async function subscribed(): Promise<Setup> {
  const ws = await world.seed(aWorkspace({ prospects: [] }));
  const receiver = await world.receiver();
  const subscription = await world.subscribe(ws, receiver);
  return { ws, receiver, subscription };
}

/** The action's result and the events it made, once everything settled; each one's signature verified. */
async function eventsAfter<T>(setup: Setup, action: () => Promise<T>): Promise<{ result: T; events: ReceivedEvent[] }> {
  const from = setup.receiver.requests.length;
  const result = await action();
  await world.settle();
  const events = eventsOf(setup.receiver.requests, from);
  for (const event of events)
    expect(verified(setup.subscription.secret, event.request)).toEqual(JSON.parse(event.request.body));
  return { result, events };
}

const body = <T = Record<string, unknown>>(answer: { body: unknown }) => answer.body as T;
const prospectIdOf = (answer: { body: unknown }) => body<{ prospect_id: string }>(answer).prospect_id;
const getProspect = async (setup: Setup, id: string) => {
  const answer = await world.call(setup.ws, 'GET', `/prospects/${id}`);
  expect(answer.status).toBe(200);
  return body(answer);
};
/** The events without the request they came in, for exact comparisons. */
const withoutRequests = (events: readonly ReceivedEvent[]) =>
  events.map(({ id, type, timestamp, data }) => ({ id, type, timestamp, data }));
const eventId = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

describe('every event type after its action, with changes and actor', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await subscribed();
  });
  const webhookActor = () => ({ kind: 'webhook', id: setup.ws.webhook?.endpoint_id });
  const keyActor = () => ({ kind: 'api_key', id: setup.ws.api_keys.admin?.id });

  test('subscription create prints the seven types and a secret', () => {
    expect(setup.subscription).toEqual({
      id: expect.any(String),
      url: setup.receiver.url,
      events: [...eventTypes],
      secret: expect.stringMatching(/^whsec_/),
    });
  });

  test('a new lead: prospect.created, actor the webhook, data.prospect as GET answers it', async () => {
    const email = `zoé.${randomUUID()}@exemple.test`;
    const { result, events } = await eventsAfter(setup, () =>
      world.lead(setup.ws, { email, first_name: 'Zoé', last_name: 'Roux', phone: '+33612345678', source: 'Typeform' }),
    );
    expect(body(result)).toMatchObject({ status: 'created' });
    const prospect = await getProspect(setup, prospectIdOf(result));
    expect(withoutRequests(events)).toEqual([
      {
        id: eventId,
        type: 'prospect.created',
        timestamp: prospect.updated_at,
        data: { prospect, actor: webhookActor() },
      },
    ]);
    expect(Object.keys(JSON.parse(events[0]?.request.body ?? '{}'))).toEqual(['type', 'timestamp', 'data']);
    expect(events[0]?.request.headers['content-type']).toBe('application/json');
  });

  test('a known lead with a new first name and a tag: prospect.updated (first_name only) and prospect.tag_added', async () => {
    const email = `known.${randomUUID()}@exemple.test`;
    const contact = { email, last_name: 'Roux', phone: '+33612345679' };
    const created = await eventsAfter(setup, () => world.lead(setup.ws, { ...contact, first_name: 'Zoé' }));
    const id = prospectIdOf(created.result);
    const vip = setup.ws.tags.vip as string;

    const { result, events } = await eventsAfter(setup, () =>
      world.lead(setup.ws, { ...contact, first_name: 'Zoéline', tag_ids: [vip] }),
    );
    expect(body(result)).toMatchObject({ status: 'existing', prospect_id: id });
    const prospect = await getProspect(setup, id);
    expect(prospect).toMatchObject({ first_name: 'Zoéline', tags: [{ id: vip, name: 'VIP' }] });
    const timestamp = prospect.updated_at;
    expect(withoutRequests(events)).toEqual(
      expect.arrayContaining([
        {
          id: eventId,
          type: 'prospect.updated',
          timestamp,
          data: {
            prospect,
            changes: [{ field: 'first_name', before: 'Zoé', after: 'Zoéline' }],
            actor: webhookActor(),
          },
        },
        {
          id: eventId,
          type: 'prospect.tag_added',
          timestamp,
          data: {
            prospect,
            tag: { id: vip, name: 'VIP' },
            changes: [{ field: 'tags', before: null, after: vip }],
            actor: webhookActor(),
          },
        },
      ]),
    );
    expect(events).toHaveLength(2);
    expect(new Set(events.map((event) => event.id)).size).toBe(2);
  });

  test('PATCH stage, setter and follow-up: one prospect.updated naming them as the change log does; undo: actor undo', async () => {
    const { ws } = setup;
    const id = prospectIdOf((await eventsAfter(setup, () => world.lead(ws, { first_name: 'Paul' }))).result);
    const before = await getProspect(setup, id);
    const stages = ws.pipelines.sales?.stages ?? {};
    const { result, events } = await eventsAfter(setup, () =>
      world.call(ws, 'PATCH', `/prospects/${id}`, {
        stage: stages.fu,
        setter_id: ws.members.alice,
        follow_up_at: '2026-12-01T09:30:00+01:00',
      }),
    );
    expect(result.status).toBe(200);
    expect(body(result).changed).toEqual(['stage', 'setter', 'follow_up']);
    const prospect = await getProspect(setup, id);
    const changes = [
      { field: 'stage', before: before.stage_id, after: stages.fu },
      { field: 'setter', before: null, after: ws.members.alice },
      { field: 'follow_up', before: null, after: '2026-12-01T08:30:00.000Z' },
    ];
    expect(before.stage_id).toBe(stages.new);
    expect(withoutRequests(events)).toEqual([
      {
        id: eventId,
        type: 'prospect.updated',
        timestamp: prospect.updated_at,
        data: { prospect, changes, actor: keyActor() },
      },
    ]);
    // The change log names the same fields with the same values.
    const log = body<{ changes: { id: string; field: string; before: unknown; after: unknown }[] }>(
      await world.call(ws, 'GET', `/prospects/${id}/changes`),
    ).changes;
    expect(log.map(({ field, before: b, after }) => ({ field, before: b, after }))).toEqual(
      expect.arrayContaining(changes),
    );
    expect(log).toHaveLength(3);

    const entry = log.find((item) => item.field === 'stage') as { id: string };
    const undone = await eventsAfter(setup, () =>
      world.admin('changelog', 'undo', '--workspace', ws.workspace_id, '--entry', entry.id),
    );
    const afterUndo = await getProspect(setup, id);
    expect(afterUndo.stage_id).toBe(stages.new);
    expect(withoutRequests(undone.events)).toEqual([
      {
        id: eventId,
        type: 'prospect.updated',
        timestamp: afterUndo.updated_at,
        data: {
          prospect: afterUndo,
          changes: [{ field: 'stage', before: stages.fu, after: stages.new }],
          actor: { kind: 'undo', id: entry.id },
        },
      },
    ]);
  });

  test("PATCH of custom fields: one prospect.updated naming `fields.<key>` with the values as answered; undo: the value back; a deleted field's: none", async () => {
    const { ws } = setup;
    const edit = (fields: (config: Parameters<typeof partsOf>[0]) => ReturnType<typeof partsOf>['fields']) =>
      editWorkspaceConfig(world.deps, ws.workspace_id, (config) => ({ ...partsOf(config), fields: fields(config) }));
    await edit((config) => withNewField(config, { key: 'budget', label: 'Budget', type: 'number' }));
    await edit((config) =>
      withNewField(config, {
        key: 'interests',
        label: 'Intérêts',
        type: 'multi_choice',
        options: ['Vente', 'Coaching'],
      }),
    );
    await edit((config) => withNewField(config, { key: 'legacy', label: 'Ancien', type: 'text' }));
    const id = prospectIdOf((await eventsAfter(setup, () => world.lead(ws))).result);
    await eventsAfter(setup, () => world.call(ws, 'PATCH', `/prospects/${id}`, { fields: { budget: 12 } }));

    const { result, events } = await eventsAfter(setup, () =>
      world.call(ws, 'PATCH', `/prospects/${id}`, { fields: { budget: null, interests: 'coaching, vente' } }),
    );
    expect(body(result).changed).toEqual(['fields.budget', 'fields.interests']);
    const prospect = await getProspect(setup, id);
    expect(prospect.fields).toEqual({ budget: null, interests: ['Vente', 'Coaching'], legacy: null });
    const changes = [
      { field: 'fields.budget', before: 12, after: null },
      { field: 'fields.interests', before: null, after: ['Vente', 'Coaching'] },
    ];
    expect(withoutRequests(events)).toEqual([
      {
        id: eventId,
        type: 'prospect.updated',
        timestamp: prospect.updated_at,
        data: { prospect, changes, actor: keyActor() },
      },
    ]);

    const log = body<{ changes: { id: string; field: string }[] }>(
      await world.call(ws, 'GET', `/prospects/${id}/changes`),
    ).changes;
    const entry = log.find((item) => item.field === 'fields.interests') as { id: string };
    const undone = await eventsAfter(setup, () =>
      world.admin('changelog', 'undo', '--workspace', ws.workspace_id, '--entry', entry.id),
    );
    const afterUndo = await getProspect(setup, id);
    expect(afterUndo.fields).toEqual({ budget: null, interests: null, legacy: null });
    expect(withoutRequests(undone.events)).toEqual([
      {
        id: eventId,
        type: 'prospect.updated',
        timestamp: afterUndo.updated_at,
        data: {
          prospect: afterUndo,
          changes: [{ field: 'fields.interests', before: ['Vente', 'Coaching'], after: null }],
          actor: { kind: 'undo', id: entry.id },
        },
      },
    ]);

    // A deleted field's value is no change of an event, and no longer in the prospect it shows.
    await eventsAfter(setup, () => world.call(ws, 'PATCH', `/prospects/${id}`, { fields: { legacy: 'un' } }));
    await edit((config) => withDeletedField(config, 'legacy', world.now().toISOString()));
    const stage = ws.pipelines.sales?.stages.fu as string;
    const moved = await eventsAfter(setup, () => world.call(ws, 'PATCH', `/prospects/${id}`, { stage }));
    expect(moved.events.map((event) => event.data)).toEqual([
      expect.objectContaining({
        prospect: expect.objectContaining({ fields: { budget: null, interests: null } }),
        changes: [{ field: 'stage', before: expect.any(String), after: stage }],
      }),
    ]);
  });

  test('POST and DELETE of a tag: prospect.tag_added and prospect.tag_removed with data.tag', async () => {
    const { ws } = setup;
    const id = prospectIdOf((await eventsAfter(setup, () => world.lead(ws))).result);
    const hot = ws.tags.hot as string;

    const added = await eventsAfter(setup, () => world.call(ws, 'POST', `/prospects/${id}/tags`, { tag: hot }));
    expect(added.result.status).toBe(201);
    const withTag = await getProspect(setup, id);
    expect(withoutRequests(added.events)).toEqual([
      {
        id: eventId,
        type: 'prospect.tag_added',
        timestamp: withTag.updated_at,
        data: {
          prospect: withTag,
          tag: { id: hot, name: 'Chaud' },
          changes: [{ field: 'tags', before: null, after: hot }],
          actor: keyActor(),
        },
      },
    ]);

    const removed = await eventsAfter(setup, () => world.call(ws, 'DELETE', `/prospects/${id}/tags/Chaud`));
    expect(body(removed.result)).toMatchObject({ outcome: 'removed' });
    const withoutTag = await getProspect(setup, id);
    expect(withoutTag.tags).toEqual([]);
    expect(withoutRequests(removed.events)).toEqual([
      {
        id: eventId,
        type: 'prospect.tag_removed',
        timestamp: withoutTag.updated_at,
        data: {
          prospect: withoutTag,
          tag: { id: hot, name: 'Chaud' },
          changes: [{ field: 'tags', before: hot, after: null }],
          actor: keyActor(),
        },
      },
    ]);
    // Same write, a different event each: the ids differ.
    expect(added.events[0]?.id).not.toBe(removed.events[0]?.id);
  });

  test('POST a note (emoji, NFD): prospect.note_added with data.note, its content byte for byte', async () => {
    const { ws } = setup;
    const id = prospectIdOf((await eventsAfter(setup, () => world.lead(ws))).result);
    const content = 'Rappele\u0301e 🎉👍🏽 : pre\u0302te a\u0300 signer\nligne 2 « ok »';
    expect(content.normalize('NFC')).not.toBe(content);

    const { result, events } = await eventsAfter(setup, () =>
      world.call(ws, 'POST', `/prospects/${id}/notes`, { content }),
    );
    expect(result.status).toBe(201);
    const noteId = body<{ id: string }>(result).id;
    const prospect = await getProspect(setup, id);
    const notes = body<{ notes: unknown[] }>(await world.call(ws, 'GET', `/prospects/${id}/notes`)).notes;
    expect(notes).toHaveLength(1);
    expect(withoutRequests(events)).toEqual([
      {
        id: eventId,
        type: 'prospect.note_added',
        timestamp: body(result).created_at,
        data: {
          prospect,
          note: notes[0],
          changes: [{ field: 'note', before: null, after: noteId }],
          actor: keyActor(),
        },
      },
    ]);
    const note = (events[0]?.data.note ?? {}) as { id: string; content: string; date: string; created_at: string };
    expect(Buffer.from(note.content, 'utf8').equals(Buffer.from(content, 'utf8'))).toBe(true);
    // JSON escapes the line break only: the NFD marks and the emoji travel as sent.
    expect(events[0]?.request.body).toContain(JSON.stringify(content).slice(1, -1));
    expect(note).toEqual({ id: noteId, content, date: note.created_at, created_at: body(result).created_at });
  });

  test('recruitment: a new candidate → candidate.created; the same again → candidate.application_received', async () => {
    const { ws } = setup;
    const application = {
      email: `camille.${randomUUID()}@exemple.test`,
      name: 'Camille Dupont',
      phone: '+33600000000',
      position: 'Développeuse backend',
      pipeline: 'Développeurs',
      source: 'Typeform',
      answers: { 'Années d’expérience': '5' },
    };
    const first = await eventsAfter(setup, () => world.apply(ws, application));
    expect(body(first.result)).toMatchObject({ ok: true, action: 'created' });
    const talentId = body<{ talent_id: string }>(first.result).talent_id;
    const shown = (await world.admin('candidate', 'show', '--workspace', ws.workspace_id, '--id', talentId)) as {
      candidate: Record<string, unknown>;
      notes: { id: string; created_at: string }[];
    };
    expect(shown.candidate).toMatchObject({ id: talentId, first_name: 'Camille', last_name: 'Dupont' });
    expect(withoutRequests(first.events)).toEqual([
      {
        id: eventId,
        type: 'candidate.created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { candidate: shown.candidate, actor: webhookActor() },
      },
    ]);

    const again = await eventsAfter(setup, () =>
      world.apply(ws, { ...application, answers: { 'Disponible ?': 'Dans un mois 🚀' } }),
    );
    expect(body(again.result)).toMatchObject({ ok: true, action: 'existing', talent_id: talentId });
    const reshown = (await world.admin('candidate', 'show', '--workspace', ws.workspace_id, '--id', talentId)) as {
      candidate: Record<string, unknown>;
      notes: { id: string; content: string; created_at: string }[];
    };
    const note = reshown.notes[0] as { id: string; content: string; created_at: string };
    expect(note.content).toContain('Dans un mois 🚀');
    expect(withoutRequests(again.events)).toEqual([
      {
        id: eventId,
        type: 'candidate.application_received',
        timestamp: note.created_at,
        data: {
          candidate: reshown.candidate,
          note: { id: note.id, content: note.content, created_at: note.created_at },
          actor: webhookActor(),
        },
      },
    ]);
  });
});

describe('no event without a change', () => {
  test('refused calls (401, 400, 404, 409, 422) and no-ops send nothing', async () => {
    const setup = await subscribed();
    const { ws } = setup;
    const id = prospectIdOf((await eventsAfter(setup, () => world.lead(ws, { first_name: 'Inès' }))).result);
    const vip = ws.tags.vip as string;
    expect(
      (await eventsAfter(setup, () => world.call(ws, 'POST', `/prospects/${id}/tags`, { tag: vip }))).events,
    ).toHaveLength(1);
    const deliveriesBefore = await world.deliveries(ws, setup.subscription.id);
    const prospectBefore = await getProspect(setup, id);
    const endpoint = { endpoint_id: ws.webhook?.endpoint_id as string };
    const stages = ws.pipelines.sales?.stages ?? {};

    const { result: statuses, events } = await eventsAfter(setup, async () => {
      const answers = [
        // 401: a wrong webhook token, a wrong API key
        await world.api.request('POST', '/webhooks/ingest-lead', {
          query: endpoint,
          headers: { Authorization: 'Bearer crm_whk_faux' },
          body: { email: `x.${randomUUID()}@exemple.test` },
        }),
        await world.api.request('PATCH', `/prospects/${id}`, {
          headers: { Authorization: 'Bearer crm_key_faux' },
          body: { setter_id: ws.members.bob },
        }),
        // 400: a lead without contact, a blank note, an application without e-mail
        await world.api.request('POST', '/webhooks/ingest-lead', {
          query: endpoint,
          headers: { Authorization: `Bearer ${ws.webhook?.token}` },
          body: { first_name: 'Sans contact' },
        }),
        await world.call(ws, 'POST', `/prospects/${id}/notes`, { content: '   ' }),
        await world.apply(ws, { name: 'Sans e-mail', pipeline: 'Développeurs' }),
        // 404: an unknown prospect
        await world.call(ws, 'PATCH', `/prospects/${randomUUID()}`, { setter_id: ws.members.bob }),
        // 409: a move toward Closé, with a setter that must not be applied either
        await world.call(ws, 'PATCH', `/prospects/${id}`, { stage: stages.won, setter_id: ws.members.bob }),
        // 422: an unknown stage, member, tag
        await world.call(ws, 'PATCH', `/prospects/${id}`, { stage: 'Étape inconnue', setter_id: ws.members.bob }),
        await world.call(ws, 'PATCH', `/prospects/${id}`, { setter_id: randomUUID() }),
        await world.call(ws, 'POST', `/prospects/${id}/tags`, { tag: 'Inconnu' }),
      ];
      const noOps = [
        await world.call(ws, 'PATCH', `/prospects/${id}`, { stage: prospectBefore.stage_id }),
        await world.call(ws, 'PATCH', `/prospects/${id}`, { setter_id: null, closer_id: null, follow_up_at: null }),
        await world.call(ws, 'POST', `/prospects/${id}/tags`, { tag: 'VIP' }),
        await world.call(ws, 'DELETE', `/prospects/${id}/tags/Chaud`),
        await world.lead(ws, { email: prospectBefore.email, first_name: 'Inès' }),
      ];
      return {
        refused: answers.map((answer) => answer.status),
        noOps: noOps.map((answer) => [
          answer.status,
          (answer.body as Record<string, unknown>).changed ??
            (answer.body as Record<string, unknown>).outcome ??
            (answer.body as Record<string, unknown>).status,
        ]),
      };
    });
    expect(statuses).toEqual({
      refused: [401, 401, 400, 400, 400, 404, 409, 422, 422, 422],
      noOps: [
        [200, []],
        [200, []],
        [200, 'already_present'],
        [200, 'absent'],
        [200, 'existing'],
      ],
    });
    expect(events).toEqual([]);
    // The known lead is a write (its version rises, docs/api.md#prospect) that changes no field shown.
    expect(await getProspect(setup, id)).toEqual({ ...prospectBefore, updated_at: expect.any(String) });
    expect(await world.deliveries(ws, setup.subscription.id)).toEqual(deliveriesBefore);
  });

  test('the same stream records handled again make no new delivery and no new POST', async () => {
    const setup = await subscribed();
    const { ws } = setup;
    const recorder = await world.recordStream();
    const { result } = await eventsAfter(setup, () =>
      world.lead(ws, { first_name: 'Noé', tag_ids: [ws.tags.vip as string] }),
    );
    const id = prospectIdOf(result);
    await eventsAfter(setup, async () => {
      await world.call(ws, 'PATCH', `/prospects/${id}`, { setter_id: ws.members.alice });
      await world.call(ws, 'POST', `/prospects/${id}/notes`, { content: 'Une note' });
      await world.call(ws, 'DELETE', `/prospects/${id}/tags/VIP`);
    });
    await recorder.stop();
    const posts = setup.receiver.requests.length;
    expect(posts).toBe(4);
    const deliveries = await world.deliveries(ws, setup.subscription.id);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    const records = recorder.events.flatMap((event) => event.Records);
    expect(
      records.filter((record) => JSON.stringify(record.dynamodb?.Keys).includes(id)).length,
    ).toBeGreaterThanOrEqual(4);

    const handler = await world.streamHandler();
    for (const event of recorder.events) expect(await handler(event)).toEqual({ batchItemFailures: [] });
    // Every record again in one batch, as a retried batch would come.
    expect(await handler({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(world.pipeline.queued()).toEqual([]);
    await world.settle();
    expect(setup.receiver.requests).toHaveLength(posts);
    expect(await world.deliveries(ws, setup.subscription.id)).toEqual(deliveries);
  });
});

describe('signature (Standard Webhooks)', () => {
  test('verifies with the secret printed by subscription create, and with no other secret or body', async () => {
    const ws = await world.seed(aWorkspace({ prospects: [] }));
    const receiver = await world.receiver();
    const run = await world.adminRun(
      'subscription',
      'create',
      '--workspace',
      ws.workspace_id,
      '--url',
      receiver.url,
      '--events',
      'prospect.created',
    );
    expect(run.code).toBe(0);
    const secret = /Secret\s+: (whsec_\S+)/.exec(run.stdout)?.[1] as string;
    const other = (await world.subscribe(ws, await world.receiver(), 'prospect.created')).secret;
    const lead = await world.lead(ws, { first_name: 'Éloïse' });
    await world.settle();
    const [request] = receiver.requests;
    if (!request) throw new Error('nothing received');
    expect(request.headers['webhook-id']).toEqual(eventId);
    expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verified(secret, request)).toMatchObject({
      type: 'prospect.created',
      data: { prospect: { id: prospectIdOf(lead), first_name: 'Éloïse' } },
    });
    expect(() => verified(other, request)).toThrow();
    expect(() => verified(secret, { ...request, body: request.body.replace('Éloïse', 'Eloise') })).toThrow();
  });
});

describe('isolation', () => {
  test('two workspaces: each receiver sees only its own workspace events', async () => {
    const [a, b] = await Promise.all([subscribed(), subscribed()]);
    if (!a || !b) throw new Error('no setup');
    const ids = { a: new Set<string>(), b: new Set<string>() };
    for (const [setup, own] of [
      [a, ids.a],
      [b, ids.b],
    ] as const) {
      for (let index = 0; index < 3; index += 1) {
        const id = prospectIdOf(await world.lead(setup.ws));
        own.add(id);
        await world.call(setup.ws, 'POST', `/prospects/${id}/tags`, { tag: 'VIP' });
      }
      own.add(
        body<{ talent_id: string }>(
          await world.apply(setup.ws, { email: `${randomUUID()}@exemple.test`, name: 'Iso Lé' }),
        ).talent_id,
      );
    }
    await world.settle();
    for (const [setup, own] of [
      [a, ids.a],
      [b, ids.b],
    ] as const) {
      const events = eventsOf(setup.receiver.requests);
      expect(events).toHaveLength(7);
      const seen = new Set(events.map((event) => ((event.data.prospect ?? event.data.candidate) as { id: string }).id));
      expect(seen).toEqual(own);
      for (const event of events) verified(setup.subscription.secret, event.request);
    }
  });
});

describe('delivery over time (the clock moves only when a test moves it, from here on)', () => {
  // A retry due 5 s after a failure never comes while a test still checks that failure, however
  // slowly a loaded machine runs the checks: only `world.advance` makes it due.
  beforeAll(() => world.stopClock());

  test('a receiver that never answers fails its attempt at the 10 s timeout while another subscription gets the same event at once', async () => {
    const ws = await world.seed(aWorkspace({ prospects: [] }));
    const [slow, fast] = [await world.receiver(), await world.receiver()];
    const slowSubscription = await world.subscribe(ws, slow);
    const fastSubscription = await world.subscribe(ws, fast);
    slow.answerWith(() => ({ status: null }));
    const sentAt = Date.now();
    await world.lead(ws);
    let fastDelivery: DeliveryView | undefined;
    while (fastDelivery?.status !== 'delivered') [fastDelivery] = await world.deliveries(ws, fastSubscription.id);
    // Recorded while the slow attempt still waits: the fast delivery was not queued behind it.
    const slowEndedFirst = slow.requests[0]?.endedAt !== undefined;
    // Only the sender's own timeout can end the slow attempt: the pipeline settles once it has.
    await world.settle();

    expect(fastDelivery).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204 });
    expect(slowEndedFirst).toBe(false);
    const [slowDelivery] = await world.deliveries(ws, slowSubscription.id);
    expect(slowDelivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: null,
      last_error: messages.delivery.timeout(deliveryTimeoutMs / 1000),
      event_id: fastDelivery.event_id,
    });
    expect([slow.requests.length, fast.requests.length]).toEqual([1, 1]);
    const [slowRequest, fastRequest] = [slow.requests[0] as ReceivedRequest, fast.requests[0] as ReceivedRequest];
    expect(slowRequest.headers['webhook-id']).toBe(fastRequest.headers['webhook-id']);
    // Dropped by the sender at its timeout: a timer started after `sentAt`, and a timer never fires early.
    while (slowRequest.endedAt === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(slowRequest.endedAt - sentAt).toBeGreaterThanOrEqual(deliveryTimeoutMs);

    slow.answerWith(() => ({ status: 200 }));
    world.advance(retryDelaysSeconds[0] as number);
    await world.settle();
    expect(slow.requests).toHaveLength(2);
    expect((await world.deliveries(ws, slowSubscription.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(fast.requests).toHaveLength(1);
  }, 60_000);

  test('a failing receiver is tried at +5 s, +5 min, +30 min, +2 h, +5 h, +10 h, +10 h, then failed; redeliver: same webhook-id', async () => {
    const setup = await subscribed();
    const { ws, receiver, subscription } = setup;
    receiver.answerWith(() => ({ status: 503 }));
    const logs = captureLogs('WARN');
    // The world's time of each attempt: the clock stands still while it runs.
    let attemptedAt = world.now().getTime();
    const lead = await world.lead(ws);
    await world.settle();
    expect(receiver.requests).toHaveLength(1);
    let [delivery] = await world.deliveries(ws, subscription.id);
    expect(delivery).toMatchObject({
      type: 'prospect.created',
      status: 'pending',
      attempts: 1,
      last_status_code: 503,
      last_error: messages.delivery.unexpectedStatus(503),
    });

    for (const [index, delay] of retryDelaysSeconds.entries()) {
      const previous = delivery as DeliveryView;
      // Scheduled exactly `delay` after the attempt before.
      expect(previous.next_attempt_at).toBe(new Date(attemptedAt + delay * 1000).toISOString());

      // Two seconds before it is due: nothing (a wait beyond 15 minutes goes through chained queue delays).
      world.advance(delay - 2);
      await world.settle();
      expect(receiver.requests).toHaveLength(index + 1);

      world.advance(2);
      attemptedAt = world.now().getTime();
      await world.settle();
      expect(receiver.requests).toHaveLength(index + 2);
      [delivery] = await world.deliveries(ws, subscription.id);
      expect(delivery).toMatchObject({ attempts: index + 2, last_status_code: 503 });
      if (index < retryDelaysSeconds.length - 1) expect(delivery).toMatchObject({ status: 'pending' });
    }
    expect(delivery).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    const failedLines = logs.lines().filter((line) => line.event === 'delivery_failed');
    logs.restore();
    expect(failedLines).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: 'Livraison abandonnée',
        event: 'delivery_failed',
        workspace_id: ws.workspace_id,
        subscription_id: subscription.id,
        delivery_id: delivery?.id,
      }),
    ]);

    // Same event on every attempt: one webhook-id, one body; a timestamp per attempt.
    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    expect(ids).toEqual(new Set([delivery?.event_id]));
    expect(new Set(receiver.requests.map((request) => request.body)).size).toBe(1);
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-timestamp'])).size).toBe(8);
    expect(JSON.parse(receiver.requests[0]?.body ?? '{}').data.prospect.id).toBe(prospectIdOf(lead));

    // Nothing after the last attempt.
    world.advance(48 * 3600);
    await world.settle();
    expect(receiver.requests).toHaveLength(8);
    expect(await world.deliveries(ws, subscription.id, 'failed')).toEqual([delivery]);
    expect(await world.deliveries(ws, subscription.id, 'pending')).toEqual([]);

    receiver.answerWith(() => ({ status: 204 }));
    const redelivered = await world.admin(
      'subscription',
      'redeliver',
      '--workspace',
      ws.workspace_id,
      '--delivery',
      delivery?.id as string,
    );
    expect(redelivered).toEqual({
      ...delivery,
      status: 'delivered',
      attempts: 9,
      last_status_code: 204,
      last_error: null,
    });
    expect(receiver.requests).toHaveLength(9);
    expect(receiver.requests[8]?.headers['webhook-id']).toBe(delivery?.event_id);
    expect(receiver.requests[8]?.body).toBe(receiver.requests[0]?.body);
    world.advance(48 * 3600);
    await world.settle();
    expect(receiver.requests).toHaveLength(9);
  }, 60_000);

  test('disable: events meanwhile are never sent, even after enable; a pending delivery of a disabled subscription ends failed', async () => {
    const setup = await subscribed();
    const { ws, receiver, subscription } = setup;
    const byId = ['--workspace', ws.workspace_id, '--id', subscription.id];
    expect(await world.admin('subscription', 'disable', ...byId)).toEqual({ id: subscription.id, active: false });
    await world.lead(ws);
    await world.settle();
    expect(await world.admin('subscription', 'enable', ...byId)).toEqual({ id: subscription.id, active: true });
    await world.settle();
    world.advance(24 * 3600);
    await world.settle();
    expect(receiver.requests).toEqual([]);
    expect(await world.deliveries(ws, subscription.id)).toEqual([]);

    // Enabled again: the next event is sent.
    const next = await world.lead(ws);
    await world.settle();
    expect(eventsOf(receiver.requests).map((event) => (event.data.prospect as { id: string }).id)).toEqual([
      prospectIdOf(next),
    ]);

    // A failed first attempt, then disabled before the retry: no retry, the delivery ends failed.
    receiver.answerWith(() => ({ status: 500 }));
    await world.lead(ws);
    await world.settle();
    expect(receiver.requests).toHaveLength(2);
    await world.admin('subscription', 'disable', ...byId);
    world.advance(retryDelaysSeconds[0] as number);
    await world.settle();
    expect(receiver.requests).toHaveLength(2);
    // Both deliveries of the enabled subscription were made at the same (stopped) time: by status.
    expect(await world.deliveries(ws, subscription.id, 'failed')).toEqual([
      expect.objectContaining({ attempts: 1, last_error: messages.delivery.subscriptionDisabled }),
    ]);
    await world.admin('subscription', 'enable', ...byId);
    world.advance(24 * 3600);
    await world.settle();
    expect(receiver.requests).toHaveLength(2);
  }, 60_000);

  test('delete: nothing more, neither the pending retry nor new events', async () => {
    const setup = await subscribed();
    const { ws, receiver, subscription } = setup;
    receiver.answerWith(() => ({ status: 503 }));
    await world.lead(ws);
    await world.settle();
    expect(receiver.requests).toHaveLength(1);
    expect(
      await world.admin('subscription', 'delete', '--workspace', ws.workspace_id, '--id', subscription.id),
    ).toEqual({ id: subscription.id, deleted: true });
    receiver.answerWith(() => ({ status: 204 }));
    world.advance(retryDelaysSeconds[0] as number);
    await world.settle();
    await world.lead(ws);
    await world.settle();
    world.advance(24 * 3600);
    await world.settle();
    expect(receiver.requests).toHaveLength(1);
    const listed = await world.adminRun(
      'subscription',
      'deliveries',
      '--workspace',
      ws.workspace_id,
      '--id',
      subscription.id,
    );
    expect(listed.code).toBe(2);
  }, 60_000);
});
