import { jest } from '@jest/globals';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookCallView } from '../../lib/domain/webhook-call-view';
import { productionDeps } from '../../lib/storage/client';
import { listProspectPhones } from '../../tools/admin/storage/phone-index';
import { runAdminInProcess } from '../support/admin-cli';
import { startTestApi } from '../support/local-api';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * `webhook replay` runs a call as a live call of its endpoint would run, with
 * the workspace's settings the endpoint carries. In a workspace matching phones in E.164
 * (docs/api.md#workspaces), a lead lost to an outage and replayed finds the prospect that has its number in
 * another format, as the live call would have: `existing`, no duplicate.
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

/** The table as an outage leaves it for writes: every transaction fails (a known lead's write is one). */
function transactionsFail(db: DynamoDBDocumentClient): DynamoDBDocumentClient {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string } }) =>
        command.constructor.name === 'TransactWriteCommand'
          ? Promise.reject(new Error('DynamoDB injoignable (test)'))
          : target.send(command as never);
    },
  });
}

async function admin(...args: string[]): Promise<Record<string, unknown>> {
  const run = await runAdminInProcess(deps, ...args, '--json');
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

it('replays a lead of an e164 workspace with its phone matching: existing, no duplicate', async () => {
  const ws = await seedTestWorkspace(aWorkspace({ prospects: [] }));
  const workspace = ['--workspace', ws.workspace_id];
  expect(await admin('workspace', 'set', ...workspace, '--phone-matching', 'e164')).toMatchObject({
    phone_matching: 'e164',
    phone_region: 'FR',
  });
  const lead = (phone: string) => ({
    query: { endpoint_id: ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${ws.webhook?.token}` },
    body: { first_name: 'Tel', phone },
  });

  const api = await startTestApi();
  const created = await api.request('POST', '/webhooks/ingest-lead', lead('06 12 34 56 78'));
  await api.close();
  expect(created.body).toMatchObject({ status: 'created' });
  const prospectId = (created.body as { prospect_id: string }).prospect_id;

  // The same number in international format, lost to an outage of the table's writes: 500, journaled with its body.
  const outage = await startTestApi({ db: transactionsFail(deps.db) });
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const lost = await outage.request('POST', '/webhooks/ingest-lead', lead('+33 6 12 34 56 78'));
  quiet.mockRestore();
  await outage.close();
  expect(lost.status).toBe(500);
  const [failed] = (await admin('webhook', 'calls', '--failed', ...workspace)).calls as WebhookCallView[];
  expect(failed).toMatchObject({ status: 500, request_id: lost.headers.get('x-request-id') });
  expect((await admin('webhook', 'call', ...workspace, '--id', failed?.id as string)).body).toEqual({
    first_name: 'Tel',
    phone: '+33 6 12 34 56 78',
  });

  const replayed = await admin('webhook', 'replay', ...workspace, '--id', failed?.id as string);
  expect(replayed).toMatchObject({
    call: { status: 200, outcome: 'existing', record_id: prospectId },
    response: { status: 200, body: { status: 'existing', prospect_id: prospectId } },
  });
  expect((await listProspectPhones(deps, ws.workspace_id)).map((prospect) => prospect.id)).toEqual([prospectId]);
});
