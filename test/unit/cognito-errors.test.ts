import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
  ConfirmForgotPasswordCommand,
  DescribeUserPoolClientCommand,
  ForgotPasswordCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createHandler as confirmPasswordResetHandler } from '../../functions/settings/session/confirm-password-reset';
import { createHandler as startPasswordResetHandler } from '../../functions/settings/session/start-password-reset';
import { createCognitoIdentityProvider } from '../../lib/identity/cognito';
import { captureLogs } from '../support/captured-logs';
import { aLambdaContext, aProxyEvent } from '../support/events';
import { recordingMetrics } from '../support/recording-metrics';
import { awsPoolConfig, mockedAwsPool } from '../support/aws-user-pool';

/*
 * What Cognito answers and cognito-local cannot be made to (its lockout, an expired code, its own failure), injected
 * as faults: each must reach the service as the port's value, or as a failure.
 */

const config = awsPoolConfig;

const caller = { ipAddress: '203.0.113.7' };

const fault = (name: string, message: string) =>
  new CognitoIdentityProviderServiceException({ name, message, $fault: 'client', $metadata: {} });

function aProvider() {
  const { mock, identity } = mockedAwsPool();
  return { mock, provider: identity };
}

describe('the Cognito adapter, on what only Cognito answers', () => {
  it.each([
    [
      'the lockout after repeated wrong passwords',
      'NotAuthorizedException',
      'Password attempts exceeded',
      'locked_out',
    ],
    ['a wrong password', 'NotAuthorizedException', 'Incorrect username or password.', 'refused'],
    ['an unknown user', 'UserNotFoundException', 'User does not exist.', 'refused'],
  ])('reads %s (%s) as the port says', async (_case, name, message, kind) => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).rejects(fault(name, message));
    await expect(provider.signIn('a@acme.test', 'x', undefined, caller)).resolves.toEqual({ kind });
  });

  it('signs every call with the secret hash of the documented formula, the secret read once', async () => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).rejects(fault('NotAuthorizedException', 'Incorrect username or password.'));
    await provider.signIn('a@acme.test', 'x', undefined, caller);
    await provider.signIn('a@acme.test', 'y', undefined, caller);
    const expected = createHmac('sha256', 'the-secret').update('a@acme.testclient').digest('base64');
    const sent = mock.commandCalls(InitiateAuthCommand).map((call) => call.args[0].input.AuthParameters?.SECRET_HASH);
    expect(sent).toEqual([expected, expected]);
    expect(mock.commandCalls(DescribeUserPoolClientCommand)).toHaveLength(1);
  });

  it.each([
    'CodeMismatchException',
    'ExpiredCodeException',
    'LimitExceededException',
    'TooManyFailedAttemptsException',
  ])('reads %s as a bad code', async (name) => {
    const { mock, provider } = aProvider();
    mock.on(ConfirmForgotPasswordCommand).rejects(fault(name, 'code'));
    await expect(provider.confirmPasswordReset('a@acme.test', '123456', 'Nouveau-Passw0rd!', caller)).resolves.toBe(
      'bad_code',
    );
  });

  it('lets any other error through, for the route to answer 500', async () => {
    const { mock, provider } = aProvider();
    mock.on(InitiateAuthCommand).rejects(fault('InternalErrorException', 'boom'));
    await expect(provider.signIn('a@acme.test', 'x', undefined, caller)).rejects.toThrow('boom');
  });

  it("takes cognito-local's answer to an operation it lacks (`Unsupported`, HTTP 500) as no global sign-out here", async () => {
    const { mock, provider } = aProvider();
    mock.on(GlobalSignOutCommand).rejects(
      new CognitoIdentityProviderServiceException({
        name: 'Unsupported',
        message: 'Cognito Local unsupported feature: Unsupported x-amz-target header "GlobalSignOut"',
        $fault: 'server',
        $metadata: { httpStatusCode: 500 },
      }),
    );
    await expect(provider.signOutEverywhere('token')).resolves.toBeUndefined();
  });

  it.each([
    ['NotAuthorizedException', 'Access Token has been revoked'],
    ['TooManyRequestsException', 'Rate exceeded'],
    ['InternalErrorException', 'boom'],
  ])('lets any other failure of the global sign-out through (%s)', async (name, message) => {
    const { mock, provider } = aProvider();
    mock.on(GlobalSignOutCommand).rejects(fault(name, message));
    await expect(provider.signOutEverywhere('token')).rejects.toThrow(message);
  });

  it('answers no delivered code on AWS', async () => {
    const { provider } = aProvider();
    expect(provider.answersDeliveredSecrets).toBe(false);
  });
});

