import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { revokeApiKey } from '../lib/admin/api-keys';
import { productionDeps, type Deps } from '../lib/deps';
import { membershipOf } from '../lib/http/membership';
import { pathIdOf, pathParameterText } from '../lib/http/request-input';
import { messages } from '../lib/messages';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('revokeApiKey');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const keyId = pathIdOf(event, 'key_id', messages.admin.ids.unknown.apiKey(pathParameterText(event, 'key_id')));
        const { workspaceId, memberId } = membershipOf(principal);
        return json(200, await revokeApiKey(deps, { workspaceId, keyId, actingMemberId: memberId }));
      }),
  );

export const handler = createHandler(productionDeps());
