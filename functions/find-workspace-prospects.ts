import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { findProspects } from '../lib/domain/prospect/find-prospects';
import { membershipOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { contactLookupOf } from '../lib/http/query-parameters';
import { routeById } from '../lib/routes';

const route = routeById('findWorkspaceProspects');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) =>
        json(200, await findProspects(deps, membershipOf(principal), contactLookupOf(event))),
      ),
  );

export const handler = createHandler(productionDeps());
