import { changeField } from '../../../lib/settings/fields';
import { fieldChangeSchema, fieldKeyPattern } from '../../../lib/domain/fields/field-definitions';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { parseJsonBody, pathKeyOf, pathParameterText } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('changeField'), deps, async (event, { principal }) => {
    const change = parseJsonBody(event.body, fieldChangeSchema);
    const unknown = messages.fields.unknownField(pathParameterText(event, 'field_key'));
    const key = pathKeyOf(event, 'field_key', fieldKeyPattern, unknown);
    const { workspaceId, memberId } = membershipOf(principal);
    return json(200, await changeField(deps, { workspaceId, key, change, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
