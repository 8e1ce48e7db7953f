import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { listActivePipelines } from '../lib/domain/pipelines';
import { apiKeyGate } from '../lib/http/middleware/api-key-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';
import { loadWorkspaceConfig } from '../lib/storage/workspace-config';

const route = routeById('listPipelines');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(apiKeyGate(route, deps))
      .handler(async (_event, { principal }) =>
        json(200, listActivePipelines(await loadWorkspaceConfig(deps, principal.workspaceId))),
      ),
  );

export const handler = createHandler(productionDeps());
