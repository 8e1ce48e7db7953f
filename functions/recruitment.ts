import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { receiveApplication } from '../lib/domain/recruitment/receive-application';
import { errorAnswers, observed } from '../lib/http/middleware/route';
import { answeredWebhook, webhookGate, webhookJournal } from '../lib/http/middleware/webhook';
import { readWebhookBody } from '../lib/domain/webhook-call';
import { routeById } from '../lib/routes';

const route = routeById('recruitment');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(webhookJournal(route, deps))
      .use(errorAnswers(route))
      .use(webhookGate(route, deps))
      .handler(
        answeredWebhook(route, deps, (event, call, deps) => receiveApplication(deps, call, readWebhookBody(event))),
      ),
  );

export const handler = createHandler(productionDeps());
