import { randomUUID } from 'node:crypto';
import { showProspect } from '../../lib/settings/prospects';
import type { SeedDescription, SeedOutput } from '../../tools/seed/seed';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { startTestApi, type ApiResponse, type TestApi } from './local-api';
import { aWorkspace, seedTestWorkspace } from './seed';

export type SeededApi = {
  /** A client of the test DynamoDB Local, for checks beside the API. */
  deps: Deps;
  api: TestApi;
  ws: SeedOutput;
  /** A Prospect API call with one of the seed's keys (`admin` by default). */
  call: (method: string, path: string, body?: unknown, key?: string) => Promise<ApiResponse>;
  /** A lead sent through the lead webhook with the seed's token (a new e-mail unless given). */
  lead: (body?: object) => Promise<ApiResponse>;
  /** A prospect of its own for a test, so tests never see each other's changes. */
  aProspect: (body?: object) => Promise<string>;
  show: (prospectId: string) => ReturnType<typeof showProspect>;
};

/**
 * The end-to-end set-up most test files share: a workspace of their own (the full description by
 * default), the local API over the run's DynamoDB Local, closed after the file.
 */
export function useSeededApi(description: SeedDescription = aWorkspace()): SeededApi {
  const deps = productionDeps();
  const world = { deps } as SeededApi;
  beforeAll(async () => {
    world.ws = await seedTestWorkspace(description);
    world.api = await startTestApi();
  });
  afterAll(async () => {
    await world.api.close();
    deps.db.destroy();
  });
  world.call = (method, path, body, key = 'admin') =>
    world.api.request(method, path, { headers: { Authorization: `Bearer ${world.ws.api_keys[key]?.secret}` }, body });
  world.lead = (body = {}) =>
    world.api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
      body: { email: `${randomUUID()}@test.fr`, ...body },
    });
  world.aProspect = async (body) => ((await world.lead(body)).body as { prospect_id: string }).prospect_id;
  world.show = (prospectId) => showProspect(deps, { workspaceId: world.ws.workspace_id, prospectId });
  return world;
}
