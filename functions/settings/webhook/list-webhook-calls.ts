import type { APIGatewayProxyEvent } from 'aws-lambda';
import { callsBinding, pageOfCalls } from '../../../lib/settings/webhook-call-reads';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { InvalidInputError } from '../../../lib/domain/model';
import { settingsRoute, membershipOf } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pageRequestOf, queryValue } from '../../../lib/http/query-parameters';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

/** `failed=true` lists the failed calls only (docs/api.md#webhook-call-journal); `false` or none, every call. */
function failedOnly(event: APIGatewayProxyEvent): boolean {
  const value = queryValue(event, 'failed');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  const message = messages.settingsEvents.invalidFailed;
  throw new InvalidInputError(message, { field: 'failed', message });
}

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listWebhookCalls'), deps, async (event, { principal }) => {
    const { workspaceId } = membershipOf(principal);
    const failed = failedOnly(event);
    const page = pageRequestOf(event, callsBinding(workspaceId, failed));
    return json(200, await pageOfCalls(deps, workspaceId, { failed, page }));
  });

export const handler = createHandler(productionDeps());
