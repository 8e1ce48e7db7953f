import { undoChangeLogEntry } from '../../../lib/settings/changelog-undo';
import { productionDeps, type Deps } from '../../../lib/storage/client';
import { undoRequestSchema } from '../../../lib/domain/prospect/undo-change';
import { membershipOf, settingsRoute } from '../../../lib/http/middleware/member-gate';
import { json } from '../../../lib/http/middleware/route';
import { parseJsonBody, pathIdOf } from '../../../lib/http/request-input';
import { messages } from '../../../lib/messages';
import { routeById } from '../../../lib/routes';

export const createHandler = (deps: Deps) =>
  settingsRoute(routeById('undoChange'), deps, async (event, { principal }) => {
    const { workspaceId, memberId } = membershipOf(principal);
    // No body, or an empty JSON object: anything else is a 400 before the entry is looked for
    // (docs/api.md#settings-api).
    if (event.body) parseJsonBody(event.body, undoRequestSchema);
    const entryId = pathIdOf(event, 'entry_id', messages.settingsProspects.unknownEntry);
    return json(200, await undoChangeLogEntry(deps, { workspaceId, entryId, actingMemberId: memberId }));
  });

export const handler = createHandler(productionDeps());
