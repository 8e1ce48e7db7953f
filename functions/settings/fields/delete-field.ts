import { deleteField } from '../../../lib/settings/fields';
import { fieldKeyPattern } from '../../../lib/domain/fields/field-definitions';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { pathKeyOf, pathParameterText } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('deleteField'), deps, async (event, { principal }) => {
    const unknown = messages.fields.unknownField(pathParameterText(event, 'field_key'));
    const key = pathKeyOf(event, 'field_key', fieldKeyPattern, unknown);
    const { workspaceId, memberId } = membershipOf(principal);
    return json(200, await deleteField(deps, { workspaceId, key, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
