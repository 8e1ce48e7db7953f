import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { showWorkspace } from '../lib/admin/workspaces';
import { productionDeps, type Deps } from '../lib/deps';
import { membershipOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('getWorkspace');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (_event, { principal }) => {
        const { workspaceId, role } = membershipOf(principal);
        return json(200, { ...(await showWorkspace(deps, workspaceId)), role });
      }),
  );

export const handler = createHandler(productionDeps());
