import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorize } from '../lib/auth/authorize';
import { encodeDecision, type AuthDecision } from '../lib/auth/context';
import { allowStagePolicy } from '../lib/auth/policy';
import { productionDeps, type Deps } from '../lib/deps';
import { logError } from '../lib/log';
import { withDynamoDeadline } from '../lib/storage/client';

/**
 * Always answers Allow, with the decision in the context: the route's
 * handler turns any decision other than `allowed` into the route's exact error (docs/api.md#error-bodies;
 * docs/architecture.md, "Authorizer contract"). It never throws, so API Gateway never answers
 * for it with a status of its own.
 */
export function createAuthorizer(deps: Deps) {
  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    let decision: AuthDecision;
    try {
      // A stalled table ends as the `failed` decision (the route's clean 500), never as a Lambda timeout.
      decision = await withDynamoDeadline(() =>
        authorize(deps, {
          method: event.httpMethod,
          resource: event.resource,
          headers: event.headers,
          query: event.queryStringParameters,
        }),
      );
    } catch (error) {
      logError('authorizer failed', error);
      decision = { outcome: 'failed' };
    }
    const principalId = 'principal' in decision ? decision.principal.workspaceId : 'anonymous';
    return {
      principalId,
      // Every method and path of the stage, not event.methodArn: the answer's size does not depend on
      // the request path (lib/auth/policy.ts). Results are never cached, so it serves this request only.
      policyDocument: allowStagePolicy(event.methodArn),
      context: encodeDecision(decision),
    };
  };
}

export const handler = createAuthorizer(productionDeps());
