import { removeMember } from '../../../lib/settings/members';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathParameterText } from '../../../lib/http/request-input';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('removeMember'), deps, async (event, { principal }) =>
    json(
      200,
      await removeMember(deps, { ...actingMemberOf(principal), memberId: pathParameterText(event, 'member_id') }),
    ),
  );

export const handler = createHandler(productionDeps());
