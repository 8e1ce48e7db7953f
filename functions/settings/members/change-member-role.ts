import { changeRole, roleChangeSchema } from '../../../lib/settings/members';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { parseJsonBody, pathParameterText } from '../../../lib/http/request-input';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('changeMemberRole'), deps, async (event, { principal }) => {
    // The body first: a bad body is a 400 before an unknown member's 404 (the check order of docs/api.md#settings-api).
    const { role } = parseJsonBody(event.body, roleChangeSchema);
    const memberId = pathParameterText(event, 'member_id');
    return json(200, await changeRole(deps, { ...actingMemberOf(principal), memberId, role }));
  });

export const handler = createHandler(productionDeps());
