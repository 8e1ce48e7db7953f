import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { findProspects } from '../lib/domain/prospect/find-prospects';
import { apiKeyGate } from '../lib/http/middleware/api-key-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { contactLookupOf } from '../lib/http/query-parameters';
import { routeById } from '../lib/routes';

const route = routeById('findProspects');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(apiKeyGate(route, deps))
      .handler(async (event, { principal }) => json(200, await findProspects(deps, principal, contactLookupOf(event)))),
  );

export const handler = createHandler(productionDeps());
