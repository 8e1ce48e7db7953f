import { createField } from '../../../lib/settings/fields';
import { newFieldSchema } from '../../../lib/domain/fields/field-definitions';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { parseJsonBody } from '../../../lib/http/request-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('createField'), deps, async (event, { principal }) => {
    const field = parseJsonBody(event.body, newFieldSchema);
    const { workspaceId, memberId } = membershipOf(principal);
    return json(201, await createField(deps, { workspaceId, field, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
