import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookCallView } from '../../lib/domain/webhook-call-view';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { derivedTimeOrderedId, keys } from '../../lib/storage/table-items';
import { eventItems } from '../../lib/storage/event-items';
import { runAdminInProcess } from '../support/admin-cli';
import { startTestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * docs/api.md#webhook-call-journal: a kept body is cut at 64 KB, and what is past its 30 days (journal entries,
 * deliveries) is never listed, shown or replayed, even while DynamoDB's TTL has not removed it yet.
 * Calls over HTTP through the local API; the journal read as the administrator reads it, on a
 * clock the test sets.
 */

const day = 24 * 3600 * 1000;
const deps = productionDeps();
afterAll(() => deps.db.destroy());

/** The admin command line at `time`. */
const adminAt = (time: number, ...args: string[]) =>
  runAdminInProcess({ ...deps, clock: () => new Date(time) } satisfies Deps, ...args);

async function json(time: number, ...args: string[]): Promise<Record<string, unknown>> {
  const run = await adminAt(time, ...args, '--json');
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** A command the administrator must correct: exit 2, nothing on stdout; its message. */
async function refused(time: number, ...args: string[]): Promise<string> {
  const run = await adminAt(time, ...args, '--json');
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  return run.stderr;
}

/** A failed authenticated lead (no e-mail, phone or social_url: 400), with `body`, answered at `time`. */
async function aFailedLead(time: number, body: unknown): Promise<{ workspace: string; call: WebhookCallView }> {
  const ws = await seedTestWorkspace();
  const api = await startTestApi({ clock: () => new Date(time) });
  try {
    const response = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${ws.webhook?.token}` },
      body,
    });
    expect(response.body).toMatchObject({ error: 'invalid_payload' });
  } finally {
    await api.close();
  }
  const { calls } = (await json(time, 'webhook', 'calls', '--workspace', ws.workspace_id)) as {
    calls: WebhookCallView[];
  };
  expect(calls).toHaveLength(1);
  return { workspace: ws.workspace_id, call: calls[0] as WebhookCallView };
}

describe('a kept body is cut at 64 KB', () => {
  it('says body_truncated, shows its first 64 KB as raw text, and is not replayed (exit 2)', async () => {
    const now = Date.now();
    // About 80 000 bytes; « é » takes two, and the 65 536th byte is the first half of one: it goes whole.
    const sent = JSON.stringify({ first_name: 'Sans contact', commentaire: `x${'é'.repeat(40_000)}` });
    const { workspace, call } = await aFailedLead(now, sent);
    expect(call).toMatchObject({ status: 400, outcome: 'invalid_payload', count: 1, body_truncated: true });

    const shown = (await json(now, 'webhook', 'call', '--workspace', workspace, '--id', call.id)) as {
      call: WebhookCallView;
      body: { raw: string };
    };
    expect(shown.call).toEqual(call);
    expect(Object.keys(shown.body)).toEqual(['raw']);
    expect(sent.startsWith(shown.body.raw)).toBe(true);
    expect(Buffer.byteLength(shown.body.raw)).toBe(65_535);
    expect(shown.body.raw).not.toContain('\uFFFD');

    expect(await refused(now, 'webhook', 'replay', '--workspace', workspace, '--id', call.id)).toBe(
      `Erreur : Le corps de l'appel ${call.id} a été tronqué à 64 Ko à sa réception : il ne peut pas être rejoué tel qu'il a été envoyé.\n`,
    );
    expect((await json(now, 'webhook', 'calls', '--workspace', workspace)).calls).toEqual([call]);
  });

  it('keeps a body of exactly 64 KB whole, and replays it', async () => {
    const now = Date.now();
    const head = JSON.stringify({ first_name: 'Juste', commentaire: '' });
    const sent = `${head.slice(0, -2)}${'a'.repeat(65_536 - head.length)}"}`;
    expect(Buffer.byteLength(sent)).toBe(65_536);
    const { workspace, call } = await aFailedLead(now, sent);
    expect(call.body_truncated).toBe(false);
    const shown = await json(now, 'webhook', 'call', '--workspace', workspace, '--id', call.id);
    expect(shown.body).toEqual(JSON.parse(sent));
    const replayed = (await json(now, 'webhook', 'replay', '--workspace', workspace, '--id', call.id)) as {
      response: { status: number };
    };
    expect(replayed.response.status).toBe(400);
  });
});

describe('past their 30 days', () => {
  it('an entry is no longer listed, shown or replayed, though DynamoDB still holds it', async () => {
    const sentAt = Math.floor((Date.now() - 31 * day) / 1000) * 1000;
    const { workspace, call } = await aFailedLead(sentAt, { first_name: 'Ancien' });
    const lastSecond = sentAt + 30 * day - 1000;
    const expiry = sentAt + 30 * day;

    expect((await json(lastSecond, 'webhook', 'calls', '--workspace', workspace)).calls).toEqual([call]);
    expect((await json(lastSecond, 'webhook', 'call', '--workspace', workspace, '--id', call.id)).call).toEqual(call);

    for (const time of [expiry, Date.now()]) {
      expect(await json(time, 'webhook', 'calls', '--workspace', workspace)).toEqual({ calls: [] });
      expect(await json(time, 'webhook', 'calls', '--failed', '--workspace', workspace)).toEqual({ calls: [] });
      for (const command of ['call', 'replay']) {
        expect(await refused(time, 'webhook', command, '--workspace', workspace, '--id', call.id)).toBe(
          `Erreur : Appel du webhook inconnu dans cet espace : ${call.id}\n`,
        );
      }
    }
    const { Item } = await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: keys.webhookCall(workspace, call.id), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ id: call.id, expires_at: expiry / 1000 });
  });

  it('a delivery is no longer listed', async () => {
    const { workspace_id: workspace } = await seedTestWorkspace(aWorkspace({ prospects: [] }));
    const { id: subscription } = (await json(
      Date.now(),
      ...['subscription', 'create', '--workspace', workspace, '--url', 'https://exemple.fr/crm'],
    )) as { id: string };
    const aDelivery = (createdAt: number) => {
      const at = new Date(createdAt);
      const eventId = derivedTimeOrderedId(at, `expiry#${randomUUID()}`);
      return eventItems.delivery({
        id: derivedTimeOrderedId(at, `${eventId}#${subscription}`),
        workspace_id: workspace,
        subscription_id: subscription,
        event_id: eventId,
        event_type: 'prospect.created',
        payload: '{}',
        status: 'failed',
        attempts: 8,
        step: 7,
        last_status_code: 503,
        last_error: 'Réponse HTTP 503 : une réponse 2xx est attendue.',
        next_attempt_at: null,
        created_at: at.toISOString(),
        expires_at: Math.floor(createdAt / 1000) + 30 * 24 * 3600,
      });
    };
    const old = aDelivery(Math.floor((Date.now() - 31 * day) / 1000) * 1000);
    const recent = aDelivery(Date.now() - day);
    await Promise.all([old, recent].map((Item) => deps.db.send(new PutCommand({ TableName: deps.tableName, Item }))));

    const listed = async (time: number) =>
      (
        (await json(time, 'subscription', 'deliveries', '--workspace', workspace, '--id', subscription)) as {
          deliveries: { id: string }[];
        }
      ).deliveries.map((delivery) => delivery.id);
    expect(await listed(old.expires_at * 1000 - 1000)).toEqual([recent.id, old.id]);
    expect(await listed(old.expires_at * 1000)).toEqual([recent.id]);
    expect(await listed(Date.now())).toEqual([recent.id]);
    expect(await listed(recent.expires_at * 1000)).toEqual([]);
  });
});
