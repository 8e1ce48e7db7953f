import { addTag } from '../../../lib/settings/config-edits';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { tagNameSchema } from '../../../lib/http/settings-input';
import { parseJsonBody } from '../../../lib/http/request-input';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('createTag'), deps, async (event, { principal }) => {
    const { name } = parseJsonBody(event.body, tagNameSchema);
    const { workspaceId, memberId } = membershipOf(principal);
    return json(201, await addTag(deps, { workspaceId, name, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
