import { productionDeps, type Deps } from '../../../lib/storage/client';
import type { IdentityProvider } from '../../../lib/domain/identity-provider';
import { refreshSchema, refreshSession } from '../../../lib/domain/session/session';
import { anonymousRoute, json } from '../../../lib/http/middleware/route';
import { parseJsonBody } from '../../../lib/http/request-input';
import { poolIdentityProvider } from '../../../lib/identity/cognito';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps, identity: IdentityProvider = poolIdentityProvider()) =>
  anonymousRoute(routeById('refreshSession'), deps, async (event) =>
    json(200, await refreshSession({ ...deps, identity }, parseJsonBody(event.body, refreshSchema))),
  );

export const handler = createHandler(productionDeps());
