import { randomInt } from 'node:crypto';
import * as z from 'zod/mini';
import type { Deps } from '../deps';
import { newAuditEntry, type ActingMemberId } from '../domain/audit';
import { isEmailAddress } from '../domain/email';
import { ConflictError, InvalidInputError, NotFoundError, UnknownReferenceError } from '../domain/errors';
import type { IdentityProvider } from '../domain/identity-provider';
import type { Member, MemberRole } from '../domain/model';
import { isUuid } from '../ids';
import { messages } from '../messages';
import type { AuditEntry } from '../storage/audit-log';
import { partsOf, type ConfigCompanion, type ConfigEdit } from '../storage/config-edits';
import { emailKey } from '../storage/table-items';
import { configOf } from '../storage/workspace-config';
import { editConfig } from './config-edits';
import { requireWorkspace } from './workspace';

/**
 * The members of a workspace (decisions 7.1, 7.2): list, add (an invitation), invite again, change
 * a role, remove. Each change is one optimistic edit of the configuration item (lib/storage/
 * config-edits.ts) whose transaction also writes or deletes the person's membership item and the
 * audit entry: the decisions below run on the configuration read, and again on the fresh one after
 * a lost race, so two admins demoting the last two admins at once cannot both succeed. Refusals are
 * domain errors (the settings API's 404, 409 and 422; exit 2 on the command line).
 */

export type MemberView = { id: string; email: string | null; name: string; role: MemberRole; can_sign_in: boolean };
/** An invitation's answer: the temporary password only where the identity provider lets it be answered (the local run). */
export type InvitedMemberView = MemberView & { temporary_password?: string };

const texts = messages.members;
const summaries = messages.audit;

/** A member stored before roles is a `member` (decisions 7.1). */
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

const roles: readonly MemberRole[] = ['admin', 'member'];

/** `admin` or `member`, as typed on the command line or sent in a body. */
export function readRole(value: string): MemberRole {
  const role = roles.find((known) => known === value.trim());
  if (role === undefined) throw new InvalidInputError(texts.invalidRole(value), { field: 'role' });
  return role;
}

/** A role in a body of the settings API: `admin` or `member`, exactly. */
const roleField = z.enum(['admin', 'member'] as const satisfies readonly MemberRole[], texts.roleExpected);

/** `POST /members` (decisions 7.2): the e-mail is checked by `addMember`, as for `member add`. */
export const newMemberSchema = z.strictObject({
  email: z.string().check(z.maxLength(254, messages.rules.atMostCharacters(254))),
  name: z.optional(z.string().check(z.maxLength(200, messages.rules.atMostCharacters(200)))),
  role: roleField,
});

/** `PATCH /members/{m}` (decisions 7.2): the role alone. */
export const roleChangeSchema = z.strictObject({ role: roleField });

/** Whether this member is the workspace's last admin who can sign in (decisions 7.1: never demoted nor removed). */
export function isLastAdmin(members: readonly Member[], member: Member): boolean {
  const signingInAdmins = members.filter((other) => canSignIn(other) && roleOf(other) === 'admin');
  return signingInAdmins.length === 1 && signingInAdmins[0]?.id === member.id;
}

/** The member of that id, removed or not; a malformed id names none (404, as any unknown id in a path). */
export function findMember(members: readonly Member[], memberId: string): Member {
  const id = isUuid(memberId) ? memberId.toLowerCase() : undefined;
  const member = members.find((candidate) => candidate.id === id);
  if (!member) throw new NotFoundError(texts.unknown(memberId));
  return member;
}

/** A new member's e-mail is refused when a person of that e-mail (ignoring case) is a member still. */
export function decideAddition(members: readonly Member[], added: Member & { email: string }): Member[] {
  const key = emailKey(added.email);
  if (members.some((other) => !other.removed_at && other.email !== null && emailKey(other.email) === key)) {
    throw new ConflictError(texts.emailTaken(added.email));
  }
  return [...members, added];
}

/** The members once this one has the role; demoting the last admin is refused. Removed members keep no role to change. */
export function decideRoleChange(members: readonly Member[], memberId: string, role: MemberRole): Member[] {
  const member = findMember(members, memberId);
  if (member.removed_at) throw new ConflictError(texts.removed(member.id));
  if (role !== 'admin' && isLastAdmin(members, member)) throw new ConflictError(texts.lastAdmin);
  return members.map((other) => (other === member ? { ...member, role } : other));
}

