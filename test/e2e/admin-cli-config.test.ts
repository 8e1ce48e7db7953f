import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient, productionDeps } from '../../lib/storage/client';
import { main } from '../../tools/admin/main';
import { loadWorkspaceConfig } from '../../lib/storage/workspace-config';
import { listAudit } from '../../lib/settings/audit';
import { runAdminInProcess, runAdminWithIdentity } from '../support/admin-cli';
import { recordingIdentityProvider } from '../support/recording-identity';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * The configuration commands of the admin command line (docs/api.md#admin-command-line), its `main` in process
 * (the process around it is proven by test/e2e/admin-cli.test.ts): one JSON document with --json, a readable text
 * otherwise, exit 2 and nothing written for a name already taken.
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

describe('admin command line: configuration edits', () => {
  it('tag add --json prints the new tag as one document; a second one of that name exits 2', async () => {
    const { workspace_id: workspaceId } = await seedTestWorkspace(aWorkspace({ prospects: [] }));

    const addTag = (name: string) =>
      runAdminInProcess(deps, 'tag', 'add', '--workspace', workspaceId, '--name', name, '--json');
    const added = await addTag('Salon 2027');
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    const tag = JSON.parse(added.stdout);
    expect(tag).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Salon 2027' });

    const again = await addTag('SALON 2027');
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 2, stdout: '' });
    expect(again.stderr).toBe(
      "Erreur : Un tag nommé « SALON 2027 » existe déjà (la casse ne compte pas) : rien n'a changé.\n",
    );
    const tags = (await loadWorkspaceConfig(deps, workspaceId)).tags;
    expect(tags.map((entry) => entry.name)).toEqual(['VIP', 'Chaud', 'Salon 2027']);
    expect(tags.at(-1)?.id).toBe(tag.id);
  });

  it('pipeline add, stage add, column add and member add print their documents', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ prospects: [] }));
    const workspace = ['--workspace', seed.workspace_id];
    const json = async (...args: string[]) => {
      const run = await runAdminInProcess(deps, ...args, '--json');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(run.stdout);
    };

    const pipeline = await json('pipeline', 'add', ...workspace, '--default', '--name', 'Salons');
    expect(pipeline).toEqual({ id: expect.any(String), name: 'Salons', is_default: true, active: true, stages: [] });
    const stage = await json(
      'stage',
      'add',
      ...workspace,
      '--pipeline',
      pipeline.id,
      '--name',
      'Contact',
      '--type',
      'Appointment Setting',
    );
    expect(stage).toEqual({
      id: expect.any(String),
      name: 'Contact',
      type: 'Appointment Setting',
      pipeline_id: pipeline.id,
    });
    const devs = seed.recruitment_pipelines.devs?.id as string;
    const column = await json('column', 'add', ...workspace, '--pipeline', devs, '--name', 'Offre');
    expect(column).toEqual({ id: expect.any(String), name: 'Offre', pipeline_id: devs });
    const member = await json(
      'member',
      'add',
      ...workspace,
      '--name',
      'Carla',
      '--email',
      'carla@acme.test',
      '--role',
      'admin',
    );
    expect(member).toEqual({
      id: expect.any(String),
      email: 'carla@acme.test',
      name: 'Carla',
      role: 'admin',
      invited: true,
    });

    const text = await runAdminInProcess(deps, 'tag', 'add', ...workspace, '--name', 'Lu');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Identifiant : [0-9a-f-]{36}\nNom {9}: Lu\n$/);

    // --default is a flag: it takes no value (the former `--default oui|non` is refused, nothing written).
    const badDefault = await runAdminInProcess(deps, 'pipeline', 'add', ...workspace, '--name', 'X', '--default=oui');
    expect({ code: badDefault.code, stdout: badDefault.stdout }).toEqual({ code: 2, stdout: '' });
    expect(badDefault.stderr).toBe("Erreur : L'option --default ne prend pas de valeur.\n");
    const notDefault = await json('pipeline', 'add', ...workspace, '--name', 'Foires');
    expect(notDefault).toMatchObject({ name: 'Foires', is_default: false });

    const config = await loadWorkspaceConfig(deps, seed.workspace_id);
    expect(config.salesPipelines.filter((entry) => entry.is_default).map((entry) => entry.id)).toEqual([pipeline.id]);
    expect(config.salesPipelines.find((entry) => entry.id === pipeline.id)?.stages).toEqual([
      { id: stage.id, name: 'Contact', type: 'Appointment Setting', order: 0 },
    ]);
  });

  it('member add: invites with the identity provider, --password sets a permanent one; audit entry without a secret', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ prospects: [] }));
    const workspace = ['--workspace', seed.workspace_id];
    const identity = recordingIdentityProvider();

    const run = await runAdminWithIdentity(
      deps,
      identity,
      'member',
      'add',
      ...workspace,
      '--email',
      'Dora@Acme.test',
      '--role',
      'member',
      '--password',
      'Un-mot-de-passe-9',
      '--json',
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const member = JSON.parse(run.stdout);
    expect(member).toEqual({
      id: expect.any(String),
      email: 'Dora@Acme.test',
      name: 'Dora@Acme.test',
      role: 'member',
      invited: true,
    });
    expect(identity.invitations.map((invitation) => invitation.email)).toEqual(['dora@acme.test']);
    expect(identity.permanentPasswords).toEqual([{ email: 'dora@acme.test', password: 'Un-mot-de-passe-9' }]);
    const audit = await listAudit(deps, { workspaceId: seed.workspace_id });
    expect(audit.entries).toEqual([
      expect.objectContaining({ member_id: null, action: 'member.invited', target_id: member.id }),
    ]);
    const stored = JSON.stringify(audit);
    expect(stored).not.toContain('Un-mot-de-passe-9');
    expect(stored).not.toContain(identity.invitations[0]?.temporaryPassword);

    // The same person again (case ignored), a bad role, --password where the provider e-mails (AWS): exit 2.
    const again = await runAdminWithIdentity(
      deps,
      identity,
      'member',
      'add',
      ...workspace,
      '--email',
      'dora@acme.test',
      '--role',
      'admin',
    );
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 2, stdout: '' });
    expect(again.stderr).toBe(
      "Erreur : « dora@acme.test » est déjà membre de cet espace (la casse ne compte pas) : rien n'a changé.\n",
    );
    const badRole = await runAdminWithIdentity(
      deps,
      identity,
      'member',
      'add',
      ...workspace,
      '--email',
      'e@acme.test',
      '--role',
      'owner',
    );
    expect(badRole).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Erreur : Rôle invalide : « owner » (admin ou member attendu).\n',
    });
    const onAws = await runAdminWithIdentity(
      deps,
      recordingIdentityProvider(false),
      'member',
      'add',
      ...workspace,
      '--email',
      'f@acme.test',
      '--role',
      'member',
      '--password',
      'Un-mot-de-passe-9',
    );
    expect(onAws.code).toBe(2);
    expect(onAws.stderr).toMatch(/--password ne sert qu'avec le fournisseur d'identité local/);
    expect(identity.invitations).toHaveLength(1);

    // A person who already chose a password (a member of another workspace): added, not invited, told so.
    identity.statuses.set('gus@acme.test', 'CONFIRMED');
    const known = await runAdminWithIdentity(
      deps,
      identity,
      'member',
      'add',
      ...workspace,
      '--email',
      'gus@acme.test',
      '--role',
      'member',
    );
    expect({ code: known.code, stderr: known.stderr }).toEqual({ code: 0, stderr: '' });
    expect(known.stdout).toContain(
      'Invitation  : aucune : la personne a déjà choisi son mot de passe, qui reste le sien\n',
    );
    expect(identity.invitations).toHaveLength(1);

    // Local tables where no `npm start` wrote where its identity provider is: refused before anything is written.
    const client = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    const bare = `crm-test-no-idp-${randomUUID()}`;
    await client.send(
      new CreateTableCommand({
        TableName: bare,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    const output = { stdout: '', stderr: '' };
    const code = await main(['member', 'add', ...workspace, '--email', 'g@acme.test', '--role', 'member'], {
      env: process.env,
      deps: { ...deps, tableName: bare },
      stdout: (text) => void (output.stdout += text),
      stderr: (text) => void (output.stderr += text),
    });
    await client.send(new DeleteTableCommand({ TableName: bare }));
    client.destroy();
    expect({ code, stdout: output.stdout }).toEqual({ code: 2, stdout: '' });
    expect(output.stderr).toMatch(/Aucun fournisseur d'identité local n'est inscrit dans cette table/);
    expect((await loadWorkspaceConfig(deps, seed.workspace_id)).members.map((entry) => entry.email)).toEqual([
      'alice@acme.test',
      'bob@acme.test',
      'Dora@Acme.test',
      'gus@acme.test',
    ]);
  });
});
