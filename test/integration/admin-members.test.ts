import { randomUUID } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderServiceException,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { listAudit } from '../../lib/settings/audit';
import { renameTag, addTag } from '../../lib/settings/config-edits';
import { AdminInputError } from '../../lib/settings/admin-input';
import { listMembers } from '../../lib/settings/member-list';
import { addMember, changeRole, inviteAgain, removeMember } from '../../lib/settings/members';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { commandLine } from '../../lib/storage/audit-log';
import { ConflictError, InvalidInputError, NotFoundError, UnknownReferenceError } from '../../lib/domain/model';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { keys } from '../../lib/storage/table-items';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { recordingIdentityProvider } from '../support/recording-identity';
import { countRoundTrips } from '../support/round-trips';
import { aWorkspace, seedTestWorkspace } from '../support/seed';
import { mockedAwsPool } from '../support/aws-user-pool';

/**
 * Members and roles (docs/api.md#sign-in, #members, docs/adr/0013-member-sign-in.md) on DynamoDB Local: seed roles and
 * the people's membership items, and the member use cases of the settings API and `member add`, each one
 * transaction of the configuration item, the membership and the audit entry.
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const withIdentity = (answersDeliveredSecrets = true, base: Deps = deps) => {
  const identity = recordingIdentityProvider(answersDeliveredSecrets);
  return { deps: { ...base, identity }, identity };
};

const membership = async (email: string, workspaceId: string) =>
  (
    await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: keys.membership(email, workspaceId), ConsistentRead: true }),
    )
  ).Item;

const memberships = async (email: string) =>
  (
    await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ws)',
        ExpressionAttributeValues: { ':pk': keys.personPk(email), ':ws': 'WS#' },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

const auditItems = async (workspaceId: string) =>
  (
    await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.auditPk(workspaceId) },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

const configVersion = async (workspaceId: string) =>
  (
    await deps.db.send(
      new GetCommand({ TableName: deps.tableName, Key: keys.workspace(workspaceId), ConsistentRead: true }),
    )
  ).Item?.config_version as number;

/** Alice an admin, Bob a member, Carla without e-mail. */
const team = () =>
  seedTestWorkspace(
    aWorkspace({
      prospects: [],
      members: [
        { key: 'alice', name: 'Alice Martin', email: 'Alice@Acme.test', role: 'admin' },
        { key: 'bob', name: 'Bob Durand', email: 'bob@acme.test' },
        { key: 'carla', name: 'Carla Roux' },
      ],
    }),
  );

/** A client that runs `before` ahead of the first transaction it sends: another admin's edit between read and write. */
function racedBy(before: () => Promise<unknown>): Deps {
  let raced = false;
  const db = {
    send: async (command: unknown) => {
      if (command instanceof TransactWriteCommand && !raced) {
        raced = true;
        await before();
      }
      return deps.db.send(command as GetCommand);
    },
  } as unknown as DynamoDBDocumentClient;
  return { ...deps, db };
}

