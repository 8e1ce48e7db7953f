import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { passwordResetSchema, startPasswordReset } from '../../../lib/domain/session/session';
import { anonymousRoute, json } from '../../../lib/http/middleware/route';
import { callerOf, parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  anonymousRoute(routeById('startPasswordReset'), deps, async (event) =>
    json(
      202,
      await startPasswordReset({ ...deps, identity }, parseJsonBody(event.body, passwordResetSchema), callerOf(event)),
    ),
  );

export const handler = createHandler(productionDeps());
