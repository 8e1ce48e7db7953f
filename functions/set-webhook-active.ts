import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { setWebhookActive } from '../lib/admin/webhooks';
import { productionDeps, type Deps } from '../lib/deps';
import { apiBaseUrlOf, parseJsonBody } from '../lib/http/request-input';
import { membershipOf } from '../lib/http/membership';
import { webhookActiveSchema } from '../lib/http/settings-input';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('setWebhookActive');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { active } = parseJsonBody(event.body, webhookActiveSchema);
        const { workspaceId, memberId } = membershipOf(principal);
        return json(200, await setWebhookActive(deps, workspaceId, active, apiBaseUrlOf(event), memberId));
      }),
  );

export const handler = createHandler(productionDeps());
