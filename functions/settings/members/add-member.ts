import { addMember, newMemberSchema } from '../../../lib/settings/members';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  settingsRoute(routeById('addMember'), deps, async (event, { principal }) => {
    const input = parseJsonBody(event.body, newMemberSchema);
    return json(201, await addMember({ ...deps, identity }, { ...actingMemberOf(principal), ...input }));
  });

export const handler = createHandler(productionDeps());
