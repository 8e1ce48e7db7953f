import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { readProspect } from '../lib/domain/prospect/read-prospect';
import { apiKeyGate } from '../lib/http/middleware/api-key-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { prospectIdOf } from '../lib/http/request-input';
import { routeById } from '../lib/routes';

const route = routeById('getProspect');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(apiKeyGate(route, deps))
      .handler(async (event, { principal }) => json(200, await readProspect(deps, principal, prospectIdOf(event)))),
  );

export const handler = createHandler(productionDeps());
