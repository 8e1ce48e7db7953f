import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import type { IdentityProvider } from '../lib/domain/identity-provider';
import { refreshSchema, refreshSession } from '../lib/domain/session/session';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { parseJsonBody } from '../lib/http/request-input';
import { poolIdentityProvider } from '../lib/identity/cognito';
import { routeById } from '../lib/routes';

const route = routeById('refreshSession');

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .handler(async (event) =>
        json(200, await refreshSession({ ...deps, identity }, parseJsonBody(event.body, refreshSchema))),
      ),
  );

export const handler = createHandler(productionDeps());
