import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorize } from '../lib/auth/authorize';
import { encodeDecision, type AuthDecision } from '../lib/auth/context';
import { productionDeps, type Deps } from '../lib/deps';
import { logError } from '../lib/log';

/**
 * Always answers Allow for this one method ARN, with the decision in the context: the route's
 * handler turns any decision other than `allowed` into the route's exact error (docs/api.md#error-bodies;
 * docs/architecture.md, "Authorizer contract"). It never throws, so API Gateway never answers
 * for it with a status of its own.
 */
export function createAuthorizer(deps: Deps) {
  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    let decision: AuthDecision;
    try {
      decision = await authorize(deps, {
        method: event.httpMethod,
        resource: event.resource,
        headers: event.headers,
        query: event.queryStringParameters,
      });
    } catch (error) {
      logError('authorizer failed', error);
      decision = { outcome: 'failed' };
    }
    const principalId = 'principal' in decision ? decision.principal.workspaceId : 'anonymous';
    return {
      principalId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
      },
      context: encodeDecision(decision),
    };
  };
}

export const handler = createAuthorizer(productionDeps());
