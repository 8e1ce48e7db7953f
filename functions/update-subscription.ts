import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { setSubscriptionActive, subscriptionActivationSchema } from '../lib/admin/subscriptions';
import { productionDeps, type Deps } from '../lib/deps';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { parseJsonBody, pathIdOf } from '../lib/http/request-input';
import { membershipOf } from '../lib/http/membership';
import { messages } from '../lib/messages';
import { routeById } from '../lib/routes';

const route = routeById('updateSubscription');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { workspaceId, memberId } = membershipOf(principal);
        const { active } = parseJsonBody(event.body, subscriptionActivationSchema);
        const id = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
        return json(200, await setSubscriptionActive(deps, workspaceId, id, active, memberId));
      }),
  );

export const handler = createHandler(productionDeps());
