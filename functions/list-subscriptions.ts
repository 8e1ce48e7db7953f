import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { listSubscriptions } from '../lib/admin/subscriptions';
import { productionDeps, type Deps } from '../lib/deps';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { membershipOf } from '../lib/http/membership';
import { routeById } from '../lib/routes';

const route = routeById('listSubscriptions');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (_event, { principal }) =>
        json(200, await listSubscriptions(deps, membershipOf(principal).workspaceId)),
      ),
  );

export const handler = createHandler(productionDeps());
