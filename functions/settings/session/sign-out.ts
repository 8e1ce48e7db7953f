import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { signOut } from '../../../lib/domain/session/session';
import { settingsRoute } from '../../../lib/http/middleware/member-gate';
import { accessTokenOf } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  settingsRoute(routeById('signOut'), deps, async (event, { principal }) => {
    await signOut({ ...deps, identity }, principal, accessTokenOf(event));
    return { statusCode: 204, headers: {}, body: '' };
  });

export const handler = createHandler(productionDeps());
