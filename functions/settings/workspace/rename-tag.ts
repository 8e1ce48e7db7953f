import { renameTag } from '../../../lib/settings/config-edits';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { tagNameSchema } from '../../../lib/http/settings-input';
import { parseJsonBody, pathIdOf, pathParameterText } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { json } from '../../../lib/http/middleware/route';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('renameTag'), deps, async (event, { principal }) => {
    const { name } = parseJsonBody(event.body, tagNameSchema);
    const tagId = pathIdOf(event, 'tag_id', messages.admin.config.unknownTag(pathParameterText(event, 'tag_id')));
    const { workspaceId, memberId } = membershipOf(principal);
    return json(200, await renameTag(deps, { workspaceId, tagId, name, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
