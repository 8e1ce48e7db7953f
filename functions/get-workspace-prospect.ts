import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { readProspect } from '../lib/domain/prospect/read-prospect';
import { membershipOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { prospectIdOf } from '../lib/http/request-input';
import { routeById } from '../lib/routes';

const route = routeById('getWorkspaceProspect');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) =>
        json(200, await readProspect(deps, membershipOf(principal), prospectIdOf(event))),
      ),
  );

export const handler = createHandler(productionDeps());
