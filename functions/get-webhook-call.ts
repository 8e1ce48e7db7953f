import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { showCall } from '../lib/admin/webhook-calls';
import { productionDeps, type Deps } from '../lib/deps';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { membershipOf } from '../lib/http/membership';
import { pathIdOf } from '../lib/http/request-input';
import { messages } from '../lib/messages';
import { routeById } from '../lib/routes';

const route = routeById('getWebhookCall');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { workspaceId } = membershipOf(principal);
        const callId = pathIdOf(event, 'call_id', messages.settingsEvents.callNotFound);
        return json(200, await showCall(deps, workspaceId, callId));
      }),
  );

export const handler = createHandler(productionDeps());
