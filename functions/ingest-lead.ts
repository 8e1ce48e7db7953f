import { productionDeps, type Deps } from '../lib/deps';
import { ingestLead } from '../lib/domain/lead/ingest-lead';
import { json } from '../lib/http/response';
import { webhookRoute } from '../lib/http/route-handler';
import { readWebhookBody } from '../lib/http/webhook-body';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  webhookRoute(routeById('ingestLead'), deps, async ({ event, deps, call }) =>
    json(call.successStatus, await ingestLead(deps, call, readWebhookBody(event))),
  );

export const handler = createHandler(productionDeps());
