import type { Deps } from '../storage/client';
import type { Member, MemberRole } from '../domain/model';
import { configOf } from '../storage/workspace-config';
import { requireWorkspace } from './admin-input';

/** A workspace's members as the settings API's `GET …/members` lists them (docs/api.md, « Members »). */
export type MemberView = { id: string; email: string | null; name: string; role: MemberRole; can_sign_in: boolean };

/** A member stored before roles is a `member` (docs/api.md#sign-in). */
export const roleOf = (member: Member): MemberRole => member.role ?? 'member';

/** A person may sign in as this member: an e-mail, and not removed. */
export const canSignIn = (member: Member): boolean => member.email !== null && !member.removed_at;

export const memberView = (member: Member): MemberView => ({
  id: member.id,
  email: member.email,
  name: member.name,
  role: roleOf(member),
  can_sign_in: canSignIn(member),
});

/** The settings API's `GET …/members`: every member, removed ones included (their ids stay setters and closers); one strongly consistent read. */
export async function listMembers(deps: Deps, workspaceId: string): Promise<{ members: MemberView[] }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  return { members: configOf(workspace as unknown as Record<string, unknown>).members.map(memberView) };
}