describe('seed: roles and memberships', () => {
  it('gives members their role (member by default) and each one with an e-mail a membership item', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { members } = await listMembers(deps, ws);
    expect(members).toEqual([
      { id: seed.members.alice, email: 'Alice@Acme.test', name: 'Alice Martin', role: 'admin', can_sign_in: true },
      { id: seed.members.bob, email: 'bob@acme.test', name: 'Bob Durand', role: 'member', can_sign_in: true },
      { id: seed.members.carla, email: null, name: 'Carla Roux', role: 'member', can_sign_in: false },
    ]);
    // Keyed by the e-mail ignoring case: alice@acme.test is the person seeded as Alice@Acme.test.
    expect(await membership('alice@acme.test', ws)).toEqual({
      ...keys.membership('alice@acme.test', ws),
      type: 'membership',
      workspace_id: ws,
      member_id: seed.members.alice,
      role: 'admin',
    });
    expect(await membership('bob@acme.test', ws)).toMatchObject({ member_id: seed.members.bob, role: 'member' });
  });

  it('lets one person be a member of several workspaces, and refuses one e-mail twice in a workspace', async () => {
    const email = `${randomUUID()}@acme.test`;
    const person = (role: 'admin' | 'member') => [{ key: 'p', name: 'Personne', email, role }];
    const first = await seedTestWorkspace(aWorkspace({ prospects: [], members: person('admin') }));
    const second = await seedTestWorkspace(aWorkspace({ prospects: [], members: person('member') }));
    const found = await memberships(email.toUpperCase());
    expect(found.map((item) => [item.workspace_id, item.role]).sort()).toEqual(
      [
        [first.workspace_id, 'admin'],
        [second.workspace_id, 'member'],
      ].sort(),
    );

    await expect(
      seedTestWorkspace(
        aWorkspace({
          prospects: [],
          members: [
            { key: 'a', name: 'A', email },
            { key: 'b', name: 'B', email: email.toUpperCase() },
          ],
        }),
      ),
    ).rejects.toThrow(/members\.1\.email : déjà utilisé par members\.0/);
    await expect(
      seedTestWorkspace(aWorkspace({ members: [{ name: 'X', role: 'owner' as 'admin' }] })),
    ).rejects.toBeInstanceOf(AdminInputError);
  });
});

