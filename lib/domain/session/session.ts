import * as z from 'zod/mini';
import { type Deps, batchGetItems } from '../../storage/client';
import { messages as catalogue } from '../../messages';
import { errorFields, logger } from '../../observability';
import {
  countSignInAttempt,
  getSession,
  keepToken,
  putSession,
  readPerson,
  readSignOut,
  recordRefresh,
  recordSignOut,
  tokenSignedOut,
  uncountSignInAttempt,
  type MembershipItem,
  type SessionItem,
  type SignOutItem,
} from '../../storage/people';
import { emailKey, keys } from '../../storage/table-items';
import { configOf } from '../../storage/workspace-config';
import { ConflictError, InvalidInputError, RateLimitedError, UnauthorizedError, type MemberPrincipal } from '../model';
import type { Caller, IdentityProvider } from '../identity-provider';

/*
 * The sign-in routes and the person's own routes (docs/api.md#sign-in; docs/adr/0013-member-sign-in.md). The identity
 * provider checks passwords and issues tokens; the service keeps who may do what, the sessions of refresh tokens, and
 * each person's last cut-off (a sign-out, a password change or a reset: `SIGNOUT`, lib/storage/people.ts), which ends
 * the tokens issued and the sessions begun before it, but those it keeps.
 */

const messages = catalogue.session;

export type SessionDeps = Deps & { identity: IdentityProvider };

/** An address as a person types it; compared ignoring case (`emailKey`), which is also the provider's user name. */
const email = z.string().check(z.maxLength(254), z.regex(/^[^@\s]+@[^@\s]+$/, catalogue.body.refusedValue));
/** What the identity provider may be sent as a password it checks. */
const password = z.string().check(z.minLength(1), z.maxLength(256));
/**
 * A new password: the user pool's policy, checked here before any call, so that the provider's refusal of a weak
 * one never reads as a wrong current password (lib/identity/cognito.ts).
 */
const newPassword = z
  .string()
  .check(
    z.refine(
      (value) =>
        value.length >= 12 &&
        value.length <= 256 &&
        /[a-z]/.test(value) &&
        /[A-Z]/.test(value) &&
        /[0-9]/.test(value) &&
        /[^A-Za-z0-9]/.test(value),
      messages.weakPassword,
    ),
  );

export const signInSchema = z.strictObject({ email, password, new_password: z.optional(newPassword) });
export const refreshSchema = z.strictObject({ refresh_token: z.string().check(z.minLength(1), z.maxLength(8192)) });
export const changePasswordSchema = z.strictObject({ password, new_password: newPassword });
export const passwordResetSchema = z.strictObject({ email });
export const confirmPasswordResetSchema = z.strictObject({
  email,
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  new_password: newPassword,
});

/** docs/api.md#sign-in: more than 10 failed sign-ins for one e-mail within 15 minutes, 429 whatever the password. */
export const signInFailureLimit = 10;
const failureWindowMs = 15 * 60_000;
/** A session lives as long as its refresh token: Cognito's default validity, 30 days. */
const sessionSeconds = 30 * 24 * 3600;

export type WorkspaceOfPerson = { id: string; name: string; role: MembershipItem['role']; member_id: string };

/**
 * Sign-in (docs/api.md#sign-in). The attempt is counted before the identity provider is asked, and refused once the
 * e-mail has 10 in its window, so that no number of parallel guesses gets more than 10 passwords checked. An attempt
 * that proves the password right (a session, or the temporary password's 409) is taken back: the limit is on failures,
 * and a person signing in from several devices is never held back by their own successes; one that ends in a
 * failure, a lockout or an error stays counted.
 */
