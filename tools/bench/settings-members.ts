import type { AuthDecision } from '../../lib/auth/context';
import type { MemberRole } from '../../lib/domain/model';
import { benchPassword, benchPeople, type AuthorizedCall } from './settings';
import type { Call, Send, Workspace } from './workspace';

/*
 * The first events of the members routes and of the audit log (decisions 7.2, 7.4): the bench's person `signsIn`,
 * an admin of the bench workspace (tools/bench/workspace.json), lists the members and the log, adds one, invites one
 * again, changes one's role and removes one, a member of its own each cold start, added beforehand.
 */

type Session = { access_token: string; workspaces: { id: string; role: MemberRole; member_id: string }[] };

const adminCall = (method: string, path: string, accessToken: string, body?: unknown): Call => ({
  method,
  path,
  headers: { authorization: `Bearer ${accessToken}` },
  body,
});

/** Each members route's and the audit log's first call of cold start `run`, by route id. */
export async function memberSettingsFirstCalls(
  workspace: Workspace,
  send: Send,
  runs: number,
): Promise<Record<string, (run: number) => AuthorizedCall>> {
  const { seed } = workspace;
  const signIn = { email: benchPeople.signsIn, password: benchPassword() };
  const session = (await send({ method: 'POST', path: '/session', headers: {}, body: signIn })) as Session;
  const membership = session.workspaces.find((candidate) => candidate.id === seed.workspace_id);
  if (membership?.role !== 'admin') throw new Error(`${benchPeople.signsIn} is no admin of the bench workspace`);
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
  const token = session.access_token;
  const members = `/workspaces/${seed.workspace_id}/members`;
  // Addresses no other run of the bench (or of its test, on a shared pool) has used.
  const unique = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  const added = async (name: string) => {
    const body = { email: `${name}-${unique}@banc.test`, role: 'member' };
    return ((await send(adminCall('POST', members, token, body))) as { id: string }).id;
  };
  const [invited, promoted] = [await added('invite'), await added('role')];
  // One member removed a cold start: removing a removed member again writes nothing.
  const removed: string[] = [];
  for (let run = 0; run < runs; run += 1) removed.push(await added(`retrait-${run}`));
  const first = (method: string, path: string, body?: unknown) => ({
    call: adminCall(method, path, token, body),
    decision,
  });
  return {
    listMembers: () => first('GET', members),
    addMember: (run) => first('POST', members, { email: `ajout-${run}-${unique}@banc.test`, role: 'member' }),
    inviteMember: () => first('POST', `${members}/${invited}/invite`),
    changeMemberRole: (run) => first('PATCH', `${members}/${promoted}`, { role: run % 2 === 0 ? 'admin' : 'member' }),
    removeMember: (run) => first('DELETE', `${members}/${removed[run]}`),
    listAudit: () => first('GET', `/workspaces/${seed.workspace_id}/audit?limit=2`),
  };
}