describe('member add', () => {
  it('invites the person, then adds the member, its membership and its audit entry in one transaction', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const own = productionDeps();
    const { deps: counted, identity } = withIdentity(true, own);
    const roundTrips = countRoundTrips(counted.db);
    const before = await configVersion(ws);

    const added = await addMember(counted, {
      workspaceId: ws,
      actingMemberId: seed.members.alice as string,
      email: ' Dan@Acme.test ',
      role: 'member',
    });

    expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems']);
    roundTrips.reset();
    expect(added).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'Dan@Acme.test',
      name: 'Dan@Acme.test',
      role: 'member',
      can_sign_in: true,
      invited: true,
      temporary_password: identity.invitations[0]?.temporaryPassword,
    });
    expect(identity.invitations).toEqual([{ email: 'dan@acme.test', temporaryPassword: expect.any(String) }]);
    const password = identity.invitations[0]?.temporaryPassword as string;
    expect(password).toHaveLength(20);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/[0-9]/);
    expect(password).toMatch(/[^A-Za-z0-9]/);
    expect(await configVersion(ws)).toBe(before + 1);
    expect(await membership('dan@acme.test', ws)).toMatchObject({ member_id: added.id, role: 'member' });
    const [entry] = await auditItems(ws);
    expect(entry).toMatchObject({
      member_id: seed.members.alice,
      action: 'member.invited',
      target_id: added.id,
      summary: 'Dan@Acme.test invité comme membre.',
    });
    expect(JSON.stringify(await auditItems(ws))).not.toContain(password);
    own.db.destroy();
  });

  it('answers no temporary password where the provider delivers it itself (AWS)', async () => {
    const { workspace_id: ws } = await team();
    const { deps: onAws, identity } = withIdentity(false);
    const added = await addMember(onAws, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'eve@acme.test',
      role: 'admin',
    });
    expect(added).toEqual({
      id: added.id,
      email: 'eve@acme.test',
      name: 'eve@acme.test',
      role: 'admin',
      can_sign_in: true,
      invited: true,
    });
    expect(identity.invitations).toHaveLength(1);
  });

  it('refuses an e-mail already a member of the workspace, ignoring case: 409, nothing written, no one invited', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { deps: withProvider, identity } = withIdentity();
    const before = await configVersion(ws);
    const refused = addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: commandLine,
      email: 'ALICE@acme.TEST',
      name: 'Alice bis',
      role: 'member',
    });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow(
      "« ALICE@acme.TEST » est déjà membre de cet espace (la casse ne compte pas) : rien n'a changé.",
    );
    expect(identity.invitations).toEqual([]);
    expect(await configVersion(ws)).toBe(before);
    expect(await membership('alice@acme.test', ws)).toMatchObject({ member_id: seed.members.alice, role: 'admin' });
    expect(await auditItems(ws)).toEqual([]);

    await expect(
      addMember(withProvider, { workspaceId: ws, actingMemberId: null, email: 'pas-une-adresse', role: 'member' }),
    ).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('asks the identity provider before writing: its failure leaves no member, no membership, no audit entry', async () => {
    const { workspace_id: ws } = await team();
    const { deps: withProvider, identity } = withIdentity();
    identity.failInvite = true;
    const before = await configVersion(ws);
    await expect(
      addMember(withProvider, { workspaceId: ws, actingMemberId: null, email: 'yann@acme.test', role: 'member' }),
    ).rejects.toThrow('identity provider unavailable (test double)');
    expect(await configVersion(ws)).toBe(before);
    expect((await listMembers(deps, ws)).members.map((member) => member.email)).not.toContain('yann@acme.test');
    expect(await membership('yann@acme.test', ws)).toBeUndefined();
    expect(await auditItems(ws)).toEqual([]);

    // The provider back: the same addition goes through.
    identity.failInvite = false;
    const added = await addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'yann@acme.test',
      role: 'member',
    });
    expect(added).toMatchObject({ invited: true });
    expect(await membership('yann@acme.test', ws)).toMatchObject({ member_id: added.id });
  });

  it('writes on the read it checked, and sees an edit made while the provider was asked: kept, or a refusal', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    /** A provider that lets another admin's edit land while it invites. */
    const meanwhile = (edit: () => Promise<unknown>) => {
      const identity = recordingIdentityProvider();
      const invite = identity.invite;
      identity.invite = async (email, temporary) => {
        await edit();
        return invite(email, temporary);
      };
      return { ...deps, identity };
    };
    const before = await configVersion(ws);
    const added = await addMember(
      meanwhile(() => addTag(deps, { workspaceId: ws, name: 'Ajoutée pendant' })),
      { workspaceId: ws, actingMemberId: null, email: 'ines@acme.test', role: 'member' },
    );
    expect(await configVersion(ws)).toBe(before + 2);
    const config = await loadWorkspaceConfig(deps, ws);
    expect(config.tags.map((tag) => tag.name)).toContain('Ajoutée pendant');
    expect(config.members.map((member) => member.id)).toContain(added.id);

    const other = { workspaceId: ws, actingMemberId: null, email: 'JOE@acme.test', role: 'admin' } as const;
    const refused = addMember(
      meanwhile(() => addMember(withIdentity().deps, other)),
      {
        workspaceId: ws,
        actingMemberId: null,
        email: 'joe@acme.test',
        role: 'member',
      },
    );
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    const joes = (await listMembers(deps, ws)).members.filter(
      (member) => member.email?.toLowerCase() === 'joe@acme.test',
    );
    expect(joes).toEqual([expect.objectContaining({ email: 'JOE@acme.test', role: 'admin' })]);
    expect(await membership('joe@acme.test', ws)).toMatchObject({ member_id: joes[0]?.id, role: 'admin' });
  });

  it('two concurrent additions of one e-mail: one member', async () => {
    const { workspace_id: ws } = await team();
    const { deps: withProvider } = withIdentity();
    const settled = await Promise.allSettled(
      ['zoe@acme.test', 'ZOE@acme.test'].map((email) =>
        addMember(withProvider, { workspaceId: ws, actingMemberId: null, email, role: 'member' }),
      ),
    );
    expect(settled.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const members = (await listMembers(deps, ws)).members.filter(
      (member) => member.email?.toLowerCase() === 'zoe@acme.test',
    );
    expect(members).toHaveLength(1);
    expect(await membership('zoe@acme.test', ws)).toMatchObject({ member_id: members[0]?.id });
  });
});

