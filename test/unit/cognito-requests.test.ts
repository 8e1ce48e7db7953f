import {
  ConfirmForgotPasswordCommand,
  CognitoIdentityProviderServiceException,
  DescribeUserPoolClientCommand,
  ForgotPasswordCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHandler as confirmPasswordResetHandler } from '../../functions/settings/session/confirm-password-reset';
import { createHandler as startPasswordResetHandler } from '../../functions/settings/session/start-password-reset';
import { accessClaims, aSigningKey, signedToken } from '../support/access-tokens';
import { aLambdaContext, aProxyEvent } from '../support/events';
import { recordingMetrics } from '../support/recording-metrics';
import { awsPoolConfig, mockedAwsPool } from '../support/aws-user-pool';

/*
 * What the Cognito adapter sends, read on a mocked client: the caller's address for Cognito's threat protection
 * (`UserContextData`) on every call made for a person who holds no token yet; the access token of a sign-out.
 */

const config = awsPoolConfig;
const caller = { ipAddress: '203.0.113.7' };
const sentContext = { IpAddress: '203.0.113.7' };

function aProvider() {
  const { mock, client, identity } = mockedAwsPool();
  return { mock, client, provider: identity };
}

/** A sign-in's answer: the adapter reads its access token's `jti` and `iat`. */
const claims = accessClaims({ issuer: config.issuer, clientId: 'client', email: 'a@acme.test' });
const tokens = { AccessToken: signedToken(aSigningKey(), claims), RefreshToken: 'refresh', ExpiresIn: 3600 };

describe('the tokens of a sign-in and of a refresh', () => {
  it("come with their access token's jti and iat, read from it", async () => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).resolves({ AuthenticationResult: tokens });
    const expected = { accessToken: tokens.AccessToken, tokenId: claims.jti, issuedAt: claims.iat, expiresIn: 3600 };
    await expect(provider.signIn('a@acme.test', 'Mot-de-passe-1!', undefined, caller)).resolves.toEqual({
      kind: 'signed_in',
      tokens: { ...expected, refreshToken: 'refresh' },
    });
    await expect(provider.refresh('a@acme.test', 'refresh')).resolves.toEqual(expected);
  });
});

describe("the caller's address, sent to Cognito's threat protection", () => {
  it('goes with the sign-in (InitiateAuth)', async () => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).resolves({ AuthenticationResult: tokens });
    await provider.signIn('a@acme.test', 'Mot-de-passe-1!', undefined, caller);
    const [call] = mock.commandCalls(InitiateAuthCommand);
    expect(call?.args[0].input).toMatchObject({ AuthFlow: 'USER_PASSWORD_AUTH', UserContextData: sentContext });
  });

  it("goes with the temporary password's challenge (RespondToAuthChallenge) and the sign-in that follows", async () => {
    const { mock, provider } = aProvider();
    mock
      .on(InitiateAuthCommand)
      .resolvesOnce({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 'challenge' })
      .resolvesOnce({ AuthenticationResult: tokens });
    mock.on(RespondToAuthChallengeCommand).resolves({});
    await provider.signIn('a@acme.test', 'Provisoire-1!', 'Mot-de-passe-1!', caller);
    const sent = [...mock.commandCalls(InitiateAuthCommand), ...mock.commandCalls(RespondToAuthChallengeCommand)];
    expect(sent.map((call) => call.args[0].input.UserContextData)).toEqual([sentContext, sentContext, sentContext]);
  });

  it('goes with the reset (ForgotPassword) and its confirmation (ConfirmForgotPassword)', async () => {
    const { mock, provider } = aProvider();
    mock.on(ForgotPasswordCommand).resolves({});
    mock.on(ConfirmForgotPasswordCommand).resolves({});
    await provider.startPasswordReset('a@acme.test', caller);
    await provider.confirmPasswordReset('a@acme.test', '123456', 'Nouveau-Passw0rd!', caller);
    expect(mock.commandCalls(ForgotPasswordCommand)[0]?.args[0].input.UserContextData).toEqual(sentContext);
    expect(mock.commandCalls(ConfirmForgotPasswordCommand)[0]?.args[0].input.UserContextData).toEqual(sentContext);
  });

  it('is left out when API Gateway named no address', async () => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).resolves({ AuthenticationResult: tokens });
    await provider.signIn('a@acme.test', 'Mot-de-passe-1!', undefined, { ipAddress: undefined });
    expect(mock.commandCalls(InitiateAuthCommand)[0]?.args[0].input.UserContextData).toBeUndefined();
  });

  it("is the event's requestContext.identity.sourceIp, as the reset routes' handlers pass it", async () => {
    const { mock, provider } = aProvider();
    mock.on(ForgotPasswordCommand).resolves({});
    mock.on(ConfirmForgotPasswordCommand).rejects(
      new CognitoIdentityProviderServiceException({
        name: 'CodeMismatchException',
        message: 'Invalid code provided, please request a code again.',
        $fault: 'client',
        $metadata: {},
      }),
    );
    const deps = {
      db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' })),
      tableName: 't',
      clock: () => new Date(),
      newId: () => 'id',
      metrics: recordingMetrics(),
    };
    const event = (path: string, body: unknown) =>
      aProxyEvent({
        resource: path,
        path,
        httpMethod: 'POST',
        body: JSON.stringify(body),
        requestContext: {
          authorizer: null,
          identity: { sourceIp: '198.51.100.23' },
        } as unknown as ReturnType<typeof aProxyEvent>['requestContext'],
      });
    const started = await startPasswordResetHandler(deps, provider)(
      event('/password-reset', { email: 'a@acme.test' }),
      aLambdaContext(),
    );
    const confirmed = await confirmPasswordResetHandler(deps, provider)(
      event('/password-reset/confirm', { email: 'a@acme.test', code: '000000', new_password: 'Nouveau-Passw0rd!' }),
      aLambdaContext(),
    );
    expect([started.statusCode, confirmed.statusCode]).toEqual([202, 400]);
    const fromEvent = { IpAddress: '198.51.100.23' };
    expect(mock.commandCalls(ForgotPasswordCommand)[0]?.args[0].input.UserContextData).toEqual(fromEvent);
    expect(mock.commandCalls(ConfirmForgotPasswordCommand)[0]?.args[0].input.UserContextData).toEqual(fromEvent);
  });
});

describe('the global sign-out', () => {
  it('sends GlobalSignOut with the access token of the sign-out, and nothing that needs the client secret', async () => {
    const { mock, provider } = aProvider();
    mock.on(GlobalSignOutCommand).resolves({});
    await provider.signOutEverywhere('the-access-token');
    expect(mock.commandCalls(GlobalSignOutCommand).map((call) => call.args[0].input)).toEqual([
      { AccessToken: 'the-access-token' },
    ]);
    expect(mock.commandCalls(DescribeUserPoolClientCommand)).toHaveLength(0);
  });
});
