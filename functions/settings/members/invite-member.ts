import { inviteAgain } from '../../../lib/settings/members';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { actingMemberOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { pathParameterText } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  settingsRoute(routeById('inviteMember'), deps, async (event, { principal }) =>
    json(
      200,
      await inviteAgain(
        { ...deps, identity },
        // A malformed or unknown id is the use case's 404, as any member id it does not find.
        { ...actingMemberOf(principal), memberId: pathParameterText(event, 'member_id') },
      ),
    ),
  );

export const handler = createHandler(productionDeps());
