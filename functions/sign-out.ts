import { productionDeps, type Deps } from '../lib/deps';
import { signOut } from '../lib/domain/session/session';
import { settingsRoute } from '../lib/http/middleware/member-gate';
import { routeById } from '../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('signOut'), deps, async (_event, { principal }) => {
    await signOut(deps, principal);
    return { statusCode: 204, headers: {}, body: '' };
  });

export const handler = createHandler(productionDeps());
