import { randomInt } from 'node:crypto';
import * as z from 'zod/mini';
import type { Deps } from '../storage/client';
import { newAuditEntry, type ActingMemberId, type AuditEntry } from '../storage/audit-log';
import {
  isEmailAddress,
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnknownReferenceError,
  type Member,
  type MemberRole,
  isUuid,
} from '../domain/model';
import type { IdentityProvider } from '../domain/identity-provider';
import { messages } from '../messages';
import { partsOf, type ConfigCompanion, type ConfigEdit } from '../storage/config-edits';
import { emailKey } from '../storage/table-items';
import { editConfig, editConfigAfter } from './config-edits';
import { canSignIn, memberView, roleOf, type MemberView } from './member-list';

/**
 * The members of a workspace (docs/api.md#sign-in, #settings-api): list, add (an invitation), invite again, change
 * a role, remove. Each change is one optimistic edit of the configuration item (lib/storage/
 * config-edits.ts) whose transaction also writes or deletes the person's membership item and the
 * audit entry: the decisions below run on the configuration read, and again on the fresh one after
 * a lost race, so two admins demoting the last two admins at once cannot both succeed. Refusals are
 * domain errors (the settings API's 404, 409 and 422; exit 2 on the command line).
 */

/**
 * An invitation's answer (docs/api.md, « Members »): whether the person was invited, that is given a new temporary
 * password, and that password only where the identity provider lets it be answered (the local run).
 */
export type InvitedMemberView = MemberView & { invited: boolean; temporary_password?: string };

const texts = messages.members;
const summaries = messages.audit;

const roles: readonly MemberRole[] = ['admin', 'member'];

/** `admin` or `member`, as typed on the command line or sent in a body. */
export function readRole(value: string): MemberRole {
  const role = roles.find((known) => known === value.trim());
  if (role === undefined) throw new InvalidInputError(texts.invalidRole(value), { field: 'role' });
  return role;
}

/** A role in a body of the settings API: `admin` or `member`, exactly. */
const roleField = z.enum(['admin', 'member'] as const satisfies readonly MemberRole[], texts.roleExpected);

/** `POST /members` (docs/api.md#settings-api): the e-mail is checked by `addMember`, as for `member add`. */
export const newMemberSchema = z.strictObject({
  email: z.string().check(z.maxLength(254, messages.rules.atMostCharacters(254))),
  name: z.optional(z.string().check(z.maxLength(200, messages.rules.atMostCharacters(200)))),
  role: roleField,
});

/** `PATCH /members/{m}` (docs/api.md#settings-api): the role alone. */
export const roleChangeSchema = z.strictObject({ role: roleField });

/**
 * Whether this member is the workspace's last admin who can sign in (docs/api.md#sign-in: never demoted nor removed).
 */
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

/** The membership written with a member who may sign in. */
const membershipOf = (workspaceId: string, member: Member & { email: string }): ConfigCompanion => ({
  kind: 'put-membership',
  email: member.email,
  membership: { workspace_id: workspaceId, member_id: member.id, role: roleOf(member) },
});

const audited = (entry: AuditEntry): ConfigCompanion => ({ kind: 'audit', entry });

/**
 * `POST /members`, `member add`: a new member with an e-mail, and the person invited (`invitePerson`): asked of the
 * identity provider after the addition is checked on the configuration read (an e-mail already a member: 409, no
 * one invited) and before anything is written, so that a refusal or a failure of the provider writes nothing. Then
 * the member, its membership and the audit entry, one transaction on that same read. Should that write fail after
 * the invitation, the person is invited to no workspace yet: adding them again invites them again.
 * `password` (`member add --password`, the local provider): a permanent password instead of the temporary one.
 */
