import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { listTags } from '../lib/admin/config-edits';
import { productionDeps, type Deps } from '../lib/deps';
import { membershipOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('listTags');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (_event, { principal }) =>
        json(200, { tags: await listTags(deps, membershipOf(principal).workspaceId) }),
      ),
  );

export const handler = createHandler(productionDeps());
