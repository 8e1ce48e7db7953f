import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { recruitmentWebhookUrl, webhookStatus } from '../lib/admin/webhooks';
import { productionDeps, type Deps } from '../lib/deps';
import { apiBaseUrlOf } from '../lib/http/request-input';
import { membershipOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('getWebhook');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const baseUrl = apiBaseUrlOf(event);
        const status = await webhookStatus(deps, membershipOf(principal).workspaceId, baseUrl);
        return json(200, { ...status, recruitment_url: recruitmentWebhookUrl(baseUrl, status.endpoint_id) });
      }),
  );

export const handler = createHandler(productionDeps());
