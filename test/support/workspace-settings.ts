import type { Deps } from '../../lib/storage/client';
import { listAudit } from '../../lib/settings/audit';
import { keys } from '../../lib/storage/table-items';
import type { TestApi } from './local-api';
import { bearer, type PeopleWorkspace, type Person } from './people';
import { strongReads } from './table-reads';

/**
 * `GET` and `PATCH /workspaces/{w}` (`under`: its path) as the test file's people call them (a member reads, an admin changes, in the
 * file's own workspace unless told), and what they leave in the table: the configuration item, read strongly, and the
 * workspace's `workspace.*` audit entries. `current` gives the file's API and workspace once its `beforeAll` set them.
 */
export function workspaceSettingsCalls(deps: Deps, current: () => { api: TestApi; ws: PeopleWorkspace }) {
  const under = (workspaceId = current().ws.seed.workspace_id) => `/workspaces/${workspaceId}`;
  return {
    under,
    show: (person: Person = current().ws.member, workspaceId?: string) =>
      current().api.request('GET', under(workspaceId), { headers: bearer(person) }),
    change: (body: unknown, person: Person = current().ws.admin, workspaceId?: string) =>
      current().api.request('PATCH', under(workspaceId), { headers: bearer(person), body }),
    storedItem: async (workspaceId = current().ws.seed.workspace_id) =>
      (await strongReads(deps).item(keys.workspace(workspaceId))) as Record<string, unknown>,
    workspaceAudit: async (workspaceId = current().ws.seed.workspace_id) =>
      (await listAudit(deps, { workspaceId, limit: 100 })).entries.filter((entry) =>
        entry.action.startsWith('workspace.'),
      ),
  };
}