export async function addMember(
  deps: Deps & { identity: IdentityProvider },
  input: Acting & { email: string; name?: string | undefined; role: MemberRole; password?: string | undefined },
): Promise<InvitedMemberView> {
  const email = input.email.trim();
  if (email === '') throw new InvalidInputError(texts.emailRequired, { field: 'email' });
  if (!isEmailAddress(email)) {
    throw new InvalidInputError(messages.admin.config.invalidEmail(email), { field: 'email' });
  }
  const name = input.name?.trim() || email;
  const member = { id: deps.newId(), name, email, role: input.role };
  const now = deps.clock();
  const role = texts.roles[input.role];
  const { config, acted } = await editConfigAfter(deps, input.workspaceId, async (read) => {
    decideAddition(read.members, member); // an e-mail already a member: refused before anyone is invited
    const invitation = await invitePerson(deps, email, input.password);
    const entry = newAuditEntry(now, {
      workspaceId: input.workspaceId,
      memberId: input.actingMemberId,
      action: 'member.invited',
      targetId: member.id,
      summary: invitation.invited ? summaries.memberInvited(email, role) : summaries.memberAdded(email, role),
    });
    return {
      acted: invitation,
      edit: (fresh) => ({
        parts: { ...partsOf(fresh), members: decideAddition(fresh.members, member) },
        companions: [membershipOf(fresh.workspace.id, member), audited(entry)],
      }),
    };
  });
  return { ...memberView(findMember(config.members, member.id)), ...acted };
}

/** The member of that id as one to invite: with an e-mail (422 without), not removed (409). */
function invitee(members: readonly Member[], memberId: string): Member & { email: string } {
  const member = findMember(members, memberId);
  if (member.email === null) throw new UnknownReferenceError(texts.noEmail(member.id));
  if (member.removed_at) throw new ConflictError(texts.removed(member.id));
  return { ...member, email: member.email };
}

/**
 * `POST /members/{m}/invite`: the member's person invited again (`invitePerson`: a new temporary password for one
 * who never signed in, the first one for a seeded member; nothing for a person who has a password), asked of the
 * identity provider once the member is found invitable on the configuration read, before anything is written. The
 * membership is written again with the audit entry, in one transaction conditional on that read: a member seeded
 * before memberships existed gets its item, and a removal or a role change meanwhile is seen, not overwritten.
 */
export async function inviteAgain(
  deps: Deps & { identity: IdentityProvider },
  input: Acting & { memberId: string },
): Promise<InvitedMemberView> {
  const { config, acted } = await editConfigAfter(deps, input.workspaceId, async (read) => {
    const target = invitee(read.members, input.memberId);
    const invitation = await invitePerson(deps, target.email);
    const entry = newAuditEntry(deps.clock(), {
      workspaceId: read.workspace.id,
      memberId: input.actingMemberId,
      action: 'member.invited',
      targetId: target.id,
      summary: invitation.invited
        ? summaries.memberInvitedAgain(target.email)
        : summaries.memberNotInvitedAgain(target.email),
    });
    return {
      acted: { invitation, memberId: target.id },
      edit: (fresh) => ({
        parts: partsOf(fresh),
        companions: [membershipOf(fresh.workspace.id, invitee(fresh.members, target.id)), audited(entry)],
      }),
    };
  });
  return { ...memberView(findMember(config.members, acted.memberId)), ...acted.invitation };
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

/**
 * The invitation (docs/api.md, « Members »), by what the identity provider knows of the person: a new person, or
 * one invited who never signed in, gets the temporary password the service draws (answered only where the
 * provider says so); a person who chose a password keeps it, and is told nothing (`invited: false`); a person the
 * provider will not invite is refused (409). With `permanentPassword` (`member add --password`, the local
 * provider), the invited person gets it instead; a person who chose a password keeps theirs: refused (409).
 */
async function invitePerson(
  deps: { identity: IdentityProvider },
  email: string,
  permanentPassword?: string,
): Promise<Pick<InvitedMemberView, 'invited' | 'temporary_password'>> {
  const userName = emailKey(email);
  const password = temporaryPassword();
  const invitation = await deps.identity.invite(userName, password);
  switch (invitation.kind) {
    case 'unsupported_status':
      throw new ConflictError(texts.accountNotInvitable(email, invitation.status));
    case 'has_password':
      if (permanentPassword !== undefined) throw new ConflictError(texts.passwordKept(email));
      return { invited: false };
    case 'invited':
      if (permanentPassword !== undefined) {
        await deps.identity.setPermanentPassword(userName, permanentPassword);
        return { invited: true };
      }
      return { invited: true, ...(deps.identity.answersDeliveredSecrets ? { temporary_password: password } : {}) };
  }
}
