import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { deliveriesBinding, pageOfDeliveries, readDeliveryStatus } from '../lib/admin/subscriptions';
import { productionDeps, type Deps } from '../lib/deps';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { pageRequestOf, queryValue } from '../lib/http/query-parameters';
import { membershipOf } from '../lib/http/membership';
import { pathIdOf } from '../lib/http/request-input';
import { messages } from '../lib/messages';
import { routeById } from '../lib/routes';

const route = routeById('listDeliveries');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { workspaceId } = membershipOf(principal);
        // 400 before 404: the query is checked before the subscription is looked for.
        const status = readDeliveryStatus(queryValue(event, 'status'));
        const subscriptionText = (event.pathParameters?.subscription_id ?? '').toLowerCase();
        const page = pageRequestOf(event, deliveriesBinding(workspaceId, subscriptionText, status));
        const id = pathIdOf(event, 'subscription_id', messages.settingsEvents.subscriptionNotFound);
        return json(200, await pageOfDeliveries(deps, workspaceId, id, { status, page }));
      }),
  );

export const handler = createHandler(productionDeps());
