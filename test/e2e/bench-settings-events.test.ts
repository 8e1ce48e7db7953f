import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { deployedWebhooks, webhookFunctionVariables } from '../../lib/settings/webhook-functions';
import { productionSecretsDeps, type Deps } from '../../lib/storage/client';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import { deployedRouteById as routeById, deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { benchDeliveryQueueUrl, benchExportBucketName, settingsFirstEvents } from '../../tools/bench/functions';
import { createBenchPeople, expectedAnswers } from '../../tools/bench/settings';
import { sender } from '../../tools/bench/workspace';
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
// The deps of the deployed handlers (the subscriptions' functions write to the signing-secrets table; the replay
// invokes the webhooks' functions, here through the local server's Lambda API, as the bench's cold starts do).
let deps: Deps;
let api: TestApi;
const webhookNames = {
  [webhookFunctionVariables.ingestLead]: 'ingestLead',
  [webhookFunctionVariables.recruitment]: 'recruitment',
};

beforeAll(async () => {
  // As the bench's cold starts have them: the redeliver function and the export routes read them on import.
  process.env.DELIVERY_QUEUE_URL ??= benchDeliveryQueueUrl;
  process.env.EXPORT_BUCKET_NAME ??= benchExportBucketName;
  for (const [variable, name] of Object.entries(webhookNames)) process.env[variable] ??= name;
  await createBenchPeople(poolIdentityProvider(), runs);
  api = await startLocalApi();
  const webhooks = deployedWebhooks({ ...webhookNames, LAMBDA_ENDPOINT: api.url }, 'eu-west-3');
  deps = { ...productionSecretsDeps(), network: 'aws', webhooks } as Deps;
});
afterAll(async () => {
  await api.close();
  deps.db.destroy();
});

test('every settings route’s first event is answered 2xx on each cold start', async () => {
  const events = await settingsFirstEvents(sender(api.url), runs);
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
  // But one: the bench has no delivery to queue again, nor a queue its cold starts reach without AWS
  // (tools/bench/settings-calls.json says why); its call of an unknown delivery is answered 404, as the bench expects.
  expect(expectedAnswers).toEqual({ redeliverDelivery: 404 });
  const expected = (routeId: string) => (routeId === 'redeliverDelivery' ? [400, 400] : [200, 200]);
  for (const [routeId, statuses] of Object.entries(answers))
    expect([routeId, statuses]).toEqual([routeId, expected(routeId)]);
});
