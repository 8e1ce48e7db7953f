import { productionDeps } from '../../lib/storage/client';
import { runAdminInProcess } from '../support/admin-cli';
import { startTestApi } from '../support/local-api';
import { seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

/**
 * The webhook call journal through the admin command line (docs/api.md#webhook-call-journal), its `main` in
 * process (the process around it is proven by test/e2e/admin-cli.test.ts): a call refused by the lead webhook,
 * then `webhook calls --failed --json`, `webhook call --json` and `webhook replay --json`, each exactly one JSON
 * document on stdout.
 */
it('webhook calls, call and replay --json print one document each', async () => {
  const seed = await seedTestWorkspace();
  const api = await startTestApi();
  try {
    const refused = await api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: seed.webhook?.endpoint_id as string },
      headers: { 'x-webhook-token': seed.webhook?.token as string },
      body: { first_name: 'Sans contact' },
    });
    expect(refused.status).toBe(400);
  } finally {
    await api.close();
  }
  const workspace = ['--workspace', seed.workspace_id];

  const listed = await runAdminInProcess(deps, 'webhook', 'calls', ...workspace, '--failed', '--json');
  expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
  const { calls } = JSON.parse(listed.stdout);
  expect(calls).toEqual([
    {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      at: expect.any(String),
      route: 'ingest-lead',
      status: 400,
      outcome: 'invalid_payload',
      record_id: null,
      placement: null,
      pipeline_id: null,
      stage_id: null,
      warnings: [],
      message: expect.stringMatching(/\S/),
      request_id: expect.any(String),
      count: 1,
      body_truncated: false,
    },
  ]);

  const shown = await runAdminInProcess(deps, 'webhook', 'call', ...workspace, '--id', calls[0].id, '--json');
  expect({ code: shown.code, stderr: shown.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(shown.stdout)).toEqual({ call: calls[0], body: { first_name: 'Sans contact' } });

  const replayed = await runAdminInProcess(deps, 'webhook', 'replay', ...workspace, '--id', calls[0].id, '--json');
  expect({ code: replayed.code, stderr: replayed.stderr }).toEqual({ code: 0, stderr: '' });
  const replay = JSON.parse(replayed.stdout);
  expect(replay).toEqual({
    call: {
      ...calls[0],
      id: expect.any(String),
      at: expect.any(String),
      request_id: expect.stringMatching(/^admin-replay-/),
    },
    response: { status: 400, body: expect.objectContaining({ error: expect.anything() }) },
  });
  expect(replay.call.id).not.toBe(calls[0].id);

  const after = JSON.parse((await runAdminInProcess(deps, 'webhook', 'calls', ...workspace, '--json')).stdout);
  expect(after.calls.map((call: { id: string }) => call.id)).toEqual([replay.call.id, calls[0].id]);
});