export async function signIn(deps: SessionDeps, input: z.output<typeof signInSchema>, caller: Caller) {
  const person = emailKey(input.email);
  const now = deps.clock().getTime();
  const windowStart = Math.floor(now / failureWindowMs) * failureWindowMs;
  const window = { start: new Date(windowStart).toISOString(), expiresAt: (windowStart + 2 * failureWindowMs) / 1000 };
  const retryAfter = Math.max(1, Math.ceil((windowStart + failureWindowMs - now) / 1000));
  if ((await countSignInAttempt(deps, person, window, signInFailureLimit)) === 'refused') {
    throw new RateLimitedError(messages.tooManySignIns, retryAfter);
  }
  const result = await deps.identity.signIn(person, input.password, input.new_password, caller);
  switch (result.kind) {
    case 'refused':
      throw new UnauthorizedError(messages.signInRefused);
    case 'locked_out':
      throw new RateLimitedError(messages.tooManySignIns, retryAfter);
    case 'new_password_required':
      await uncountSignInAttempt(deps, person, window.start);
      throw new ConflictError(messages.newPasswordRequired, {
        field: 'new_password',
        message: messages.newPasswordRequired,
      });
    case 'signed_in':
      break;
  }
  const { tokens } = result;
  const [, , { memberships, signOut }] = await Promise.all([
    uncountSignInAttempt(deps, person, window.start),
    putSession(deps, tokens.refreshToken, {
      email: person,
      signed_in_at: now,
      last_token_id: tokens.tokenId,
      expires_at: Math.floor(now / 1000) + sessionSeconds,
    }),
    readPerson(deps, person),
  ]);
  const [{ name, workspaces }] = await Promise.all([
    workspacesNamed(deps, memberships),
    // Asked after the cut-off, the provider issued this token after it: kept, should it share the cut-off's second.
    signOut !== undefined && signOut.signed_out_at_ms < now && tokenSignedOut(signOut, tokens)
      ? keepToken(deps, person, signOut.signed_out_at_ms, tokens.tokenId)
      : undefined,
  ]);
  return {
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    member: { email: person, name },
    workspaces,
  };
}

/**
 * What the person's last cut-off leaves of a session: `open`, begun after it (or none); `kept`, begun before it but
 * holding the token a password change kept (its last access token); `ended` otherwise.
 */
export function sessionAfterCutOff(
  session: Pick<SessionItem, 'signed_in_at' | 'last_token_id'>,
  signOut: SignOutItem | undefined,
): 'open' | 'kept' | 'ended' {
  if (signOut === undefined || session.signed_in_at > signOut.signed_out_at_ms) return 'open';
  return session.last_token_id !== undefined && signOut.kept_token_ids.includes(session.last_token_id)
    ? 'kept'
    : 'ended';
}

/**
 * A new access token for a session. Unknown, ended by a cut-off since it began, or expired: the same 401. The session
 * records the `jti` of each access token it is given, for a password change made with it to keep it; a session so
 * kept is moved to just past that change, so that it refreshes from then on as one begun since. Its token, like any
 * issued within the second of the cut-off it was checked against, is kept too.
 */
export async function refreshSession(deps: SessionDeps, input: z.output<typeof refreshSchema>) {
  const session = await getSession(deps, input.refresh_token);
  const now = deps.clock().getTime();
  if (session === undefined || session.expires_at * 1000 <= now) throw new UnauthorizedError(messages.refreshRefused);
  const signOut = await readSignOut(deps, session.email);
  const state = sessionAfterCutOff(session, signOut);
  if (state === 'ended') throw new UnauthorizedError(messages.refreshRefused);
  const refreshed = await deps.identity.refresh(session.email, input.refresh_token);
  if (refreshed === undefined) throw new UnauthorizedError(messages.refreshRefused);
  await Promise.all([
    recordRefresh(deps, input.refresh_token, {
      last_token_id: refreshed.tokenId,
      ...(state === 'kept' && signOut !== undefined ? { signed_in_at: signOut.signed_out_at_ms + 1 } : {}),
    }),
    signOut !== undefined && tokenSignedOut(signOut, refreshed)
      ? keepToken(deps, session.email, signOut.signed_out_at_ms, refreshed.tokenId)
      : undefined,
  ]);
  return { access_token: refreshed.accessToken, expires_in: refreshed.expiresIn };
}

/**
 * The person's sign-out (docs/adr/0013-member-sign-in.md, point 5): access tokens issued up to this second and the one
 * that signed out fail from the next call; so do the refresh tokens of every session begun before it. That record is
 * the authority for this API. The identity provider is then told too (its global sign-out), so that the access token
 * no longer works on its own calls either; where it fails, the sign-out still stands and answers as done: the
 * record already refuses the tokens here, only the service can use a refresh token (it needs the client secret,
 * docs/adr/0013-member-sign-in.md, point 2), and a client told of a failure could not sign out again, its token being
 * refused from now on. The failure is logged for the operators.
 */
