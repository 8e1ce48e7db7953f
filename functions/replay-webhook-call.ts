import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { replayCall, type WebhookInvoker } from '../lib/admin/webhook-calls';
import { productionDeps, type Deps } from '../lib/deps';
import { ingestLead } from '../lib/domain/lead/ingest-lead';
import { receiveApplication } from '../lib/domain/recruitment/receive-application';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { webhookRoute } from '../lib/http/middleware/webhook';
import { membershipOf } from '../lib/http/membership';
import { pathIdOf } from '../lib/http/request-input';
import { messages } from '../lib/messages';
import { logger } from '../lib/observability';
import { routeById } from '../lib/routes';

const route = routeById('replayWebhookCall');

/**
 * The webhooks' own routes, composed as their functions compose them (`webhookRoute`) with this function's deps,
 * and run in it, as `webhook replay` runs them: the replay is a new call of the same webhook (decisions 6.3),
 * journaled by that route.
 */
const webhookInvoker = (deps: Deps) => {
  const webhooks = {
    ingestLead: webhookRoute(routeById('ingestLead'), deps, ingestLead),
    recruitment: webhookRoute(routeById('recruitment'), deps, receiveApplication),
  };
  return (context: Context): WebhookInvoker =>
    async (webhook, event) => {
      const handler = webhook.id === 'recruitment' ? webhooks.recruitment : webhooks.ingestLead;
      // A context of its own: the webhook's middlewares set theirs (answer headers, principal) on it, not on this
      // route's, whose rate-limit headers answer the replay. Its lines carry the replayed call's own request id (the
      // journal's); this route's lines after it, this request's id and route again.
      const correlationId = logger.getCorrelationId();
      try {
        return (await handler(event, { ...context })) as APIGatewayProxyResult;
      } finally {
        if (typeof correlationId === 'string') logger.setCorrelationId(correlationId);
        logger.appendKeys({ route: route.id });
      }
    };
};

export const createHandler = (deps: Deps) => {
  const invokerFor = webhookInvoker(deps);
  return observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, context) => {
        const { workspaceId, memberId } = membershipOf(context.principal);
        const callId = pathIdOf(event, 'call_id', messages.settingsEvents.callNotFound);
        return json(200, await replayCall(deps, workspaceId, callId, invokerFor(context), memberId));
      }),
  );
};

export const handler = createHandler(productionDeps());
