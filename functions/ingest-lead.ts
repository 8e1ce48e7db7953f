import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { ingestLead } from '../lib/domain/lead/ingest-lead';
import { errorAnswers, observed } from '../lib/http/middleware/route';
import { answeredWebhook, webhookGate, webhookJournal } from '../lib/http/middleware/webhook';
import { readWebhookBody } from '../lib/domain/webhook-call';
import { routeById } from '../lib/routes';

const route = routeById('ingestLead');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(webhookJournal(route, deps))
      .use(errorAnswers(route))
      .use(webhookGate(route, deps))
      .handler(answeredWebhook(route, deps, (event, call, deps) => ingestLead(deps, call, readWebhookBody(event)))),
  );

export const handler = createHandler(productionDeps());
