import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { listAudit } from '../lib/admin/audit';
import { productionDeps, type Deps } from '../lib/deps';
import { actingMemberOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { pageLimitOf, queryValue } from '../lib/http/query-parameters';
import { routeById } from '../lib/routes';

const route = routeById('listAudit');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) =>
        json(
          200,
          await listAudit(deps, {
            workspaceId: actingMemberOf(principal).workspaceId,
            limit: pageLimitOf(event),
            cursor: queryValue(event, 'cursor'),
          }),
        ),
      ),
  );

export const handler = createHandler(productionDeps());
