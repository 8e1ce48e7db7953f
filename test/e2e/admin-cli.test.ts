import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/admin-cli';
import { timeoutForProcesses } from '../support/process-starts';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

// Each test starts at most 3 processes of the command line: its time is counted from them.
jest.setTimeout(timeoutForProcesses(3));

const admin = runAdmin;

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'admin-cli-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('admin command line', () => {
  it('seeds from a file and prints exactly one JSON document with --json', async () => {
    const file = join(workDir, 'seed.json');
    await writeFile(file, JSON.stringify(aWorkspace()));
    const run = await admin('seed', '--file', file, '--json');

    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual([
      'workspace_id',
      'members',
      'tags',
      'pipelines',
      'recruitment_pipelines',
      'api_keys',
      'webhook',
      'prospects',
    ]);
    expect(output.api_keys.admin).toEqual({ id: expect.any(String), secret: expect.stringMatching(/^crm_key_/) });
  });

  it('lists keys and shows the webhook status as JSON documents', async () => {
    const seed = await seedTestWorkspace();

    const list = await admin('apikey', 'list', '--json', '--workspace', seed.workspace_id);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).api_keys).toHaveLength(2);

    const status = await admin('webhook', 'status', `--workspace=${seed.workspace_id}`, '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      endpoint_id: seed.webhook?.endpoint_id,
      url: `http://crm.test/webhooks/ingest-lead?endpoint_id=${seed.webhook?.endpoint_id}`,
      active: true,
      last_call_at: null,
    });
  });

  it('prints a readable table without --json', async () => {
    const seed = await seedTestWorkspace();
    const run = await admin('apikey', 'list', '--workspace', seed.workspace_id);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Identifiant\s+Nom\s+Droits/);
    expect(run.stdout).toContain('Tableau de bord');
  });

  it('exits 2 with a French message on stderr and nothing on stdout for a bad option or an unknown id', async () => {
    const seed = await seedTestWorkspace();
    const refused = await Promise.all([
      admin('apikey', 'list', '--workspace', seed.workspace_id, '--colour', 'blue', '--json'),
      admin('apikey', 'create', '--workspace', seed.workspace_id, '--name', 'X', '--scopes', 'everything', '--json'),
      admin('prospect', 'show', '--workspace', seed.workspace_id, '--id', randomUUID(), '--json'),
    ]);
    expect(refused.map((run) => [run.code, run.stdout])).toEqual([
      [2, ''],
      [2, ''],
      [2, ''],
    ]);
    expect(refused.map((run) => run.stderr)).toEqual([
      expect.stringContaining('Option inconnue pour « apikey list » : --colour'),
      expect.stringContaining('Droit inconnu : everything'),
      expect.stringContaining('Prospect inconnu dans cet espace'),
    ]);
  });
});
