import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { confirmPasswordReset, confirmPasswordResetSchema } from '../../../lib/domain/session/session';
import { anonymousRoute } from '../../../lib/http/middleware/route';
import { callerOf, parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  anonymousRoute(routeById('confirmPasswordReset'), deps, async (event) => {
    const input = parseJsonBody(event.body, confirmPasswordResetSchema);
    await confirmPasswordReset({ ...deps, identity }, input, callerOf(event));
    return { statusCode: 204, headers: {}, body: '' };
  });

export const handler = createHandler(productionDeps());
