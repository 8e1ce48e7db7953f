import { randomUUID } from 'node:crypto';
import { seedWorkspace, type SeedDescription, type SeedOutput } from '../../tools/seed/seed';
import { productionDeps } from '../../lib/storage/client';
import type { MemberRole } from '../../lib/domain/model';
import { poolIdentityProvider } from '../../lib/identity/cognito';
import type { TestApi } from './local-api';
import { aWorkspace } from './seed';

/**
 * People who sign in, for the settings API's tests over HTTP (docs/api.md#sign-in): a seeded workspace whose members
 * `admin` (role admin) and `member` (role member) have e-mails of their own (the run's cognito-local pool is shared
 * by every test file), a permanent password set through the identity provider, and a session opened by
 * `POST /session` on the API under test: the same calls a person makes.
 */
export type Person = { email: string; memberId: string; accessToken: string; refreshToken: string };
export type PeopleWorkspace = { seed: SeedOutput; admin: Person; member: Person };

export const peoplePassword = 'Mot-de-passe-1!';

export async function workspaceWithPeople(
  api: TestApi,
  description: SeedDescription = aWorkspace(),
): Promise<PeopleWorkspace> {
  const deps = productionDeps();
  const identity = poolIdentityProvider();
  const unique = randomUUID();
  const emails: Record<MemberRole, string> = {
    admin: `admin-${unique}@acme.test`,
    member: `member-${unique}@acme.test`,
  };
  try {
    const seed = await seedWorkspace(deps, {
      ...description,
      members: [
        { key: 'admin', name: 'Alice Martin', email: emails.admin, role: 'admin' },
        { key: 'member', name: 'Bob Durand', email: emails.member, role: 'member' },
        ...(description.members ?? []).filter((member) => member.key !== 'admin' && member.key !== 'member'),
      ],
    });
    const person = async (role: MemberRole): Promise<Person> => {
      await identity.invite(emails[role], `Provisoire-${unique}-A1!`);
      await identity.setPermanentPassword(emails[role], peoplePassword);
      return { email: emails[role], memberId: seed.members[role] as string, ...(await signIn(api, emails[role])) };
    };
    const [admin, member] = await Promise.all([person('admin'), person('member')]);
    return { seed, admin, member };
  } finally {
    deps.db.destroy();
  }
}

/** `POST /session` with the people's password: the access and refresh tokens, or the test fails. */
export async function signIn(
  api: TestApi,
  email: string,
  password = peoplePassword,
): Promise<Pick<Person, 'accessToken' | 'refreshToken'>> {
  const response = await api.request('POST', '/session', { body: { email, password } });
  if (response.status !== 200) throw new Error(`POST /session answered ${response.status}: ${response.text}`);
  const body = response.body as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

export const bearer = (person: Pick<Person, 'accessToken'>) => ({ Authorization: `Bearer ${person.accessToken}` });
