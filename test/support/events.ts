import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { encodeDecision, type AuthDecision } from '../../lib/auth/context';

/** A proxy event as API Gateway hands it to a handler after the authorizer decided. */
export function aProxyEvent(
  overrides: Partial<APIGatewayProxyEvent> & { decision?: AuthDecision } = {},
): APIGatewayProxyEvent {
  const { decision, ...rest } = overrides;
  return {
    resource: '/pipelines',
    path: '/pipelines',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      authorizer: decision ? { ...encodeDecision(decision), principalId: 'test' } : null,
    } as unknown as APIGatewayProxyEvent['requestContext'],
    ...rest,
  };
}

export const aLambdaContext = (): Context =>
  ({
    awsRequestId: 'test-request',
    functionName: 'test',
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as Context;
