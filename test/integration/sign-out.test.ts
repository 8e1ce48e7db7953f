import { randomUUID } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
  GlobalSignOutCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { createHandler } from '../../functions/settings/session/sign-out';
import { productionDeps } from '../../lib/storage/client';
import { createCognitoIdentityProvider } from '../../lib/identity/cognito';
import { readSignOut } from '../../lib/storage/people';
import { captureLogs } from '../support/captured-logs';
import { aLambdaContext, aProxyEvent } from '../support/events';
import { awsPoolConfig } from '../support/aws-user-pool';

/*
 * DELETE /session on AWS (docs/adr/0013-member-sign-in.md, point 5): the service's sign-out record, then Cognito's
 * global sign-out, here on a mocked Cognito client over DynamoDB Local. The record is the authority: whatever Cognito
 * answers, the person is signed out and the answer is 204.
 */

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const config = awsPoolConfig;

async function signOutWith(globalSignOut: (mock: ReturnType<typeof mockClient>) => void) {
  const client = new CognitoIdentityProviderClient({ region: 'eu-west-3' });
  const mock = mockClient(client);
  globalSignOut(mock);
  const email = `out-${randomUUID()}@acme.test`;
  const principal = { kind: 'member', email, tokenId: randomUUID(), issuedAt: Math.floor(Date.now() / 1000) } as const;
  const response = await createHandler(deps, createCognitoIdentityProvider(config, client))(
    aProxyEvent({
      resource: '/session',
      path: '/session',
      httpMethod: 'DELETE',
      headers: { Authorization: 'Bearer the-access-token' },
      decision: { outcome: 'allowed', principal },
    }),
    aLambdaContext(),
  );
  return { response, mock, email, principal };
}

describe('DELETE /session', () => {
  it('records the sign-out, then signs the person out at Cognito with the access token of the call', async () => {
    const { response, mock, email, principal } = await signOutWith((mock) =>
      mock.on(GlobalSignOutCommand).resolves({}),
    );
    expect(response.statusCode).toBe(204);
    expect(mock.commandCalls(GlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([
      { AccessToken: 'the-access-token' },
    ]);
    await expect(readSignOut(deps, email)).resolves.toMatchObject({ token_id: principal.tokenId });
  });

  it("answers 204 with the sign-out recorded when Cognito's global sign-out fails, and logs the failure", async () => {
    const logs = captureLogs('ERROR');
    try {
      const { response, email, principal } = await signOutWith((mock) =>
        mock.on(GlobalSignOutCommand).rejects(
          new CognitoIdentityProviderServiceException({
            name: 'InternalErrorException',
            message: 'boom',
            $fault: 'server',
            $metadata: {},
          }),
        ),
      );
      expect(response.statusCode).toBe(204);
      await expect(readSignOut(deps, email)).resolves.toMatchObject({ token_id: principal.tokenId });
      expect(logs.lines()).toEqual([
        expect.objectContaining({
          level: 'ERROR',
          message: 'identity provider sign-out failed',
          error: expect.objectContaining({ name: 'InternalErrorException' }),
        }),
      ]);
      expect(logs.raw().join('\n')).not.toContain('the-access-token');
    } finally {
      logs.restore();
    }
  });
});
