import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { seedWorkspace } from '../../lib/admin/seed';
import { productionDeps, type Deps } from '../../lib/deps';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { routeById, routes } from '../../lib/routes';
import { settingsFirstEvents } from '../../tools/bench/functions';
import { createBenchPeople } from '../../tools/bench/settings';
import { benchWorkspaceDescription, sender } from '../../tools/bench/workspace';
import { aLambdaContext } from '../support/events';
import { startLocalApi, type TestApi } from '../support/local-api';

/*
 * The bench's cold starts time each function on its first event and refuse a first answer that is not a 2xx
 * (tools/bench/functions.ts): the settings routes' events, built as the bench builds them against the run's
 * identity provider, each answered 2xx by its function on two successive cold starts (a password changed, a reset
 * code used: each run needs its own).
 */

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const runs = 2;
const deps = productionDeps();
let api: TestApi;

let workspaceId: string;

beforeAll(async () => {
  await createBenchPeople(poolIdentityProvider(), runs);
  // The bench's workspace, whose admin is the person who signs in (tools/bench/workspace.json).
  workspaceId = (await seedWorkspace(deps, benchWorkspaceDescription)).workspace_id;
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

test('every settings route’s first event is answered 2xx on each cold start', async () => {
  const events = await settingsFirstEvents(sender(api.url), runs, workspaceId);
  const answers: Record<string, number[]> = {};
  for (let run = 0; run < runs; run += 1) {
    for (const [routeId, first] of events) {
      // A fresh instance each run, as a cold start is.
      const module = (await import(`../../${routeById(routeId).entry}`)) as { createHandler: (deps: Deps) => Handler };
      const answer = await module.createHandler(deps)(first(run) as APIGatewayProxyEvent, aLambdaContext());
      (answers[routeId] ??= []).push(Math.floor(answer.statusCode / 100) * 100);
    }
  }
  const settingsRoutes = routes.filter((route) => route.credential === 'member-token' || route.credential === 'none');
  expect(Object.keys(answers).sort()).toEqual(settingsRoutes.map((route) => route.id).sort());
  for (const statuses of Object.values(answers)) expect(statuses).toEqual([200, 200]);
});
