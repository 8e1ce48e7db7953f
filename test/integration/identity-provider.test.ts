import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminGetUserCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createCognitoClient, createCognitoIdentityProvider } from '../../lib/identity/cognito';
import { loadIdentityConfig } from '../../lib/identity/config';
import { createMemberTokenVerifier } from '../../lib/identity/member-token';
import { productionDeps, createDynamoClient } from '../../lib/storage/client';
import { ensureTable } from '../../tools/local/create-table';
import { getLocalIdentityProvider } from '../../tools/local/local-identity-provider';
import { startLocalIdentityProvider } from '../../tools/local/identity-provider';

/** The adapter against the run's cognito-local (test/support/global-setup.js), as the functions use it. */
const config = loadIdentityConfig();
if (config === undefined) throw new Error('The test run starts a local identity provider: USER_POOL_ID is missing');
const provider = createCognitoIdentityProvider(config);
const verifier = createMemberTokenVerifier(config);
const anEmail = () => `person-${randomUUID()}@acme.test`;
const temporary = 'Temporaire-Passw0rd!';
const permanent = 'Permanent-Passw0rd!';
/** The caller's address, sent to the provider's threat protection (cognito-local ignores it). */
const caller = { ipAddress: '203.0.113.7' };

/** The person's status as the pool keeps it, read apart from the adapter. */
async function userStatus(email: string): Promise<string | undefined> {
  const client = createCognitoClient(config as NonNullable<typeof config>);
  try {
    const user = await client.send(
      new AdminGetUserCommand({ UserPoolId: (config as NonNullable<typeof config>).userPoolId, Username: email }),
    );
    return user.UserStatus;
  } finally {
    client.destroy();
  }
}

