import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { listProspectNotes } from '../lib/domain/prospect/read-prospect';
import { encodeCursor } from '../lib/http/cursor';
import { apiKeyGate } from '../lib/http/middleware/api-key-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { prospectIdOf } from '../lib/http/request-input';
import { listRequestOf } from '../lib/http/query-parameters';
import { routeById } from '../lib/routes';

const route = routeById('listNotes');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(apiKeyGate(route, deps))
      .handler(async (event, { principal }) => {
        const { page, binding } = listRequestOf(event, 'notes', principal.workspaceId);
        const { items, next } = await listProspectNotes(deps, principal, prospectIdOf(event), page);
        return json(200, { notes: items, next_cursor: next && encodeCursor(binding, next) });
      }),
  );

export const handler = createHandler(productionDeps());