/** The AWS adapter (lib/identity/cognito.ts) on a client whose answers the test gives: what only Cognito answers. */
function cognitoOnAws() {
  const { mock, identity } = mockedAwsPool();
  return { mock, deps: { ...deps, identity } };
}

const cognitoFault = (name: string, message: string) =>
  new CognitoIdentityProviderServiceException({ name, message, $fault: 'client', $metadata: {} });

describe('a person who already chose a password (a member of another workspace): added, never given another', () => {
  it('adds them without inviting: invited false, no password; the member, its membership and the audit entry', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { deps: withProvider, identity } = withIdentity();
    identity.statuses.set('pat@acme.test', 'CONFIRMED');
    const added = await addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: seed.members.alice as string,
      email: 'Pat@Acme.test',
      role: 'member',
    });
    expect(added).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'Pat@Acme.test',
      name: 'Pat@Acme.test',
      role: 'member',
      can_sign_in: true,
      invited: false,
    });
    expect(identity.invitations).toEqual([]);
    expect(identity.permanentPasswords).toEqual([]);
    expect(await membership('pat@acme.test', ws)).toMatchObject({ member_id: added.id, role: 'member' });
    expect((await auditItems(ws)).map((item) => [item.action, item.member_id, item.target_id, item.summary])).toEqual([
      [
        'member.invited',
        seed.members.alice,
        added.id,
        "Pat@Acme.test ajouté comme membre, avec le compte qu'il a déjà : ni invitation ni nouveau mot de passe.",
      ],
    ]);
  });

  it('invites them again to nothing: invited false, no password; the membership written again, the entry says so', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { deps: withProvider, identity } = withIdentity();
    identity.statuses.set('bob@acme.test', 'CONFIRMED');
    const again = await inviteAgain(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      memberId: seed.members.bob as string,
    });
    expect(again).toEqual({
      id: seed.members.bob,
      email: 'bob@acme.test',
      name: 'Bob Durand',
      role: 'member',
      can_sign_in: true,
      invited: false,
    });
    expect(identity.invitations).toEqual([]);
    expect((await auditItems(ws)).map((item) => item.summary)).toEqual([
      'Invitation non renvoyée à bob@acme.test : la personne a déjà choisi son mot de passe.',
    ]);
  });

  it('refuses them a permanent password (member add --password): 409, nothing written', async () => {
    const { workspace_id: ws } = await team();
    const { deps: withProvider, identity } = withIdentity();
    identity.statuses.set('pat@acme.test', 'CONFIRMED');
    const before = await configVersion(ws);
    const refused = addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'pat@acme.test',
      role: 'member',
      password: 'Remplace-Le-Sien-1!',
    });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow('--password ne le remplace pas');
    expect(identity.permanentPasswords).toEqual([]);
    expect(await configVersion(ws)).toBe(before);
    expect(await membership('pat@acme.test', ws)).toBeUndefined();
    expect(await auditItems(ws)).toEqual([]);
  });

  it('gives a permanent password (member add --password) to a person it invites', async () => {
    const { workspace_id: ws } = await team();
    const { deps: withProvider, identity } = withIdentity();
    const added = await addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'new@acme.test',
      role: 'member',
      password: 'Le-Sien-Des-Le-Debut-1!',
    });
    expect(added).toMatchObject({ invited: true });
    expect(added).not.toHaveProperty('temporary_password');
    expect(identity.permanentPasswords).toEqual([{ email: 'new@acme.test', password: 'Le-Sien-Des-Le-Debut-1!' }]);
  });

  it('refuses a person in a status no invitation makes: 409, nothing written, nothing sent', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { deps: withProvider, identity } = withIdentity();
    identity.statuses.set('odd@acme.test', 'UNCONFIRMED');
    identity.statuses.set('bob@acme.test', 'EXTERNAL_PROVIDER');
    const before = await configVersion(ws);
    const added = addMember(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'odd@acme.test',
      role: 'member',
    });
    await expect(added).rejects.toBeInstanceOf(ConflictError);
    await expect(added).rejects.toThrow(/dans l'état UNCONFIRMED/);
    await expect(
      inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: seed.members.bob as string }),
    ).rejects.toThrow(/dans l'état EXTERNAL_PROVIDER/);
    expect(identity.invitations).toEqual([]);
    expect(await configVersion(ws)).toBe(before);
    expect(await membership('odd@acme.test', ws)).toBeUndefined();
    expect(await auditItems(ws)).toEqual([]);
  });
});