describe('the Cognito adapter on the local identity provider', () => {
  it('invites a person, asks for a new password at first sign-in, then signs in with it', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    await expect(provider.signIn(email, temporary, undefined, caller)).resolves.toEqual({
      kind: 'new_password_required',
    });
    const first = await provider.signIn(email, temporary, permanent, caller);
    expect(first).toMatchObject({ kind: 'signed_in', tokens: { expiresIn: expect.any(Number) } });
    const again = await provider.signIn(email, permanent, undefined, caller);
    if (again.kind !== 'signed_in') throw new Error(`not signed in: ${again.kind}`);
    await expect(verifier.verify(again.tokens.accessToken)).resolves.toMatchObject({ email });
  });

  it('refuses a wrong password and an unknown e-mail alike', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    await provider.setPermanentPassword(email, permanent);
    await expect(provider.signIn(email, 'Wrong-Passw0rd!', undefined, caller)).resolves.toEqual({ kind: 'refused' });
    await expect(provider.signIn(anEmail(), permanent, undefined, caller)).resolves.toEqual({ kind: 'refused' });
  });

  it('refreshes an access token, and refuses a refresh token it never issued', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    await provider.setPermanentPassword(email, permanent);
    const signedIn = await provider.signIn(email, permanent, undefined, caller);
    if (signedIn.kind !== 'signed_in') throw new Error(`not signed in: ${signedIn.kind}`);
    const refreshed = await provider.refresh(email, signedIn.tokens.refreshToken);
    await expect(verifier.verify(refreshed?.accessToken ?? '')).resolves.toMatchObject({ email });
    await expect(provider.refresh(email, 'not-a-refresh-token')).resolves.toBeUndefined();
  });

  it('changes a password with the current one only', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    await provider.setPermanentPassword(email, permanent);
    const signedIn = await provider.signIn(email, permanent, undefined, caller);
    if (signedIn.kind !== 'signed_in') throw new Error(`not signed in: ${signedIn.kind}`);
    const token = signedIn.tokens.accessToken;
    await expect(provider.changePassword(token, 'Wrong-Passw0rd!', 'Nouveau-Passw0rd!')).resolves.toBe('refused');
    await expect(provider.changePassword(token, permanent, 'Nouveau-Passw0rd!')).resolves.toBe('changed');
    await expect(provider.signIn(email, 'Nouveau-Passw0rd!', undefined, caller)).resolves.toMatchObject({
      kind: 'signed_in',
    });
  });

  it('resets a password with the code it delivered, and refuses another code', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    await provider.setPermanentPassword(email, permanent);
    expect(provider.answersDeliveredSecrets).toBe(true);
    const started = await provider.startPasswordReset(email, caller);
    if (started.kind !== 'sent') throw new Error(`no code sent: ${started.refusal}`);
    const { code } = started;
    expect(code).toMatch(/^\S+$/);
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(provider.confirmPasswordReset(email, wrong, 'Oublie-Passw0rd!', caller)).resolves.toBe('bad_code');
    await expect(provider.confirmPasswordReset(email, code as string, 'Oublie-Passw0rd!', caller)).resolves.toBe(
      'reset',
    );
    await expect(provider.signIn(email, 'Oublie-Passw0rd!', undefined, caller)).resolves.toMatchObject({
      kind: 'signed_in',
    });
  });

  it('answers the refusal of an unknown e-mail, without a code', async () => {
    await expect(provider.startPasswordReset(anEmail(), caller)).resolves.toEqual({
      kind: 'refused',
      refusal: 'UserNotFoundException',
    });
  });

  it('invites again a person who never signed in: a new temporary password, asked to change at sign-in', async () => {
    const email = anEmail();
    await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'invited' });
    await expect(provider.invite(email, 'Encore-Temporaire-1!')).resolves.toEqual({ kind: 'invited' });
    await expect(userStatus(email)).resolves.toBe('FORCE_CHANGE_PASSWORD');
    await expect(provider.signIn(email, 'Encore-Temporaire-1!', permanent, caller)).resolves.toMatchObject({
      kind: 'signed_in',
    });
  });

  it('never gives a person who chose a password another: has_password, their password still signs in', async () => {
    const email = anEmail();
    await provider.invite(email, temporary);
    // The first sign-in, as an invited person makes it: the temporary password, then one of their own.
    await expect(provider.signIn(email, temporary, permanent, caller)).resolves.toMatchObject({ kind: 'signed_in' });
    await expect(userStatus(email)).resolves.toBe('CONFIRMED');

    await expect(provider.invite(email, 'Encore-Temporaire-1!')).resolves.toEqual({ kind: 'has_password' });
    await expect(userStatus(email)).resolves.toBe('CONFIRMED');
    await expect(provider.signIn(email, permanent, undefined, caller)).resolves.toMatchObject({ kind: 'signed_in' });
    await expect(provider.signIn(email, 'Encore-Temporaire-1!', undefined, caller)).resolves.toEqual({
      kind: 'refused',
    });
  });

  it('leaves a user the service did not invite (a self sign-up, UNCONFIRMED) as it is: unsupported_status', async () => {
    const email = anEmail();
    const client = createCognitoClient(config);
    try {
      await client.send(new SignUpCommand({ ClientId: config.clientId, Username: email, Password: permanent }));
      await expect(provider.invite(email, temporary)).resolves.toEqual({
        kind: 'unsupported_status',
        status: 'UNCONFIRMED',
      });
      await expect(userStatus(email)).resolves.toBe('UNCONFIRMED');
    } finally {
      client.destroy();
    }
  });
});

describe('the local identity provider of npm start', () => {
  it('keeps its pool in DATA_DIR and finds it again through the table at the next start', async () => {
    const deps = productionDeps();
    const store = { db: deps.db, tableName: `crm-test-idp-${randomUUID()}` };
    const dynamo = createDynamoClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    await ensureTable(dynamo, store.tableName);
    dynamo.destroy();
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-data-'));
    try {
      const first = await startLocalIdentityProvider({ store, dataDir });
      const email = anEmail();
      const local = createCognitoIdentityProvider(loadIdentityConfig(first.env) as NonNullable<typeof config>);
      await local.invite(email, temporary);
      await local.setPermanentPassword(email, permanent);
      await first.stop();
      const second = await startLocalIdentityProvider({ store, dataDir });
      try {
        expect(second.env.USER_POOL_ID).toBe(first.env.USER_POOL_ID);
        expect(await getLocalIdentityProvider(store)).toEqual({
          endpoint: second.endpoint,
          user_pool_id: first.env.USER_POOL_ID,
          client_id: first.env.USER_POOL_CLIENT_ID,
          pool_file: second.env.IDENTITY_LOCAL_POOL_FILE,
        });
        const again = createCognitoIdentityProvider(loadIdentityConfig(second.env) as NonNullable<typeof config>);
        await expect(again.signIn(email, permanent, undefined, caller)).resolves.toMatchObject({ kind: 'signed_in' });
      } finally {
        await second.stop();
      }
    } finally {
      deps.db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
