import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { signIn, signInSchema } from '../../../lib/domain/session/session';
import { anonymousRoute, json } from '../../../lib/http/middleware/route';
import { callerOf, parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  anonymousRoute(routeById('signIn'), deps, async (event) =>
    json(200, await signIn({ ...deps, identity }, parseJsonBody(event.body, signInSchema), callerOf(event))),
  );

export const handler = createHandler(productionDeps());
