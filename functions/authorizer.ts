import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { authorize, type AuthorizerDeps } from '../lib/auth/authorize';
import { allowStagePolicy, encodeDecision, type AuthDecision } from '../lib/auth/context';
import { loadIdentityConfig } from '../lib/identity/config';
import { createMemberTokenVerifier } from '../lib/identity/member-token';
import { createDocumentClient, loadConfig, withDynamoDeadline } from '../lib/storage/client';
import { errorFields, logger, observeInvocation } from '../lib/observability';
import { findRoute } from '../lib/routes';

/** The authorizer counts no business metric: it has none to publish. */
const nothingCounted = { publish: () => undefined };

/**
 * The user pool's verifier, one per cold start (its key set cached with it), for every authorizer of this module
 * unless the caller brings its own; none where no pool is configured.
 */
const identity = loadIdentityConfig();
const poolVerifier = identity && createMemberTokenVerifier(identity);

/**
 * Always answers Allow, with the decision in the context: the route's
 * handler turns any decision other than `allowed` into the route's exact error (docs/api.md#error-bodies;
 * docs/architecture.md, "Authorizer contract"). It never throws, so API Gateway never answers
 * for it with a status of its own.
 */
export function createAuthorizer(given: AuthorizerDeps) {
  const deps = { ...given, memberTokens: given.memberTokens ?? poolVerifier };
  // The context is optional: tests and the local stand-in may call the authorizer with the event alone.
  return (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> =>
    observeInvocation(
      nothingCounted,
      // The request's id and the route's, as the route's own lines carry them: one search finds both functions' lines.
      { context, correlationId: event.requestContext?.requestId, keys: routeKey(event) },
      async () => answer(event, await decide(deps, event)),
    );
}

function routeKey(event: APIGatewayRequestAuthorizerEvent): Record<string, string> {
  const route = findRoute(event.httpMethod, event.resource);
  return route === undefined ? {} : { route: route.id };
}

async function decide(deps: AuthorizerDeps, event: APIGatewayRequestAuthorizerEvent): Promise<AuthDecision> {
  try {
    // A stalled table ends as the `failed` decision (the route's clean 500), never as a Lambda timeout.
    const decision = await withDynamoDeadline(() =>
      authorize(deps, {
        method: event.httpMethod,
        resource: event.resource,
        pathParameters: event.pathParameters,
        headers: event.headers,
        query: event.queryStringParameters,
      }),
    );
    // The outcome only: which key or endpoint is the route's business, and a credential is never logged.
    logger.debug('authorizer decided', { outcome: decision.outcome });
    return decision;
  } catch (error) {
    logger.error('authorizer failed', errorFields(error));
    return { outcome: 'failed' };
  }
}

function answer(event: APIGatewayRequestAuthorizerEvent, decision: AuthDecision): APIGatewayAuthorizerResult {
  // Never the person's e-mail: the principal id is in the access log.
  const principalId = !('principal' in decision)
    ? 'anonymous'
    : decision.principal.kind === 'member'
      ? (decision.principal.membership?.workspaceId ?? 'member')
      : decision.principal.workspaceId;
  return {
    principalId,
    // Every method and path of the stage, not event.methodArn: the answer's size does not depend on
    // the request path (lib/auth/context.ts). Results are never cached, so it serves this request only.
    policyDocument: allowStagePolicy(event.methodArn),
    context: encodeDecision(decision),
  };
}

const config = loadConfig();
export const handler = createAuthorizer({
  db: createDocumentClient(config),
  tableName: config.tableName,
  clock: () => new Date(),
});
