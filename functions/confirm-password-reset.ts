import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import type { IdentityProvider } from '../lib/domain/identity-provider';
import { confirmPasswordReset, confirmPasswordResetSchema } from '../lib/domain/session/session';
import { errorAnswers, observed } from '../lib/http/middleware/route';
import { parseJsonBody } from '../lib/http/request-input';
import { poolIdentityProvider } from '../lib/identity/cognito';
import { routeById } from '../lib/routes';

const route = routeById('confirmPasswordReset');

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .handler(async (event) => {
        const input = parseJsonBody(event.body, confirmPasswordResetSchema);
        await confirmPasswordReset({ ...deps, identity }, input);
        return { statusCode: 204, headers: {}, body: '' };
      }),
  );

export const handler = createHandler(productionDeps());
