import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import type { IdentityProvider } from '../lib/domain/identity-provider';
import { changePassword, changePasswordSchema } from '../lib/domain/session/session';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, observed } from '../lib/http/middleware/route';
import { accessTokenOf, parseJsonBody } from '../lib/http/request-input';
import { poolIdentityProvider } from '../lib/identity/cognito';
import { routeById } from '../lib/routes';

const route = routeById('changePassword');

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event) => {
        const input = parseJsonBody(event.body, changePasswordSchema);
        await changePassword({ ...deps, identity }, accessTokenOf(event), input);
        return { statusCode: 204, headers: {}, body: '' };
      }),
  );

export const handler = createHandler(productionDeps());