/** The members once this one is removed (it stays, `removed_at` set, a valid setter or closer); the last admin is refused. */
export function decideRemoval(members: readonly Member[], memberId: string, at: string): Member[] {
  const member = findMember(members, memberId);
  if (isLastAdmin(members, member)) throw new ConflictError(texts.lastAdmin);
  return members.map((other) => (other === member ? { ...member, removed_at: at } : other));
}

/**
 * Characters of a temporary password: letters and digits without look-alikes, and symbols Cognito's
 * policy counts as such.
 */
const passwordClasses = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%*+-=?@_'] as const;
const temporaryPasswordLength = 20;

/**
 * A temporary password the service draws for an invitation: 20 characters from a CSPRNG, at least
 * one of each class. Cognito's default policy asks for 8 characters or more with a digit, a
 * lower-case letter, an upper-case letter and a symbol (the CDK's `PasswordPolicy` defaults:
 * "minLength … default: 8", "requireDigits … default: true", and so for lower case, upper case and
 * symbols: https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.aws_cognito.PasswordPolicy.html).
 */
export function temporaryPassword(): string {
  const all = passwordClasses.join('');
  const pick = (from: string): string => from[randomInt(from.length)] as string;
  const characters = [
    ...passwordClasses.map(pick),
    ...Array.from({ length: temporaryPasswordLength - passwordClasses.length }, () => pick(all)),
  ];
  // Fisher–Yates: the guaranteed characters may land anywhere.
  for (let index = characters.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other] as string, characters[index] as string];
  }
  return characters.join('');
}

type Acting = { workspaceId: string; actingMemberId: ActingMemberId };

/** `GET /members`: every member, removed ones included (their ids stay setters and closers); one strongly consistent read. */
export async function listMembers(deps: Deps, workspaceId: string): Promise<{ members: MemberView[] }> {
  const workspace = await requireWorkspace(deps, workspaceId);
  return { members: configOf(workspace as unknown as Record<string, unknown>).members.map(memberView) };
}

/** The membership written with a member who may sign in. */
const membershipOf = (workspaceId: string, member: Member & { email: string }): ConfigCompanion => ({
  kind: 'put-membership',
  email: member.email,
  membership: { workspace_id: workspaceId, member_id: member.id, role: roleOf(member) },
});

const audited = (entry: AuditEntry): ConfigCompanion => ({ kind: 'audit', entry });

/**
 * `POST /members`, `member add`: a new member with an e-mail, and the person invited with a temporary
 * password the service draws (Cognito e-mails it on AWS; `temporary_password` answers it where the
 * provider says so). The member, its membership and the audit entry are one transaction; the
 * invitation follows it, so an e-mail already a member (409) invites no one. Should the invitation
 * fail, the member exists and `inviteAgain` sends it.
 */
export async function addMember(
  deps: Deps & { identity: IdentityProvider },
  input: Acting & { email: string; name?: string | undefined; role: MemberRole },
): Promise<InvitedMemberView> {
  const email = input.email.trim();
  if (email === '') throw new InvalidInputError(texts.emailRequired, { field: 'email' });
  if (!isEmailAddress(email)) {
    throw new InvalidInputError(messages.admin.config.invalidEmail(email), { field: 'email' });
  }
  const name = input.name?.trim() || email;
  const member = { id: deps.newId(), name, email, role: input.role };
  const now = deps.clock();
  const entry = newAuditEntry(now, {
    workspaceId: input.workspaceId,
    memberId: input.actingMemberId,
    action: 'member.invited',
    targetId: member.id,
    summary: summaries.memberInvited(email, texts.roles[input.role]),
  });
  const { config } = await editConfig(deps, input.workspaceId, (read) => ({
    parts: { ...partsOf(read), members: decideAddition(read.members, member) },
    companions: [membershipOf(read.workspace.id, member), audited(entry)],
  }));
  return invited(deps, findMember(config.members, member.id) as Member & { email: string });
}

/**
 * `POST /members/{m}/invite`: a new temporary password for a member with an e-mail (a seeded one's
 * first invitation too). The membership is written again with the audit entry, in one transaction
 * conditional on the configuration read: a member seeded before memberships existed gets its item,
 * and a removal or a role change meanwhile is seen, not overwritten.
 */
