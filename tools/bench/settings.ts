import { readFile } from 'node:fs/promises';
import { seedWorkspace } from '../../lib/admin/seed';
import type { AuthDecision } from '../../lib/auth/context';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import { productionDeps } from '../../lib/deps';
import type { MemberRole } from '../../lib/domain/model';
import type { Call, Send, Workspace } from './workspace';

/*
 * The settings API's first calls (decisions 7.1, 7.2), from the table ./settings-calls.json: its people, with
 * accounts in the bench's own identity provider (tools/local/identity-provider.ts, started by run.ts); each route's
 * method, path and body, whose `{name}` placeholders take the run's values; the person it is made `as` (none for the
 * sign-in routes: they carry their own proof); what must exist beforehand (`needs`: a placeholder filled by the id
 * that a prerequisite's calls answer), made once or, where the call uses it up (`fresh`: a removal, an undo, a reset
 * code), once per cold start; and `answers`, a status other than a 2xx that a call is expected to get, with `why`.
 */

/** A call of the table: `as` a person, the bench's API `key` or its `webhook`; `id`, where its answer's id is. */
type Step = { as?: string; method: string; path: string; body?: unknown; id?: string; answers?: number };
type FirstCall = Step & { needs?: Record<string, string>; fresh?: boolean; why?: string; workspace?: 'own' };
const table = JSON.parse(await readFile(new URL('./settings-calls.json', import.meta.url), 'utf8')) as {
  people: Record<'signsIn' | 'changesPassword' | 'signsOut' | 'resets', string>;
  password: string;
  ownWorkspace: { seed: unknown };
  prerequisites: Record<string, Step[]>;
  routes: Record<string, FirstCall>;
};
/** `signsIn` is an admin of the bench workspace; each cold start resets the password of a `resets` person of its own. */
export const benchPeople = table.people;
/** The statuses other than a 2xx that a route's first call answers, by route id (the table says why). */
export const expectedAnswers = Object.fromEntries(
  Object.entries(table.routes).flatMap(([id, { answers }]) => (answers === undefined ? [] : [[id, answers]])),
);

/** `template` with each `{name}` placeholder of `values` replaced (ids, e-mails, numbers: nothing to escape). */
const fill = <T>(template: T, values: Record<string, string>): T =>
  JSON.parse(JSON.stringify(template).replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all)) as T;

/** Their accounts, each with a permanent password: `runs` people resetting theirs, one a cold start. */
export async function createBenchPeople(identity: IdentityProvider, runs: number): Promise<void> {
  const { resets, ...people } = table.people;
  const resetting = Array.from({ length: runs }, (_, run) => fill(resets, { run: String(run) }));
  for (const email of [...Object.values(people), ...resetting]) {
    await identity.invite(email, 'Provisoire-Banc-1!');
    await identity.setPermanentPassword(email, table.password);
  }
}

type Session = {
  access_token: string;
  refresh_token: string;
  workspaces: { id: string; role: MemberRole; member_id: string }[];
};

/**
 * Each settings route's first call of cold start `run` and what the authorizer decides for it, by route id, doing its
 * real work in the bench workspace or, for the routes the table says, in a workspace of their own (`ownWorkspace`,
 * seeded here): the sessions and what the calls need obtained (`send`) beforehand, for `runs` cold starts.
 */
