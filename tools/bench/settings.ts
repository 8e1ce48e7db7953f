import { readFile } from 'node:fs/promises';
import type { AuthDecision } from '../../lib/auth/context';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import type { MemberRole } from '../../lib/domain/model';
import type { Call, Send, Workspace } from './workspace';

/*
 * The settings API's first events (decisions 7.1, 7.2): its functions read what a person's tokens and codes are, so
 * the bench gives them real ones, from its own identity provider (tools/local/identity-provider.ts, started by run.ts).
 * Each route's first call is a line of ./settings-calls.json: method, path and body, whose `{name}` placeholders take
 * the run's values; the person it is made as (`as`; none for the sign-in routes, which carry their own proof); what
 * must exist beforehand (`needs`: a placeholder filled by the id a prerequisite's calls answer), made once or, where
 * the call uses it up (`fresh`: a removal, an undo, a reset code), once per cold start; `answers`, a status other
 * than a 2xx the bench expects, with `why`.
 */

/** The people of the bench (`signsIn`, an admin of tools/bench/workspace.json's workspace); `changesPassword`'s
 * password changes at every cold start, and each run resets one `resets` person's (a reset code is good once). */
export const benchPeople = {
  signsIn: 'membre-0@banc.test',
  changesPassword: 'membre-1@banc.test',
  signsOut: 'membre-2@banc.test',
  resets: (run: number) => `oubli-${run}@banc.test`,
};
export const benchPassword = () => 'Banc-Passw0rd-0!';

/** Their accounts, each with a permanent password: `runs` people resetting theirs, one a cold start. */
export async function createBenchPeople(identity: IdentityProvider, runs: number): Promise<void> {
  const resetting = Array.from({ length: runs }, (_, run) => benchPeople.resets(run));
  for (const email of [benchPeople.signsIn, benchPeople.changesPassword, benchPeople.signsOut, ...resetting]) {
    await identity.invite(email, 'Provisoire-Banc-1!');
    await identity.setPermanentPassword(email, benchPassword());
  }
}

/** A call of the table: `as` a bench person, the bench's API `key` or its `webhook`; `id`, where its answer's id is. */
type Step = { as?: string; method: string; path: string; body?: unknown; id?: string; answers?: number };
type FirstCall = Step & { needs?: Record<string, string>; fresh?: boolean; why?: string };
const table = JSON.parse(await readFile(new URL('./settings-calls.json', import.meta.url), 'utf8')) as {
  prerequisites: Record<string, Step[]>;
  routes: Record<string, FirstCall>;
};

/** The statuses other than a 2xx that a route's first call answers, by route id (the table says why). */
export const expectedAnswers = Object.fromEntries(
  Object.entries(table.routes).flatMap(([id, { answers }]) => (answers === undefined ? [] : [[id, answers]])),
);

type Membership = { id: string; role: MemberRole; member_id: string };
type Session = { access_token: string; refresh_token: string; workspaces: Membership[] };
/** A settings call and what the authorizer decided for it. */
export type AuthorizedCall = { call: Call; decision: AuthDecision };

/** `template` with each `{name}` placeholder of `values` replaced (ids, e-mails, numbers: nothing to escape). */
const fill = <T>(template: T, values: Record<string, string>): T =>
  JSON.parse(JSON.stringify(template).replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all)) as T;

/**
 * Each settings route's first call of cold start `run`, by route id, doing its real work in the bench workspace: the
 * sessions and what the table's `needs` name obtained through the API (`send`) beforehand, for `runs` cold starts.
 */
export async function settingsFirstCalls(workspace: Workspace, send: Send, runs: number) {
  const { seed } = workspace;
  const people: Record<string, string> = { ...benchPeople, resets: '' };
  const sessions: Record<string, Session> = {};
  for (const person of ['signsIn', 'changesPassword', 'signsOut']) {
    const body = { email: people[person], password: benchPassword() };
    sessions[person] = (await send({ method: 'POST', path: '/session', headers: {}, body })) as Session;
  }
  const [key = ''] = workspace.apiKeys(1);
  const tokens: Record<string, string | undefined> = { key, webhook: seed.webhook?.token };
  const callOf = (step: Step, values: Record<string, string>): Call => {
    const { method, path, body, as = '' } = fill(step, values);
    const token = tokens[as] ?? sessions[as]?.access_token;
    return { method, path, headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, body };
  };
  // Addresses no other run of the bench (or of its test, on a shared pool) has used.
  const unique = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  let made = 0;
  let shared: string | undefined;
  const prospect = () => workspace.prospects(1)[0] ?? '';
  const valuesOf = (run: number, template: unknown, prospectId: () => string): Record<string, string> => ({
    ...{ workspace_id: seed.workspace_id, endpoint_id: seed.webhook?.endpoint_id ?? '', password: benchPassword() },
    ...{ lead_email: encodeURIComponent(workspace.knownLeadEmail), unique: `${unique}-${(made += 1)}` },
    ...{ refresh_token: sessions.signsIn?.refresh_token ?? '', run: String(run), next: String(run + 1) },
    ...(JSON.stringify(template).includes('{prospect_id}') ? { prospect_id: prospectId() } : {}),
  });
  /** A first call's values for run `run`: the run's, the prospect it reads, its prerequisites' ids (a prospect each). */
  const instance = async (first: FirstCall, run: number) => {
    const values = valuesOf(run, first, () => (shared ??= prospect()));
    for (const [placeholder, prerequisite] of Object.entries(first.needs ?? {})) {
      const steps = table.prerequisites[prerequisite] ?? [];
      const own = valuesOf(run, steps, prospect);
      for (const step of steps) {
        // A step that `answers` a refusal: the webhook keeps a call's body, to replay, only when it refused it.
        const refused = (error: Error) =>
          error.message.includes(`answered ${step.answers}`) ? undefined : Promise.reject(error);
        const answer = await send(callOf(step, own)).catch(refused);
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
    const email = people[first.as ?? ''];
    if (email === undefined) return { outcome: 'anonymous' };
    const principal = {
      kind: 'member' as const,
      email,
      tokenId: `banc-${email}`,
      issuedAt: Math.floor(Date.now() / 1000),
    };
    if (!first.path.startsWith('/workspaces/{workspace_id}')) return { outcome: 'allowed', principal };
    const membership = sessions[first.as ?? '']?.workspaces.find((candidate) => candidate.id === seed.workspace_id);
    if (membership?.role !== 'admin') throw new Error(`${email} is no admin of the bench workspace`);
    const { member_id: memberId, role } = membership;
    return {
      outcome: 'allowed',
      principal: { ...principal, membership: { workspaceId: seed.workspace_id, memberId, role } },
    };
  };
  const calls: Record<string, (run: number) => AuthorizedCall> = {};
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
