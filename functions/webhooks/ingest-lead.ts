import { productionDeps, type Deps } from '../../lib/storage/client';
import { ingestLead } from '../../lib/domain/lead/ingest-lead';
import { webhookRoute } from '../../lib/http/middleware/webhook';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) => webhookRoute(routeById('ingestLead'), deps, ingestLead);

export const handler = createHandler(productionDeps());
