import { runAdmin } from '../support/admin-cli';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

describe('admin command line: workspaces', () => {
  it('prints the workspaces as one JSON document with --json, the one just seeded among them', async () => {
    const seed = await seedTestWorkspace(aWorkspace({ workspace: { name: 'Listé' }, prospects: [] }));

    const run = await runAdmin('workspace', 'list', '--json');
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
});
