import { productionDeps, type Deps } from '../lib/deps';
import { receiveApplication } from '../lib/domain/recruitment/receive-application';
import { json } from '../lib/http/response';
import { webhookRoute } from '../lib/http/route-handler';
import { readWebhookBody } from '../lib/http/webhook-body';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  webhookRoute(routeById('recruitment'), deps, async ({ event, deps, call }) =>
    json(call.successStatus, await receiveApplication(deps, call, readWebhookBody(event))),
  );

export const handler = createHandler(productionDeps());
