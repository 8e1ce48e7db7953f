import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { changePassword, changePasswordSchema } from '../../../lib/domain/session/session';
import { settingsRoute } from '../../../lib/http/middleware/member-gate';
import { accessTokenOf, parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  settingsRoute(routeById('changePassword'), deps, async (event, { principal }) => {
    const input = parseJsonBody(event.body, changePasswordSchema);
    await changePassword({ ...deps, identity }, principal, accessTokenOf(event), input);
    return { statusCode: 204, headers: {}, body: '' };
  });

export const handler = createHandler(productionDeps());
