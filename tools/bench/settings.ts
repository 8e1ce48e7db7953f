import { readFile } from 'node:fs/promises';
import { seedWorkspace } from '../seed/seed';
import type { AuthDecision } from '../../lib/auth/context';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import { productionDeps } from '../../lib/storage/client';
import type { Call, Send } from './workspace';

/*
 * The settings API's first calls (docs/api.md#sign-in, #settings-api), from ./settings-calls.json: its people (accounts
 * in the bench's identity provider), the workspace seeded for them (`signsIn` its admin), each route's call, whose
 * `{name}` placeholders take the run's values, made `as` a person (none for the sign-in routes: they carry their own
 * proof) once what it `needs` exists (a placeholder filled by the id a prerequisite's calls answer): once or, where the
 * call uses it up (`fresh`: a removal, an undo, a reset code), once per cold start; `answers`: a status other than a
 * 2xx, `why`.
 */

/** A call of the table: `as` a person, the workspace's API `key` or its `webhook`; `id`, where its answer's id is. */
type Step = { as?: string; method: string; path: string; body?: unknown; id?: string; answers?: number };
type FirstCall = Step & { needs?: Record<string, string>; fresh?: boolean; why?: string };
const table = JSON.parse(await readFile(new URL('./settings-calls.json', import.meta.url), 'utf8')) as {
  people: Record<'signsIn' | 'changesPassword' | 'signsOut' | 'resets', string>;
  password: string;
  workspace: { seed: { members: object[] }; prospect: object };
  prerequisites: Record<string, Step[]>;
  routes: Record<string, FirstCall>;
};
/** The statuses other than a 2xx that a route's first call answers, by route id (the table says why). */
export const expectedAnswers = Object.fromEntries(
  Object.entries(table.routes).flatMap(([id, { answers }]) => (answers === undefined ? [] : [[id, answers]])),
);

/** `template` with each `{name}` placeholder of `values` replaced (ids, e-mails, numbers: nothing to escape). */
const fill = <T>(template: T, values: Record<string, string>): T =>
  JSON.parse(JSON.stringify(template).replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all)) as T;
const numbered = <T>(template: T, count: number) =>
  Array.from({ length: count }, (_, run) => fill(template, { run: String(run) }));

/** Their accounts, each with a permanent password: `runs` people resetting theirs, one a cold start (a code is good once). */
export async function createBenchPeople(identity: IdentityProvider, runs: number): Promise<void> {
  const { resets, ...people } = table.people;
  for (const email of [...Object.values(people), ...numbered(resets, runs)]) {
    await identity.invite(email, 'Provisoire-Banc-1!');
    await identity.setPermanentPassword(email, table.password);
  }
}

type Session = { access_token: string; refresh_token: string };

/**
 * Each settings route's first call of cold start `run` and the authorizer's decision on it, by route id, doing its real
 * work: the workspace, the sessions and what the calls need obtained (`send`) beforehand, for `runs` cold starts.
 */
export async function settingsFirstCalls(send: Send, runs: number) {
  const people: Record<string, string> = table.people;
  const deps = productionDeps();
  const prospects = numbered(table.workspace.prospect, runs + 1);
  // A member of its own per route measured: its cold starts stay under the 120 requests a minute of one member.
  const routeMembers = Object.keys(table.routes).map((id) => ({ key: id, name: id, role: 'admin' as const }));
  const seeded = fill(table.workspace.seed, people);
  const description = { ...seeded, members: [...seeded.members, ...routeMembers], prospects };
  const seed = await seedWorkspace(deps, description).finally(() => deps.db.destroy());
  const sessions: Record<string, Session> = {};
  for (const person of ['signsIn', 'changesPassword', 'signsOut']) {
    const body = { email: people[person], password: table.password };
    sessions[person] = (await send({ method: 'POST', path: '/session', headers: {}, body })) as Session;
  }
  const tokens: Record<string, string | undefined> = {
    ...{ key: seed.api_keys.integration?.secret, webhook: seed.webhook?.token },
    ...Object.fromEntries(Object.entries(sessions).map(([person, session]) => [person, session.access_token])),
  };
  const callOf = (step: Step, values: Record<string, string>): Call => {
    const { method, path, body, as = '' } = fill(step, values);
    return { method, path, headers: tokens[as] === undefined ? {} : { authorization: `Bearer ${tokens[as]}` }, body };
  };
  // Addresses no other run of the bench (or of its test, on a shared pool) has used; the prospects handed out in turn.
  const unique = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  let [made, changed] = [0, 0];
  const valuesOf = (run: number, prospectId: string | undefined): Record<string, string> => ({
    ...{ workspace_id: seed.workspace_id, endpoint_id: seed.webhook?.endpoint_id ?? '', password: table.password },
    ...{ unique: `${unique}-${(made += 1)}`, run: String(run), next: String(run + 1) },
    ...{ refresh_token: sessions.signsIn?.refresh_token ?? '', prospect_id: prospectId ?? '' },
  });
  /** A first call's values in run `run`: the run's, the first prospect, its prerequisites' ids (a prospect each). */
  const instance = async (first: FirstCall, run: number) => {
    const values = valuesOf(run, seed.prospects['prospect-0']);
    for (const [placeholder, prerequisite] of Object.entries(first.needs ?? {})) {
      const steps = table.prerequisites[prerequisite] ?? [];
      const changes = JSON.stringify(steps).includes('{prospect_id}');
      const own = valuesOf(run, changes ? seed.prospects[`prospect-${(changed += 1)}`] : '');
      for (const step of steps) {
        // A step that `answers` a refusal: the webhook keeps a call's body, to replay, only when it refused it.
        const refused = (error: Error) =>
          error.message.includes(`answered ${step.answers}`) ? undefined : Promise.reject(error);
        const answer = await send(callOf(step, own)).catch(refused);
        if (step.id === undefined) continue;
        const id = step.id.split('.').reduce((value, part) => (value as Record<string, unknown>)[part], answer);
        if (typeof id !== 'string') throw new Error(`${prerequisite}: no ${step.id} answered`);
        values[placeholder] = id;
      }
    }
    return values;
  };
  const decisionOf = ({ as = '', path }: FirstCall, routeId: string): AuthDecision => {
    const [email, issuedAt] = [people[as], Math.floor(Date.now() / 1000)];
    if (email === undefined) return { outcome: 'anonymous' };
    const principal = { kind: 'member' as const, email, tokenId: `banc-${email}`, issuedAt };
    if (!path.startsWith('/workspaces/{workspace_id}')) return { outcome: 'allowed', principal };
    const [workspaceId, memberId] = [seed.workspace_id, seed.members[routeId] ?? ''];
    return { outcome: 'allowed', principal: { ...principal, membership: { workspaceId, memberId, role: 'admin' } } };
  };
  const calls: Record<string, (run: number) => { call: Call; decision: AuthDecision }> = {};
  for (const [routeId, first] of Object.entries(table.routes)) {
    const instances: Record<string, string>[] = [];
    for (let run = 0; run < (first.fresh === true ? runs : 1); run += 1) instances.push(await instance(first, run));
    const decision = decisionOf(first, routeId);
    calls[routeId] = (run) => {
      const values = { ...instances[first.fresh === true ? run : 0], run: String(run), next: String(run + 1) };
      return { call: callOf(first, values), decision };
    };
  }
  return calls;
}