describe('on AWS (Cognito answers injected): the provider asked first, nothing half-written', () => {
  it('adds a confirmed person with neither RESEND nor a password set: invited false, written', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { mock, deps: onAws } = cognitoOnAws();
    mock.on(AdminGetUserCommand).resolves({ Username: 'pat@acme.test', UserStatus: 'CONFIRMED' });
    const added = await addMember(onAws, {
      workspaceId: ws,
      actingMemberId: null,
      email: 'pat@acme.test',
      role: 'admin',
    });
    expect(added).toMatchObject({ invited: false });
    expect(added).not.toHaveProperty('temporary_password');
    expect(mock.commandCalls(AdminCreateUserCommand)).toEqual([]);
    expect(mock.commandCalls(AdminSetUserPasswordCommand)).toEqual([]);
    expect(await membership('pat@acme.test', ws)).toMatchObject({ member_id: added.id, role: 'admin' });
    expect(await auditItems(ws)).toHaveLength(1);
  });

  it.each([
    ['the status cannot be read', 'AdminGetUser'],
    ['the invitation is refused', 'AdminCreateUser'],
  ])('writes nothing when %s: no member, no membership, no audit entry', async (_case, failing) => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { mock, deps: onAws } = cognitoOnAws();
    if (failing === 'AdminGetUser')
      mock.on(AdminGetUserCommand).rejects(cognitoFault('InternalErrorException', 'boom'));
    else {
      mock.on(AdminGetUserCommand).rejects(cognitoFault('UserNotFoundException', 'User does not exist.'));
      mock.on(AdminCreateUserCommand).rejects(cognitoFault('InternalErrorException', 'boom'));
    }
    const before = await configVersion(ws);
    await expect(
      addMember(onAws, { workspaceId: ws, actingMemberId: null, email: 'pat@acme.test', role: 'member' }),
    ).rejects.toThrow('boom');
    await expect(
      inviteAgain(onAws, { workspaceId: ws, actingMemberId: null, memberId: seed.members.bob as string }),
    ).rejects.toThrow('boom');
    expect(await configVersion(ws)).toBe(before);
    expect((await listMembers(deps, ws)).members.map((member) => member.email)).not.toContain('pat@acme.test');
    expect(await membership('pat@acme.test', ws)).toBeUndefined();
    expect(await auditItems(ws)).toEqual([]);
  });
});

