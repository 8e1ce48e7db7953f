import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { signOut } from '../lib/domain/session/session';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('signOut');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (_event, { principal }) => {
        await signOut(deps, principal);
        return { statusCode: 204, headers: {}, body: '' };
      }),
  );

export const handler = createHandler(productionDeps());
