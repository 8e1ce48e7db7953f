import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { workspacesOf } from '../lib/domain/session/session';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('listMyWorkspaces');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (_event, { principal }) =>
        json(200, { workspaces: (await workspacesOf(deps, principal.email)).workspaces }),
      ),
  );

export const handler = createHandler(productionDeps());
