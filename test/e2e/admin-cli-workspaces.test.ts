import { productionDeps } from '../../lib/storage/client';
import { runAdminInProcess } from '../support/admin-cli';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

describe('admin command line: workspaces', () => {
  it('prints the workspaces as one JSON document with --json, the one just seeded among them', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ workspace: { name: 'Listé' }, prospects: [] }));

    const run = await runAdminInProcess(deps, 'workspace', 'list', '--json');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as { workspaces: { id: string; name: string; created_at: string }[] };
    expect(Object.keys(document)).toEqual(['workspaces']);
    expect(document.workspaces).toContainEqual({
      id: seed.workspace_id,
      name: 'Listé',
      created_at: expect.any(String),
    });
    const dates = document.workspaces.map((workspace) => workspace.created_at);
    expect(dates).toEqual([...dates].sort());
  });

  it('sets the phone settings with --json: the document, shared_numbers once indexed, nothing on stderr', async () => {
    const seed = await seedTestWorkspace(
      aWorkspace({
        workspace: { name: 'Réglé' },
        prospects: [
          { key: 'a', phone: '06 12 34 56 78' },
          { key: 'b', phone: '0612345678' },
        ],
      }),
    );
    const setRegion = (region: string, ...json: string[]) =>
      runAdminInProcess(deps, 'workspace', 'set', '--workspace', seed.workspace_id, '--phone-region', region, ...json);
    const region = await setRegion('be', '--json');
    expect({ code: region.code, stderr: region.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(region.stdout)).toEqual({
      id: seed.workspace_id,
      name: 'Réglé',
      phone_matching: 'exact',
      phone_region: 'BE',
      time_zone: 'Europe/Paris',
      retention_months: null,
      created_at: expect.any(String),
    });

    const on = await runAdminInProcess(
      deps,
      'workspace',
      'set',
      '--workspace',
      seed.workspace_id,
      '--phone-matching',
      'e164',
      '--phone-region',
      'FR',
      '--json',
    );
    expect({ code: on.code, stderr: on.stderr }).toEqual({ code: 0, stderr: '' });
    const document = JSON.parse(on.stdout) as {
      shared_numbers: { phone_e164: string; kept: string; others: string[] }[];
    };
    expect(Object.keys(document)).toEqual([
      'id',
      'name',
      'phone_matching',
      'phone_region',
      'time_zone',
      'retention_months',
      'created_at',
      'shared_numbers',
    ]);
    expect(document.shared_numbers).toEqual([
      { phone_e164: '+33612345678', kept: expect.any(String), others: [expect.any(String)] },
    ]);

    const refused = await setRegion('XX');
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(/^Erreur : Valeur de --phone-region invalide/);
  });
});
