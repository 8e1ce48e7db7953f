import type { AuthDecision } from '../../lib/auth/context';
import type { MemberRole } from '../../lib/domain/model';
import { benchPassword, benchPeople, type AuthorizedCall } from './settings';
import { apiCall, type Call, type Send, type Workspace } from './workspace';

/*
 * The first events of the settings API's prospect routes (decisions 7.2): the bench's person `signsIn`, a member of
 * the bench workspace, looks a prospect up, reads it and its change log, and undoes a change the bench's key made,
 * a change of its own each cold start, on a prospect of its own.
 */

type Session = { access_token: string; workspaces: { id: string; role: MemberRole; member_id: string }[] };

const memberCall = (method: string, path: string, accessToken: string): Call => ({
  method,
  path,
  headers: { authorization: `Bearer ${accessToken}` },
});

/** Each prospect settings route's first call of cold start `run`, by route id; the undone entries made beforehand. */
export async function prospectSettingsFirstCalls(
  workspace: Workspace,
  send: Send,
  runs: number,
): Promise<Record<string, (run: number) => AuthorizedCall>> {
  const { seed } = workspace;
  const signIn = { email: benchPeople.signsIn, password: benchPassword() };
  const session = (await send({ method: 'POST', path: '/session', headers: {}, body: signIn })) as Session;
  const membership = session.workspaces.find((candidate) => candidate.id === seed.workspace_id);
  if (membership === undefined) throw new Error(`${benchPeople.signsIn} is no member of the bench workspace`);
  const decision: AuthDecision = {
    outcome: 'allowed',
    principal: {
      kind: 'member',
      email: benchPeople.signsIn,
      tokenId: `banc-${benchPeople.signsIn}`,
      issuedAt: Math.floor(Date.now() / 1000),
      membership: { workspaceId: seed.workspace_id, memberId: membership.member_id, role: membership.role },
    },
  };
  const under = (path: string) => `/workspaces/${seed.workspace_id}${path}`;
  const [key = '', prospect = ''] = [workspace.apiKeys(1)[0], workspace.prospects(1)[0]];
  const entries: string[] = [];
  // A prospect of its own per cold start: an entry is undone only while its prospect is untouched since.
  for (const changed of workspace.prospects(runs)) {
    // A follow-up date: a change whatever the prospect's stage, logged as one entry.
    await send(apiCall(key, 'PATCH', `/prospects/${changed}`, { follow_up_at: '2027-01-04T09:30:00Z' }));
    const page = (await send(apiCall(key, 'GET', `/prospects/${changed}/changes?limit=1`))) as {
      changes: { id: string }[];
    };
    const [entry] = page.changes;
    if (entry === undefined) throw new Error(`no change-log entry for the bench prospect ${changed}`);
    entries.push(entry.id);
  }
  const email = encodeURIComponent(workspace.knownLeadEmail);
  const token = session.access_token;
  return {
    findWorkspaceProspects: () => ({ call: memberCall('GET', under(`/prospects?email=${email}`), token), decision }),
    getWorkspaceProspect: () => ({ call: memberCall('GET', under(`/prospects/${prospect}`), token), decision }),
    listWorkspaceProspectChanges: () => ({
      call: memberCall('GET', under(`/prospects/${prospect}/changes?limit=2`), token),
      decision,
    }),
    undoChange: (run) => ({ call: memberCall('POST', under(`/changes/${entries[run]}/undo`), token), decision }),
  };
}
