import { readFile } from 'node:fs/promises';
import type { SeedOutput } from '../seed/seed';
import type { Deps } from '../../lib/storage/client';

/** `npm start`'s demo workspace, as seeded, and its admin's sign-in. */
export type Demo = { seed: SeedOutput; admin: { email: string; password: string } };

/**
 * The demo workspace (./demo-workspace.json) and its admin (docs/api.md#sign-in), added and invited as `member add`
 * does, then given a permanent password drawn like an invitation's: `npm start` prints it once with the other secrets,
 * and the settings page's journey test (test/e2e/settings-page-journey.test.ts) signs in with it. The modules are
 * imported only when called: the functions read their configuration from the environment `npm start` sets first.
 */
export async function seedDemoWorkspace(deps: Deps): Promise<Demo> {
  const { seedWorkspace } = await import('../seed/seed');
  const { addMember, temporaryPassword } = await import('../../lib/settings/members');
  const { commandLine } = await import('../../lib/storage/audit-log');
  const identity = (await import('../../lib/identity/cognito')).poolIdentityProvider();
  const description: unknown = JSON.parse(await readFile(new URL('./demo-workspace.json', import.meta.url), 'utf8'));
  const seed = await seedWorkspace(deps, description);
  const [email, password, name] = ['admin@demo.test', temporaryPassword(), 'Administrateur Démo'];
  const member = { workspaceId: seed.workspace_id, email, name, role: 'admin', actingMemberId: commandLine } as const;
  await addMember({ ...deps, identity }, { ...member, password });
  return { seed, admin: { email, password } };
}