describe("the local provider's reset code, read from the pool file cognito-local rewrites in place", () => {
  it('reads the file again when a read meets it cut short by a write in progress', async () => {
    const poolFile = join(mkdtempSync(join(tmpdir(), 'crm-pool-')), 'pool.json');
    const whole = JSON.stringify({ Users: { 'a@acme.test': { ConfirmationCode: '123456' } } });
    writeFileSync(poolFile, whole.slice(0, 20));
    const client = new CognitoIdentityProviderClient({ region: 'eu-west-3' });
    const mock = mockClient(client);
    mock.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: { ClientSecret: 'the-secret' } });
    // The write ends while the adapter waits to read again.
    mock.on(ForgotPasswordCommand).callsFake(() => {
      setTimeout(() => writeFileSync(poolFile, whole), 10);
      return {};
    });
    const provider = createCognitoIdentityProvider({ ...config, localPoolFile: poolFile }, client);
    await expect(provider.startPasswordReset('a@acme.test', caller)).resolves.toEqual({ kind: 'sent', code: '123456' });
  });
});

/*
 * The reset routes' answers on AWS (no code answered), their handler over the adapter over a mocked client: the
 * answer of a code sent for a known e-mail must be the answer of every refusal, or it tells who has an account.
 */
describe('POST /password-reset and /password-reset/confirm, whatever Cognito refuses', () => {
  /** Every error of ForgotPassword's "Errors" in the API reference (and UserNotConfirmed of its earlier editions). */
  const forgotPasswordRefusals = [
    'CodeDeliveryFailureException',
    'ForbiddenException',
    'InvalidEmailRoleAccessPolicyException',
    'InvalidLambdaResponseException',
    'InvalidParameterException',
    'InvalidSmsRoleAccessPolicyException',
    'InvalidSmsRoleTrustRelationshipException',
    'LimitExceededException',
    'NotAuthorizedException',
    'OperationNotEnabledException',
    'ResourceNotFoundException',
    'TooManyRequestsException',
    'UnexpectedLambdaException',
    'UserLambdaValidationException',
    'UserNotConfirmedException',
    'UserNotFoundException',
  ];
  const email = 'known.person@acme.test';
  const deps = {
    db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-3' })),
    tableName: 't',
    clock: () => new Date(),
    newId: () => 'id',
    metrics: recordingMetrics(),
  };
  const post = (path: string, body: unknown) =>
    aProxyEvent({ resource: path, path, httpMethod: 'POST', body: JSON.stringify(body) });
  const bodyOf = (response: APIGatewayProxyResult): unknown => JSON.parse(response.body);

  async function startReset(mocked: (mock: ReturnType<typeof aProvider>['mock']) => void) {
    const { mock, provider } = aProvider();
    mocked(mock);
    return startPasswordResetHandler(deps, provider)(post('/password-reset', { email }), aLambdaContext());
  }

  it('answers 202 and nothing else when the code is sent', async () => {
    const sent = await startReset((mock) => mock.on(ForgotPasswordCommand).resolves({}));
    expect([sent.statusCode, bodyOf(sent)]).toEqual([202, {}]);
  });

  it.each(forgotPasswordRefusals)(
    'answers %s as a code sent: 202, logged by its name without the e-mail',
    async (name) => {
      const logs = captureLogs('WARN');
      try {
        const refused = await startReset((mock) =>
          mock.on(ForgotPasswordCommand).rejects(fault(name, `Refused for ${email}`)),
        );
        expect([refused.statusCode, bodyOf(refused)]).toEqual([202, {}]);
        expect(logs.lines()).toEqual([
          expect.objectContaining({ message: 'password reset refused by the identity provider', refusal: name }),
        ]);
        expect(logs.raw().join('\n')).not.toContain(email);
      } finally {
        logs.restore();
      }
    },
  );

  it.each([
    ['its internal error', fault('InternalErrorException', 'boom')],
    ['a network failure', Object.assign(new Error('socket hang up'), { name: 'TimeoutError' })],
  ])('answers %s with 500', async (_case, error) => {
    const failed = await startReset((mock) => mock.on(ForgotPasswordCommand).rejects(error));
    expect(failed.statusCode).toBe(500);
  });

  it.each([
    'CodeMismatchException',
    'ExpiredCodeException',
    'LimitExceededException',
    'TooManyFailedAttemptsException',
  ])('answers the confirmation refused with %s as a wrong code: 400 naming `code`', async (name) => {
    const { mock, provider } = aProvider();
    mock.on(ConfirmForgotPasswordCommand).rejects(fault(name, 'refused'));
    const refused = await confirmPasswordResetHandler(deps, provider)(
      post('/password-reset/confirm', { email, code: '123456', new_password: 'Nouveau-Passw0rd!' }),
      aLambdaContext(),
    );
    expect([refused.statusCode, bodyOf(refused)]).toEqual([
      400,
      {
        error: {
          code: 'bad_request',
          message: expect.any(String),
          details: { field: 'code', message: expect.any(String) },
        },
      },
    ]);
  });
});