export async function inviteAgain(
  deps: Deps & { identity: IdentityProvider },
  input: Acting & { memberId: string },
): Promise<InvitedMemberView> {
  let target: (Member & { email: string }) | undefined;
  await editConfig(deps, input.workspaceId, (read) => {
    const member = findMember(read.members, input.memberId);
    if (member.email === null) throw new UnknownReferenceError(texts.noEmail(member.id));
    if (member.removed_at) throw new ConflictError(texts.removed(member.id));
    target = { ...member, email: member.email };
    const entry = newAuditEntry(deps.clock(), {
      workspaceId: read.workspace.id,
      memberId: input.actingMemberId,
      action: 'member.invited',
      targetId: member.id,
      summary: summaries.memberInvitedAgain(member.email),
    });
    return { parts: partsOf(read), companions: [membershipOf(read.workspace.id, target), audited(entry)] };
  });
  return invited(deps, target as Member & { email: string });
}

/**
 * `PATCH /members/{m}`: the member with its new role, its membership with it; demoting the last admin:
 * 409. The role it has already changes nothing and writes nothing.
 */
export async function changeRole(
  deps: Deps,
  input: Acting & { memberId: string; role: MemberRole },
): Promise<MemberView> {
  const { config } = await editConfig(deps, input.workspaceId, (read) => {
    const before = findMember(read.members, input.memberId);
    const members = decideRoleChange(read.members, input.memberId, input.role);
    if (roleOf(before) === input.role) return 'unchanged';
    const after = findMember(members, before.id);
    const entry = newAuditEntry(deps.clock(), {
      workspaceId: read.workspace.id,
      memberId: input.actingMemberId,
      action: 'member.role_changed',
      targetId: before.id,
      summary: summaries.memberRoleChanged(before.name, texts.roles[roleOf(before)], texts.roles[input.role]),
    });
    const companions: ConfigCompanion[] = [audited(entry)];
    if (after.email !== null) companions.unshift(membershipOf(read.workspace.id, { ...after, email: after.email }));
    return { parts: { ...partsOf(read), members }, companions };
  });
  return memberView(findMember(config.members, input.memberId));
}

/**
 * `DELETE /members/{m}`: the person loses access to this workspace (the membership item goes in the
 * same transaction); the member stays, `removed_at` set, valid as a setter or closer. The last admin:
 * 409. Removing a removed member changes nothing and writes nothing.
 */
export async function removeMember(
  deps: Deps,
  input: Acting & { memberId: string },
): Promise<{ id: string; can_sign_in: false }> {
  let id = input.memberId;
  await editConfig(deps, input.workspaceId, (read): ReturnType<ConfigEdit> => {
    const member = findMember(read.members, input.memberId);
    id = member.id;
    if (member.removed_at) return 'unchanged';
    const members = decideRemoval(read.members, member.id, deps.clock().toISOString());
    const entry = newAuditEntry(deps.clock(), {
      workspaceId: read.workspace.id,
      memberId: input.actingMemberId,
      action: 'member.removed',
      targetId: member.id,
      summary: summaries.memberRemoved(member.name),
    });
    const companions: ConfigCompanion[] = [audited(entry)];
    if (member.email !== null) {
      companions.unshift({ kind: 'delete-membership', email: member.email, workspaceId: read.workspace.id });
    }
    return { parts: { ...partsOf(read), members }, companions };
  });
  return { id, can_sign_in: false };
}

/** The invitation itself, once the member is stored: the temporary password goes to the provider, and back only where it may. */
async function invited(
  deps: { identity: IdentityProvider },
  member: Member & { email: string },
): Promise<InvitedMemberView> {
  const password = temporaryPassword();
  await deps.identity.invite(emailKey(member.email), password);
  return {
    ...memberView(member),
    ...(deps.identity.answersDeliveredSecrets ? { temporary_password: password } : {}),
  };
}

/**
 * `member add --password` (the local identity provider only, decisions 7.1): a permanent password
 * instead of the temporary one, so the member signs in at once.
 */
export async function setMemberPassword(
  deps: { identity: IdentityProvider },
  email: string,
  password: string,
): Promise<void> {
  await deps.identity.setPermanentPassword(emailKey(email), password);
}