export async function settingsFirstCalls(workspace: Workspace, send: Send, runs: number) {
  const { seed, knownLeadEmail } = workspace;
  const people: Record<string, string> = table.people;
  const deps = productionDeps();
  const own = await seedWorkspace(deps, fill(table.ownWorkspace.seed, people)).finally(() => deps.db.destroy());
  const workspaceOf = (first: FirstCall) => (first.workspace === 'own' ? own : seed).workspace_id;
  const sessions: Record<string, Session> = {};
  for (const person of ['signsIn', 'changesPassword', 'signsOut']) {
    const body = { email: people[person], password: table.password };
    sessions[person] = (await send({ method: 'POST', path: '/session', headers: {}, body })) as Session;
  }
  const tokens: Record<string, string | undefined> = { key: workspace.apiKeys(1)[0], webhook: seed.webhook?.token };
  const callOf = (step: Step, values: Record<string, string>): Call => {
    const { method, path, body, as = '' } = fill(step, values);
    const token = tokens[as] ?? sessions[as]?.access_token;
    return { method, path, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, body };
  };
  // Addresses no other run of the bench (or of its test, on a shared pool) has used.
  const unique = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  let [made, shared] = [0, ''];
  const prospect = () => workspace.prospects(1)[0] ?? '';
  const valuesOf = (workspaceId: string, run: number, template: unknown, prospectId: () => string) => ({
    ...{ workspace_id: workspaceId, endpoint_id: seed.webhook?.endpoint_id ?? '', password: table.password },
    ...{ lead_email: encodeURIComponent(knownLeadEmail), unique: `${unique}-${(made += 1)}`, run: String(run) },
    ...{ refresh_token: sessions.signsIn?.refresh_token ?? '', next: String(run + 1) },
    ...(JSON.stringify(template).includes('{prospect_id}') ? { prospect_id: prospectId() } : {}),
  });
  /** A first call's values in run `run`: the run's, the prospect it reads, its prerequisites' ids (a prospect each). */
  const instance = async (first: FirstCall, run: number) => {
    const values: Record<string, string> = valuesOf(workspaceOf(first), run, first, () => (shared ||= prospect()));
    for (const [placeholder, prerequisite] of Object.entries(first.needs ?? {})) {
      const steps = table.prerequisites[prerequisite] ?? [];
      const ownValues = valuesOf(workspaceOf(first), run, steps, prospect);
      for (const step of steps) {
        // A step that `answers` a refusal: the webhook keeps a call's body, to replay, only when it refused it.
        const refused = (error: Error) =>
          error.message.includes(`answered ${step.answers}`) ? undefined : Promise.reject(error);
        const answer = await send(callOf(step, ownValues)).catch(refused);
        const id = step.id
          ?.split('.')
          .reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], answer);
        if (step.id !== undefined && typeof id !== 'string') throw new Error(`${prerequisite}: no ${step.id} answered`);
        if (typeof id === 'string') values[placeholder] = id;
      }
    }
    return values;
  };
  const decisionOf = (first: FirstCall): AuthDecision => {
    const [{ as = '', path }, workspaceId] = [first, workspaceOf(first)];
    const email = people[as];
    if (email === undefined) return { outcome: 'anonymous' };
    const principal = {
      kind: 'member' as const,
      email,
      tokenId: `banc-${email}`,
      issuedAt: Math.floor(Date.now() / 1000),
    };
    if (!path.startsWith('/workspaces/{workspace_id}')) return { outcome: 'allowed', principal };
    const membership =
      first.workspace === 'own'
        ? { member_id: own.members.admin ?? '', role: 'admin' }
        : sessions[as]?.workspaces.find((candidate) => candidate.id === workspaceId);
    if (membership?.role !== 'admin') throw new Error(`${email} is no admin of workspace ${workspaceId}`);
    const { member_id: memberId, role } = membership;
    return {
      outcome: 'allowed',
      principal: { ...principal, membership: { workspaceId, memberId, role } },
    };
  };
  const calls: Record<string, (run: number) => { call: Call; decision: AuthDecision }> = {};
  for (const [routeId, first] of Object.entries(table.routes)) {
    const instances: Record<string, string>[] = [];
    for (let run = 0; run < (first.fresh === true ? runs : 1); run += 1) instances.push(await instance(first, run));
    const decision = decisionOf(first);
    calls[routeId] = (run) => {
      const values = { ...instances[first.fresh === true ? run : 0], run: String(run), next: String(run + 1) };
      return { call: callOf(first, values), decision };
    };
  }
  return calls;
}
