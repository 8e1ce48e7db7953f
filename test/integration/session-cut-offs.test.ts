import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import { UnauthorizedError } from '../../lib/domain/model';
import { refreshSession, sessionAfterCutOff, signIn } from '../../lib/domain/session/session';
import { emailKey } from '../../lib/storage/table-items';
import { getSession, readSignOut, recordSignOut, tokenSignedOut } from '../../lib/storage/people';
import { recordingIdentityProvider } from '../support/recording-identity';
import { countRoundTrips } from '../support/round-trips';

/*
 * A person's cut-off (a sign-out, a password change, a reset: docs/adr/0013-member-sign-in.md, point 5) and the tokens
 * issued within its very second, which a token's `iat` (seconds) cannot place before or after it: on DynamoDB Local,
 * with a clock and an identity provider whose times the tests choose.
 */

const production = productionDeps();
const roundTrips = countRoundTrips(production.db);
afterAll(() => production.db.destroy());
const caller = { ipAddress: '203.0.113.7' };
const password = 'Mot-de-passe-1!';

/** A cut-off 200 ms into the second `second`, a person signed up with the recording provider, a clock to set. */
async function aPersonCutOffAt(second: number, kept: string[] = []) {
  const email = emailKey(`cut-${randomUUID()}@acme.test`);
  const cutOffMs = second * 1000 + 200;
  await recordSignOut(production, email, {
    signed_out_at: second,
    signed_out_at_ms: cutOffMs,
    kept_token_ids: kept,
  });
  const identity = recordingIdentityProvider();
  identity.passwords.set(email, password);
  identity.issuedAt = () => second;
  let now = cutOffMs;
  const deps = { ...production, identity, clock: () => new Date(now) };
  return { email, cutOffMs, identity, deps, setClock: (ms: number) => void (now = ms) };
}

const second = Math.floor(Date.now() / 1000);

describe('a sign-in within the second of a cut-off', () => {
  it('keeps its token when it began after the cut-off', async () => {
    const { email, cutOffMs, deps, setClock } = await aPersonCutOffAt(second);
    setClock(cutOffMs + 300);
    const session = await signIn(deps, { email, password }, caller);
    const signOut = await readSignOut(production, email);
    expect(signOut?.kept_token_ids).toHaveLength(1);
    const [kept] = signOut?.kept_token_ids ?? [];
    expect(tokenSignedOut(signOut, { tokenId: kept as string, issuedAt: second })).toBe(false);
    await expect(getSession(production, session.refresh_token)).resolves.toMatchObject({ last_token_id: kept });
  });

  it('does not keep it when it began before the cut-off', async () => {
    const { email, cutOffMs, deps, setClock } = await aPersonCutOffAt(second);
    setClock(cutOffMs - 100);
    await signIn(deps, { email, password }, caller);
    await expect(readSignOut(production, email)).resolves.toMatchObject({ kept_token_ids: [] });
  });

  it('writes nothing more when its token is of a later second', async () => {
    const { email, cutOffMs, identity, deps, setClock } = await aPersonCutOffAt(second);
    setClock(cutOffMs + 1000);
    identity.issuedAt = () => second + 1;
    roundTrips.reset();
    await signIn(deps, { email, password }, caller);
    await expect(readSignOut(production, email)).resolves.toMatchObject({ kept_token_ids: [] });
    expect(roundTrips.calls.filter((call) => call === 'UpdateItem')).toHaveLength(2);
  });
});

describe('the refresh of a session a password change kept', () => {
  it('is let through, moves the session just past the change, and keeps the new token of that second', async () => {
    const { email, cutOffMs, identity, deps, setClock } = await aPersonCutOffAt(second - 10);
    // The session begins before the change (its own cut-off, replaced below), the change keeps its token.
    setClock(cutOffMs + 1000);
    identity.issuedAt = () => second - 9;
    const session = await signIn(deps, { email, password }, caller);
    const before = await getSession(production, session.refresh_token);
    const changedAt = second * 1000 + 200;
    await recordSignOut(production, email, {
      signed_out_at: second,
      signed_out_at_ms: changedAt,
      kept_token_ids: [before?.last_token_id as string],
    });
    setClock(changedAt + 300);
    identity.issuedAt = () => second;
    expect(sessionAfterCutOff(before as NonNullable<typeof before>, await readSignOut(production, email))).toBe('kept');
    await refreshSession(deps, { refresh_token: session.refresh_token });
    const after = await getSession(production, session.refresh_token);
    expect(after?.signed_in_at).toBe(changedAt + 1);
    expect(after?.last_token_id).not.toBe(before?.last_token_id);
    const signOut = await readSignOut(production, email);
    expect([...(signOut?.kept_token_ids ?? [])].sort()).toEqual([before?.last_token_id, after?.last_token_id].sort());
    expect(sessionAfterCutOff(after as NonNullable<typeof after>, signOut)).toBe('open');
  });

  it('is refused for a session whose last token the change did not keep', async () => {
    const { email, cutOffMs, identity, deps, setClock } = await aPersonCutOffAt(second - 10);
    setClock(cutOffMs + 1000);
    identity.issuedAt = () => second - 9;
    const session = await signIn(deps, { email, password }, caller);
    await recordSignOut(production, email, {
      signed_out_at: second,
      signed_out_at_ms: second * 1000 + 200,
      kept_token_ids: ['the-token-of-another-session'],
    });
    await expect(refreshSession(deps, { refresh_token: session.refresh_token })).rejects.toThrow(UnauthorizedError);
  });
});

describe('the cut-off itself', () => {
  it('never goes back: an earlier one landing later leaves the later in place', async () => {
    const { email, cutOffMs } = await aPersonCutOffAt(second, ['kept']);
    await recordSignOut(production, email, {
      signed_out_at: second - 1,
      signed_out_at_ms: cutOffMs - 1000,
      token_id: 'signing-out',
    });
    await expect(readSignOut(production, email)).resolves.toEqual({
      signed_out_at: second,
      signed_out_at_ms: cutOffMs,
      kept_token_ids: ['kept'],
    });
  });
});