describe('member invite again', () => {
  it('sends a new temporary password; a member without e-mail: 422; an unknown id: 404', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const { deps: withProvider, identity } = withIdentity();

    const again = await inviteAgain(withProvider, {
      workspaceId: ws,
      actingMemberId: null,
      memberId: seed.members.bob as string,
    });
    expect(again).toMatchObject({ id: seed.members.bob, can_sign_in: true, temporary_password: expect.any(String) });
    expect(identity.invitations.map((invitation) => invitation.email)).toEqual(['bob@acme.test']);
    expect((await auditItems(ws)).map((item) => [item.action, item.summary])).toEqual([
      ['member.invited', 'Invitation envoyée à nouveau à bob@acme.test.'],
    ]);

    await expect(
      inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: seed.members.carla as string }),
    ).rejects.toBeInstanceOf(UnknownReferenceError);
    await expect(
      inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: randomUUID() }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: 'pas-un-uuid' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(identity.invitations).toHaveLength(1);
  });

  it('asks the identity provider before writing: its failure leaves no membership and no audit entry', async () => {
    const { workspace_id: ws } = await team();
    const legacyId = randomUUID();
    await editWorkspaceConfig(deps, ws, (config) => ({
      ...partsOf(config),
      members: [...config.members, { id: legacyId, name: 'Ancien', email: 'ancien-panne@acme.test' }],
    }));
    const before = await configVersion(ws);
    const { deps: withProvider, identity } = withIdentity();
    identity.failInvite = true;
    await expect(
      inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: legacyId }),
    ).rejects.toThrow('identity provider unavailable (test double)');
    expect(await configVersion(ws)).toBe(before);
    expect(await membership('ancien-panne@acme.test', ws)).toBeUndefined();
    expect(await auditItems(ws)).toEqual([]);
  });

  it('gives a member stored before memberships existed its membership item', async () => {
    const { workspace_id: ws } = await team();
    const legacyId = randomUUID();
    await editWorkspaceConfig(deps, ws, (config) => ({
      ...partsOf(config),
      members: [...config.members, { id: legacyId, name: 'Ancien', email: 'ancien@acme.test' }],
    }));
    expect(await membership('ancien@acme.test', ws)).toBeUndefined();
    const { deps: withProvider } = withIdentity();
    await inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: legacyId });
    expect(await membership('ancien@acme.test', ws)).toMatchObject({ member_id: legacyId, role: 'member' });
  });
});

describe('member role change', () => {
  it('changes the role in the member and its membership together; demoting the last admin: 409', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const bob = seed.members.bob as string;
    const alice = seed.members.alice as string;

    // The role a member has already: nothing written, no entry.
    const unchanged = await configVersion(ws);
    expect(
      await changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'member' }),
    ).toMatchObject({ id: bob, role: 'member' });
    expect(await configVersion(ws)).toBe(unchanged);

    const promoted = await changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'admin' });
    expect(promoted).toEqual({ id: bob, email: 'bob@acme.test', name: 'Bob Durand', role: 'admin', can_sign_in: true });
    expect(await membership('bob@acme.test', ws)).toMatchObject({ role: 'admin' });
    await changeRole(deps, { workspaceId: ws, actingMemberId: bob, memberId: alice, role: 'member' });
    expect(await membership('alice@acme.test', ws)).toMatchObject({ role: 'member' });

    const before = await configVersion(ws);
    const refused = changeRole(deps, { workspaceId: ws, actingMemberId: bob, memberId: bob, role: 'member' });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow(/dernier administrateur/);
    expect(await configVersion(ws)).toBe(before);
    expect(await membership('bob@acme.test', ws)).toMatchObject({ role: 'admin' });
    expect((await auditItems(ws)).map((item) => [item.action, item.member_id, item.summary])).toEqual([
      ['member.role_changed', alice, 'Rôle de « Bob Durand » changé : membre → administrateur.'],
      ['member.role_changed', bob, 'Rôle de « Alice Martin » changé : administrateur → membre.'],
    ]);
  });

  it('two admins demoting each other at once: exactly one succeeds, one admin stays', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const [alice, bob] = [seed.members.alice as string, seed.members.bob as string];
    await changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'admin' });

    const settled = await Promise.allSettled([
      changeRole(deps, { workspaceId: ws, actingMemberId: bob, memberId: alice, role: 'member' }),
      changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'member' }),
    ]);
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(rejected).toBeInstanceOf(ConflictError);
    const admins = (await listMembers(deps, ws)).members.filter((member) => member.role === 'admin');
    expect(admins).toHaveLength(1);
    const roles = [await membership('alice@acme.test', ws), await membership('bob@acme.test', ws)].map(
      (item) => item?.role,
    );
    expect(roles.sort()).toEqual(['admin', 'member']);
  });

  it('sees a removal landing between its read and its write, and refuses the last admin then', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const [alice, bob] = [seed.members.alice as string, seed.members.bob as string];
    await changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'admin' });
    const raced = racedBy(() => removeMember(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob }));
    await expect(
      changeRole(raced, { workspaceId: ws, actingMemberId: bob, memberId: alice, role: 'member' }),
    ).rejects.toThrow(/dernier administrateur/);
    expect(await membership('alice@acme.test', ws)).toMatchObject({ role: 'admin' });
  });
});

