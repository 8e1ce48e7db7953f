import { randomUUID } from 'node:crypto';
import { productionDeps } from '../../lib/storage/client';
import { RateLimitedError, UnauthorizedError } from '../../lib/domain/model';
import { signIn, signInFailureLimit } from '../../lib/domain/session/session';
import { putMembershipDirectly } from '../support/memberships';
import { recordingIdentityProvider } from '../support/recording-identity';
import { countRoundTrips } from '../support/round-trips';

/*
 * The per-e-mail sign-in limit (docs/api.md#sign-in: more than 10 failed sign-ins within 15 minutes, 429) on DynamoDB
 * Local, with an identity provider that counts the passwords it is asked to check.
 */

const production = productionDeps();
const roundTrips = countRoundTrips(production.db);
// One fixed instant, in the middle of a 15-minute window: no test straddles two windows.
const now = new Date('2026-03-02T10:07:30.000Z');
const deps = { ...production, clock: () => now };
const caller = { ipAddress: '203.0.113.7' };
const password = 'Mot-de-passe-1!';
afterAll(() => production.db.destroy());

const anEmail = () => `limit-${randomUUID()}@acme.test`;

/** The error a sign-in ends with, or `signed_in`. */
async function attempt(identity: ReturnType<typeof recordingIdentityProvider>, email: string, secret: string) {
  try {
    await signIn({ ...deps, identity }, { email, password: secret }, caller);
    return 'signed_in';
  } catch (error) {
    if (error instanceof UnauthorizedError) return 'refused';
    if (error instanceof RateLimitedError) return 'rate_limited';
    throw error;
  }
}

describe('failed sign-ins of one e-mail', () => {
  it('lets at most 10 of 20 parallel wrong passwords reach the identity provider; the others get 429', async () => {
    const identity = recordingIdentityProvider();
    const email = anEmail();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => attempt(identity, email, `Devine-${index}!`)),
    );
    expect(identity.signIns).toHaveLength(signInFailureLimit);
    expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(identity.signIns.length);
    expect(outcomes.filter((outcome) => outcome === 'rate_limited')).toHaveLength(20 - identity.signIns.length);
    // The right password is refused too, without reaching the provider.
    identity.passwords.set(email, password);
    await expect(attempt(identity, email, password)).resolves.toBe('rate_limited');
    expect(identity.signIns).toHaveLength(10);
  });

  it('does not charge a successful sign-in: 9 failures, 5 sign-ins, then a 10th failure still reaches the provider', async () => {
    const identity = recordingIdentityProvider();
    const email = anEmail();
    identity.passwords.set(email, password);
    for (let guess = 1; guess <= 9; guess += 1) {
      await expect(attempt(identity, email, `Devine-${guess}!`)).resolves.toBe('refused');
    }
    // One after the other: an attempt under way counts until the provider has answered.
    for (let session = 1; session <= 5; session += 1) {
      await expect(attempt(identity, email, password)).resolves.toBe('signed_in');
    }
    await expect(attempt(identity, email, 'Devine-10!')).resolves.toBe('refused');
    await expect(attempt(identity, email, password)).resolves.toBe('rate_limited');
    expect(identity.signIns).toHaveLength(9 + 5 + 1);
  });

  it('costs a refused sign-in one round trip, the count, before the provider is asked', async () => {
    const identity = recordingIdentityProvider();
    roundTrips.reset();
    await expect(attempt(identity, anEmail(), 'Devine-1!')).resolves.toBe('refused');
    expect(roundTrips.calls).toEqual(['UpdateItem']);
  });

  it('costs a sign-in the count, then at once its take-back, the session and the person, then their workspaces', async () => {
    const identity = recordingIdentityProvider();
    const email = anEmail();
    identity.passwords.set(email, password);
    await putMembershipDirectly(deps, { email, workspaceId: randomUUID(), memberId: randomUUID(), role: 'member' });
    roundTrips.reset();
    await expect(attempt(identity, email, password)).resolves.toBe('signed_in');
    expect(roundTrips.calls[0]).toBe('UpdateItem');
    expect(roundTrips.calls.slice(1).sort()).toEqual(['BatchGetItem', 'PutItem', 'Query', 'UpdateItem']);
  });
});
