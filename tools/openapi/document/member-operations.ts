import { exampleIds as ids, exampleMessages as messages } from './examples';
import type { Example, OperationText } from './operations';

/*
 * The members of a workspace and its audit log (docs/api.md#sign-in, #settings-api, #audit-log): the admin command
 * line's use cases (lib/settings/members.ts, lib/settings/audit.ts). What every settings route answers (401, 404, 403,
 * 429, a body's 400, 500) the document adds by credential (tools/openapi/document/document.ts): these list only what
 * their use cases add.
 */

const example = (summary: string, value: unknown): Record<string, Example> => ({ answer: { summary, value } });

const alice = {
  id: ids.member,
  email: 'alice.martin@acme.test',
  name: 'Alice Martin',
  role: 'admin',
  can_sign_in: true,
};
const bob = {
  id: ids.invitedMember,
  email: 'bob.durand@acme.test',
  name: 'Bob Durand',
  role: 'member',
  can_sign_in: true,
};
const invited = {
  id: ids.invitedMember,
  email: 'bob.durand@acme.test',
  name: 'Bob Durand',
  role: 'member',
  can_sign_in: true,
  invited: true,
};
const invitedLocally = { ...invited, temporary_password: 'K7#fq2-Rm9xT@4bWz8Lp' };
const notInvited = { ...invited, invited: false };
const invitationAnswers = {
  deployed: { summary: 'Deployed: the invitation is e-mailed', value: invited },
  local: { summary: 'Local API (`npm start`): the temporary password', value: invitedLocally },
  hasPassword: { summary: 'A person who already chose a password: nothing sent, nothing changed', value: notInvited },
};
const notInvitable = {
  summary: 'Account not invitable',
  message: messages.accountNotInvitable,
};

const unknownMember = {
  description: 'No member of that id in this workspace (an id that is not a UUID neither).',
  examples: [{ summary: 'Unknown member', message: messages.memberNotFound }],
};
const lastAdmin = {
  summary: 'Last admin',
  message: messages.lastAdmin,
};

export const memberOperations: Record<string, OperationText> = {
  listMembers: {
    summary: "List the workspace's members",
    description:
      'Every member, removed ones included (their ids stay setters and closers): `can_sign_in` is false for a ' +
      'member removed or without an e-mail.',
    success: {
      200: {
        description: 'The members.',
        schema: 'MemberList',
        examples: example('Two members', { members: [alice, bob] }),
      },
    },
    errors: {},
  },
  addMember: {
    summary: 'Add a member and invite them',
    description:
      'A new member who signs in with their e-mail: the identity provider e-mails them a temporary password, ' +
      'to change at the first sign-in (`POST /session` with `new_password`). The local API (`npm start`) sends ' +
      'no e-mail and answers the temporary password as `temporary_password`. A person who already chose a ' +
      'password (a member of another workspace, for one) is added as they are: `invited: false`, nothing sent, ' +
      'their password unchanged. The identity provider is asked before anything is written: a refusal or a ' +
      'failure writes nothing.',
    requestBody: {
      schema: 'NewMember',
      description: 'The address, the name (the address when absent) and the role.',
      examples: {
        member: {
          summary: 'A member',
          value: { email: 'bob.durand@acme.test', name: 'Bob Durand', role: 'member' },
        },
      },
    },
    success: {
      201: {
        description: 'Added, and invited unless the person already chose a password.',
        schema: 'InvitedMember',
        examples: invitationAnswers,
      },
    },
    errors: {
      400: {
        description: 'Or `email` is not an address, or `role` is neither `admin` nor `member`.',
        examples: [
          {
            summary: 'Unknown role',
            message: messages.invalidRoleField,
            details: { field: 'role', message: messages.invalidRoleField },
          },
        ],
      },
      409: {
        description:
          'The address is already a member of this workspace (ignoring case), or the identity provider knows the ' +
          'person in a status the service does not invite (not one its invitations make: `UNCONFIRMED`, ' +
          '`EXTERNAL_PROVIDER`…). Nothing written, nothing sent.',
        examples: [{ summary: 'Already a member', message: messages.emailTaken }, notInvitable],
      },
    },
  },
  inviteMember: {
    summary: 'Invite a member again',
    description:
      'A new temporary password for a member with an e-mail who never signed in (or the first one, for a member ' +
      'created before sign-in existed); the local API answers it as `temporary_password`. A person who already ' +
      'chose a password keeps it: `invited: false`, nothing sent (the forgotten-password routes are theirs).',
    success: {
      200: {
        description: 'Invited, unless the person already chose a password.',
        schema: 'InvitedMember',
        examples: invitationAnswers,
      },
    },
    errors: {
      404: unknownMember,
      409: {
        description:
          'The member was removed from the workspace, or the identity provider knows the person in a status the ' +
          'service does not invite. Nothing written, nothing sent.',
        examples: [{ summary: 'Removed member', message: messages.removedMember }, notInvitable],
      },
      422: {
        description: 'The member has no e-mail: nobody to invite.',
        examples: [{ summary: 'No e-mail', message: messages.memberWithoutEmail }],
      },
    },
  },
  changeMemberRole: {
    summary: "Change a member's role",
    description:
      'The role takes effect on that person’s next call. The workspace keeps at least one admin who can sign in.',
    requestBody: {
      schema: 'RoleChange',
      description: 'The new role.',
      examples: { promote: { summary: 'Make admin', value: { role: 'admin' } } },
    },
    success: {
      200: {
        description: 'The member, with the role.',
        schema: 'Member',
        examples: example('Made admin', { ...bob, role: 'admin' }),
      },
    },
    errors: {
      400: {
        description: 'Or `role` is neither `admin` nor `member`.',
        examples: [
          {
            summary: 'Unknown role',
            message: messages.invalidRoleField,
            details: { field: 'role', message: messages.invalidRoleField },
          },
        ],
      },
      404: unknownMember,
      409: {
        description: 'Demoting the last admin who can sign in, or a member removed from the workspace.',
        examples: [lastAdmin],
      },
    },
  },
  removeMember: {
    summary: 'Remove a member',
    description:
      'The person loses access to this workspace from their next call; the member id stays valid as a setter ' +
      'or closer, and listed with `can_sign_in: false`.',
    success: {
      200: {
        description: 'Removed.',
        schema: 'RemovedMember',
        examples: example('Removed', { id: ids.invitedMember, can_sign_in: false }),
      },
    },
    errors: {
      404: unknownMember,
      409: { description: 'The last admin who can sign in.', examples: [lastAdmin] },
    },
  },
  listAudit: {
    summary: "Read the workspace's audit log",
    description:
      'Every change made through the settings API, and by the platform team’s command line to keys, the ' +
      'webhook, members, tags or subscriptions: who (`member_id`, null for the command line), what (`action`), ' +
      'on what (`target_id`) and a French `summary`; never a secret. Newest first, kept one year.',
    query: ['Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of entries.',
        schema: 'AuditPage',
        examples: example('One entry', {
          entries: [
            {
              id: ids.auditEntry,
              at: '2026-11-20T09:30:00.000Z',
              member_id: ids.member,
              action: 'member.invited',
              target_id: ids.invitedMember,
              summary: 'bob.durand@acme.test invité comme membre.',
            },
          ],
          next_cursor: null,
        }),
      },
    },
    errors: {
      400: {
        description: '`limit` not an integer from 1 to 100, or `cursor` not the `next_cursor` of a page of this log.',
        examples: [
          {
            summary: 'Invalid limit',
            message: messages.invalidLimit,
            details: { field: 'limit', message: messages.invalidLimit },
          },
        ],
      },
    },
  },
};