describe('member remove', () => {
  it('sets removed_at and deletes the membership in one transaction; the id stays in the configuration', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const bob = seed.members.bob as string;
    const counted = productionDeps();
    const roundTrips = countRoundTrips(counted.db);
    try {
      const removed = await removeMember(counted, {
        workspaceId: ws,
        actingMemberId: null,
        memberId: bob.toUpperCase(),
      });
      expect(removed).toEqual({ id: bob, can_sign_in: false });
      expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems']);
      expect(await membership('bob@acme.test', ws)).toBeUndefined();
      const stored = (await loadWorkspaceConfig(deps, ws)).members.find((member) => member.id === bob);
      expect(stored).toMatchObject({ id: bob, email: 'bob@acme.test', removed_at: expect.any(String) });
      expect((await listMembers(deps, ws)).members.find((member) => member.id === bob)).toMatchObject({
        can_sign_in: false,
      });

      // Again: the same answer, nothing written.
      roundTrips.reset();
      const version = await configVersion(ws);
      expect(await removeMember(counted, { workspaceId: ws, actingMemberId: null, memberId: bob })).toEqual(removed);
      expect(roundTrips.calls).toEqual(['GetItem']);
      expect(await configVersion(ws)).toBe(version);
      expect((await auditItems(ws)).map((item) => item.action)).toEqual(['member.removed']);

      // A removed member keeps no role to change, and is no member to invite; its e-mail may be added anew.
      await expect(
        changeRole(deps, { workspaceId: ws, actingMemberId: null, memberId: bob, role: 'admin' }),
      ).rejects.toBeInstanceOf(ConflictError);
      const { deps: withProvider } = withIdentity();
      await expect(
        inviteAgain(withProvider, { workspaceId: ws, actingMemberId: null, memberId: bob }),
      ).rejects.toBeInstanceOf(ConflictError);
      const back = await addMember(withProvider, {
        workspaceId: ws,
        actingMemberId: null,
        email: 'bob@acme.test',
        role: 'member',
      });
      expect(back.id).not.toBe(bob);
      expect(await membership('bob@acme.test', ws)).toMatchObject({ member_id: back.id });
    } finally {
      counted.db.destroy();
    }
  });

  it('refuses the last admin; two admins removing each other at once: exactly one succeeds', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const [alice, bob] = [seed.members.alice as string, seed.members.bob as string];
    await expect(removeMember(deps, { workspaceId: ws, actingMemberId: null, memberId: alice })).rejects.toThrow(
      /dernier administrateur/,
    );
    await changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob, role: 'admin' });

    const settled = await Promise.allSettled([
      removeMember(deps, { workspaceId: ws, actingMemberId: bob, memberId: alice }),
      removeMember(deps, { workspaceId: ws, actingMemberId: alice, memberId: bob }),
    ]);
    expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))[0]).toBeInstanceOf(
      ConflictError,
    );
    const left = [await membership('alice@acme.test', ws), await membership('bob@acme.test', ws)].filter(Boolean);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ role: 'admin' });
    await expect(
      removeMember(deps, { workspaceId: ws, actingMemberId: null, memberId: randomUUID() }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('tag create and rename', () => {
  it('renames a tag; a name another tag has: 409; each change audited', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    const vip = seed.tags.vip as string;
    const created = await addTag(deps, {
      workspaceId: ws,
      name: 'Salon',
      actingMemberId: seed.members.alice as string,
    });
    expect(
      await renameTag(deps, { workspaceId: ws, tagId: vip, name: ' Très important ', actingMemberId: null }),
    ).toEqual({
      id: vip,
      name: 'Très important',
    });
    // Its own name in other letters is no conflict.
    expect(await renameTag(deps, { workspaceId: ws, tagId: created.id, name: 'SALON', actingMemberId: null })).toEqual({
      id: created.id,
      name: 'SALON',
    });
    const taken = renameTag(deps, { workspaceId: ws, tagId: vip, name: 'chaud', actingMemberId: null });
    await expect(taken).rejects.toBeInstanceOf(ConflictError);
    await expect(taken).rejects.toThrow(
      "Un tag nommé « chaud » existe déjà (la casse ne compte pas) : rien n'a changé.",
    );
    await expect(
      renameTag(deps, { workspaceId: ws, tagId: randomUUID(), name: 'X', actingMemberId: null }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const tags = (await loadWorkspaceConfig(deps, ws)).tags.map((tag) => tag.name);
    expect(tags).toEqual(['Très important', 'Chaud', 'SALON']);
    expect((await auditItems(ws)).map((item) => [item.action, item.target_id, item.summary])).toEqual([
      ['tag.created', created.id, 'Tag « Salon » créé.'],
      ['tag.renamed', vip, 'Tag « VIP » renommé « Très important ».'],
      ['tag.renamed', created.id, 'Tag « Salon » renommé « SALON ».'],
    ]);
  });
});

describe('audit log pages', () => {
  it('lists entries newest first, by pages of `limit` with a cursor bound to the workspace', async () => {
    const seed = await team();
    const ws = seed.workspace_id;
    for (const name of ['A', 'B', 'C', 'D', 'E']) await addTag(deps, { workspaceId: ws, name });

    const first = await listAudit(deps, { workspaceId: ws, limit: 2 });
    expect(first.entries.map((entry) => entry.summary)).toEqual(['Tag « E » créé.', 'Tag « D » créé.']);
    expect(first.entries[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      at: expect.any(String),
      member_id: null,
      action: 'tag.created',
      target_id: expect.any(String),
      summary: 'Tag « E » créé.',
    });
    const second = await listAudit(deps, { workspaceId: ws, limit: 2, cursor: first.next_cursor as string });
    expect(second.entries.map((entry) => entry.summary)).toEqual(['Tag « C » créé.', 'Tag « B » créé.']);
    const last = await listAudit(deps, { workspaceId: ws, limit: 2, cursor: second.next_cursor as string });
    expect(last.entries.map((entry) => entry.summary)).toEqual(['Tag « A » créé.']);
    expect(last.next_cursor).toBeNull();
    expect((await listAudit(deps, { workspaceId: ws })).entries).toHaveLength(5);

    const other = await team();
    await expect(
      listAudit(deps, { workspaceId: other.workspace_id, cursor: first.next_cursor as string }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listAudit(deps, { workspaceId: ws, limit: 0 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listAudit(deps, { workspaceId: ws, limit: 101 })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('leaves out entries past their expiry that TTL has not removed yet', async () => {
    const { workspace_id: ws } = await team();
    const yearAndADayAgo = { ...deps, clock: () => new Date(Date.now() - 366 * 24 * 3600 * 1000) };
    await addTag(yearAndADayAgo, { workspaceId: ws, name: 'Ancienne' });
    await addTag(deps, { workspaceId: ws, name: 'Récente' });
    expect(await auditItems(ws)).toHaveLength(2);
    const page = await listAudit(deps, { workspaceId: ws, limit: 1 });
    expect(page.entries.map((entry) => entry.summary)).toEqual(['Tag « Récente » créé.']);
    expect(page.next_cursor).toBeNull();
  });
});
