import { productionDeps, type Deps } from '../../lib/storage/client';
import { receiveApplication } from '../../lib/domain/recruitment/receive-application';
import { webhookRoute } from '../../lib/http/middleware/webhook';
import { routeById } from '../../lib/routes';

export const createHandler = (deps: Deps) => webhookRoute(routeById('recruitment'), deps, receiveApplication);

export const handler = createHandler(productionDeps());
