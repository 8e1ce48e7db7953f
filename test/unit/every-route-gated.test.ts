import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { AuthDecision } from '../../lib/auth/context';
import type { Deps } from '../../lib/storage/client';
import { deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { aLambdaContext, aProxyEvent } from '../support/events';
import { recordingMetrics } from '../support/recording-metrics';
import { setTestQueueUrls } from '../support/queue-urls';

type RouteModule = {
  createHandler: (deps: Deps) => (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
};

// A function that queues deliveries builds its AWS handler on import, which reads the queue's URL: any will do; the
// replay's, the webhooks' functions' names.
setTestQueueUrls();
process.env.INGEST_LEAD_FUNCTION_NAME ??= 'never-invoked-ingest-lead';
process.env.RECRUITMENT_FUNCTION_NAME ??= 'never-invoked-recruitment';

const refusals: AuthDecision[] = [
  { outcome: 'unauthorized' },
  { outcome: 'not_found' },
  { outcome: 'anonymous' },
  { outcome: 'endpoint_missing' },
  { outcome: 'endpoint_malformed' },
  { outcome: 'endpoint_unknown' },
  { outcome: 'failed' },
];

/**
 * The authorizer always allows and leaves the refusal to the handler (ADR 3), so every route's
 * handler must refuse before any business code: here, before any DynamoDB call at all. The sign-in
 * routes (credential `none`) carry their own proof, a password, a refresh token or a code.
 */
const gated = routes.filter((route) => route.credential !== 'none');

describe.each(gated.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  it.each(refusals.map((decision) => [decision.outcome, decision] as const))(
    'refuses a `%s` decision without touching DynamoDB',
    async (_outcome, decision) => {
      const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' }));
      const mock = mockClient(db);
      const module = (await import(`../../${route.entry}`)) as RouteModule;
      const handler = module.createHandler({
        db,
        tableName: 't',
        clock: () => new Date(),
        newId: () => 'id',
        metrics: recordingMetrics(),
      });
      const response = await handler(
        aProxyEvent({
          resource: route.path,
          httpMethod: route.method,
          pathParameters: { prospect_id: '22222222-2222-4222-8222-222222222222', tag: 'VIP' },
          body: '{"email":"a@b.fr","name":"A","stage":"x","content":"x","tag":"x"}',
          decision,
        }),
        aLambdaContext(),
      );
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(mock.calls()).toHaveLength(0);
    },
  );
});
