import type { AuthDecision } from '../../lib/auth/context';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import type { Call, Send } from './workspace';

/*
 * The settings API's first events (decisions 7.1): its functions read what a person's tokens and codes are, so the
 * bench gives them real ones, from its own identity provider (tools/local/identity-provider.ts, started by run.ts).
 */

/** The people of the bench; `signsIn` is a member of tools/bench/workspace.json's workspaces. */
export const benchPeople = {
  signsIn: 'membre-0@banc.test',
  /** Their password changes at every cold start: each run's is the previous run's new one. */
  changesPassword: 'membre-1@banc.test',
  signsOut: 'membre-2@banc.test',
  /** One person a run: a reset code is good once, and a new one replaces the last. */
  resets: (run: number) => `oubli-${run}@banc.test`,
};

/** The password of version `version` (a change of password makes the next). */
export const benchPassword = (version = 0) => `Banc-Passw0rd-${version}!`;

/** Their accounts, each with a permanent password: `runs` people resetting theirs, one a cold start. */
export async function createBenchPeople(identity: IdentityProvider, runs: number): Promise<void> {
  const resetting = Array.from({ length: runs }, (_, run) => benchPeople.resets(run));
  for (const email of [benchPeople.signsIn, benchPeople.changesPassword, benchPeople.signsOut, ...resetting]) {
    await identity.invite(email, 'Provisoire-Banc-1!');
    await identity.setPermanentPassword(email, benchPassword());
  }
}

/** A settings call and what the authorizer decided for it. */
export type AuthorizedCall = { call: Call; decision: AuthDecision };

const call = (method: string, path: string, body?: unknown, accessToken?: string): Call => ({
  method,
  path,
  headers: accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` },
  body,
});

/** A signed-in person as the authorizer passes them on, outside any workspace (their session, their workspaces). */
const signedIn = (email: string): AuthDecision => ({
  outcome: 'allowed',
  principal: { kind: 'member', email, tokenId: `banc-${email}`, issuedAt: Math.floor(Date.now() / 1000) },
});

/** The sign-in routes carry their own proof: the authorizer reads nothing. */
const anonymous: AuthDecision = { outcome: 'anonymous' };

type Session = { access_token: string; refresh_token: string };

/**
 * Each settings route's first call of cold start `run`, by route id, each doing its real work: the tokens and reset
 * codes obtained through the API (`send`) beforehand, for `runs` cold starts.
 */
export async function settingsFirstCalls(
  send: Send,
  runs: number,
): Promise<Record<string, (run: number) => AuthorizedCall>> {
  const signIn = (email: string) => call('POST', '/session', { email, password: benchPassword() });
  const session = (await send(signIn(benchPeople.signsIn))) as Session;
  const changing = (await send(signIn(benchPeople.changesPassword))) as Session;
  const leaving = (await send(signIn(benchPeople.signsOut))) as Session;
  const codes: string[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = (await send(call('POST', '/password-reset', { email: benchPeople.resets(run) }))) as {
      code: string;
    };
    codes.push(started.code);
  }
  return {
    signIn: () => ({ call: signIn(benchPeople.signsIn), decision: anonymous }),
    refreshSession: () => ({
      call: call('POST', '/session/refresh', { refresh_token: session.refresh_token }),
      decision: anonymous,
    }),
    signOut: () => ({
      call: call('DELETE', '/session', undefined, leaving.access_token),
      decision: signedIn(benchPeople.signsOut),
    }),
    changePassword: (run) => ({
      call: call(
        'POST',
        '/session/password',
        { password: benchPassword(run), new_password: benchPassword(run + 1) },
        changing.access_token,
      ),
      decision: signedIn(benchPeople.changesPassword),
    }),
    startPasswordReset: () => ({
      call: call('POST', '/password-reset', { email: benchPeople.signsIn }),
      decision: anonymous,
    }),
    confirmPasswordReset: (run) => ({
      call: call('POST', '/password-reset/confirm', {
        email: benchPeople.resets(run),
        code: codes[run],
        new_password: benchPassword(1),
      }),
      decision: anonymous,
    }),
    listMyWorkspaces: () => ({
      call: call('GET', '/workspaces', undefined, session.access_token),
      decision: signedIn(benchPeople.signsIn),
    }),
  };
}
