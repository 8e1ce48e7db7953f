import { apiKeyChangesPage } from '../../../lib/settings/api-key-changes';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { encodeCursor, pageRequestOf } from '../../../lib/http/query-parameters';
import { pathIdOf, pathParameterText } from '../../../lib/http/request-input';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { messages } from '../../../lib/messages';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('listApiKeyChanges'), deps, async (event, { principal }) => {
    const { workspaceId } = membershipOf(principal);
    const binding = {
      list: 'key-changes' as const,
      workspaceId,
      keyId: pathParameterText(event, 'key_id').toLowerCase(),
    };
    // `limit` and `cursor` checked before the key is looked for: 400 before 404 (docs/api.md#settings-api).
    const page = pageRequestOf(event, binding);
    const keyId = pathIdOf(event, 'key_id', messages.admin.ids.unknown.apiKey(pathParameterText(event, 'key_id')));
    const { entries, next } = await apiKeyChangesPage(deps, { workspaceId, keyId, page });
    return json(200, { changes: entries, next_cursor: next && encodeCursor(binding, next) });
  });

export const handler = createHandler(productionDeps());