export async function signOut(deps: SessionDeps, principal: MemberPrincipal, accessToken: string): Promise<void> {
  const now = deps.clock().getTime();
  await recordSignOut(deps, principal.email, {
    signed_out_at: Math.floor(now / 1000),
    signed_out_at_ms: now,
    token_id: principal.tokenId,
  });
  try {
    await deps.identity.signOutEverywhere(accessToken);
  } catch (error) {
    logger.error('identity provider sign-out failed', errorFields(error));
  }
}

/**
 * A password change ends the person's other sessions: once the provider has changed it, a cut-off that keeps only
 * the access token of the call (and so its session, docs/adr/0013-member-sign-in.md, point 5). Taken after the change,
 * so that a token issued while the provider changed it is ended too.
 */
export async function changePassword(
  deps: SessionDeps,
  principal: MemberPrincipal,
  accessToken: string,
  input: z.output<typeof changePasswordSchema>,
): Promise<void> {
  const outcome = await deps.identity.changePassword(accessToken, input.password, input.new_password);
  if (outcome === 'refused') throw new UnauthorizedError(messages.wrongPassword);
  const now = deps.clock().getTime();
  await recordSignOut(deps, principal.email, {
    signed_out_at: Math.floor(now / 1000),
    signed_out_at_ms: now,
    kept_token_ids: [principal.tokenId],
  });
}

/**
 * Always accepted (docs/api.md, "Settings API"): whatever the provider refused for this e-mail (unknown, or known
 * but past its limits or undeliverable), the answer is the one of a code sent, or it would tell who has an account.
 * The refusal is logged by its name alone, never the e-mail. The local run answers the code it delivered, if any.
 */
export async function startPasswordReset(
  deps: SessionDeps,
  input: z.output<typeof passwordResetSchema>,
  caller: Caller,
): Promise<{ code?: string }> {
  const started = await deps.identity.startPasswordReset(emailKey(input.email), caller);
  if (started.kind === 'refused') {
    logger.warn('password reset refused by the identity provider', { refusal: started.refusal });
    return {};
  }
  return deps.identity.answersDeliveredSecrets && started.code !== undefined ? { code: started.code } : {};
}

export async function confirmPasswordReset(
  deps: SessionDeps,
  input: z.output<typeof confirmPasswordResetSchema>,
  caller: Caller,
): Promise<void> {
  const outcome = await deps.identity.confirmPasswordReset(
    emailKey(input.email),
    input.code,
    input.new_password,
    caller,
  );
  if (outcome === 'bad_code') {
    throw new InvalidInputError(messages.badResetCode, { field: 'code', message: messages.badResetCode });
  }
  // Whoever held a session of the person (perhaps who made the reset needed) holds it no more: a cut-off keeping none.
  const now = deps.clock().getTime();
  await recordSignOut(deps, emailKey(input.email), { signed_out_at: Math.floor(now / 1000), signed_out_at_ms: now });
}

/**
 * The person's workspaces (`GET /workspaces`, `POST /session`): one Query of their partition, then one
 * BatchGetItem of those workspaces' configuration items, for the names (theirs and the workspaces').
 */
export async function workspacesOf(
  deps: Deps,
  person: string,
): Promise<{ name: string | null; workspaces: WorkspaceOfPerson[] }> {
  return workspacesNamed(deps, (await readPerson(deps, person)).memberships);
}

async function workspacesNamed(
  deps: Deps,
  memberships: MembershipItem[],
): Promise<{ name: string | null; workspaces: WorkspaceOfPerson[] }> {
  const items = await batchGetItems(
    deps,
    memberships.map((membership) => keys.workspace(membership.workspace_id)),
    { consistentRead: false },
  );
  const configs = new Map(items.map((item) => [String(item.id), configOf(item)]));
  let name: string | null = null;
  const workspaces = memberships.flatMap((membership) => {
    const config = configs.get(membership.workspace_id);
    if (config?.workspace === undefined) return [];
    name ??= config.members.find((member) => member.id === membership.member_id)?.name ?? null;
    return [
      {
        id: membership.workspace_id,
        name: config.workspace.name,
        role: membership.role,
        member_id: membership.member_id,
      },
    ];
  });
  return { name, workspaces };
}
