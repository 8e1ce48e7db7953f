import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  DescribeUserPoolClientCommand,
  ForgotPasswordCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import type {
  AccessToken,
  Caller,
  IdentityProvider,
  Invitation,
  SignInResult,
  Tokens,
} from '../domain/identity-provider';
import { loadIdentityConfig, type IdentityConfig } from './config';

/*
 * The one implementation of the identity provider port (docs/adr/0013-member-sign-in.md): Amazon Cognito on AWS,
 * cognito-local in the local run, the same calls to both. Calls and their errors: Amazon Cognito user pools API
 * reference, https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/ — API_InitiateAuth.html,
 * API_RespondToAuthChallenge.html, API_ChangePassword.html, API_ForgotPassword.html,
 * API_ConfirmForgotPassword.html, API_GlobalSignOut.html, API_AdminCreateUser.html, API_AdminSetUserPassword.html,
 * API_DescribeUserPoolClient.html.
 */

/** The provider's error names the service tells apart; any other error is a failure (the route's 500). */
const refusals = new Set(['NotAuthorizedException', 'UserNotFoundException']);
/**
 * A code that will not do: wrong, expired, or the attempts on it over their limit for now; the same 400 for all, as
 * the API reference lists them for ConfirmForgotPassword (API_ConfirmForgotPassword.html, "Errors").
 */
const badCodes = new Set([
  'CodeMismatchException',
  'ExpiredCodeException',
  'LimitExceededException',
  'TooManyFailedAttemptsException',
]);
/**
 * Every refusal the API reference lists for ForgotPassword (API_ForgotPassword.html, "Errors"; UserNotConfirmed from
 * its earlier editions), all of which Cognito answers because of the person or of how much they asked: an unknown
 * user, but also a known one past the limits (LimitExceeded, TooManyRequests), whose address cannot be delivered to
 * or is not verified (CodeDeliveryFailure, InvalidParameter), or in a state without reset (NotAuthorized,
 * UserNotConfirmed). Answered as a code sent, or the answer would tell whether an address has an account. What is
 * left is the provider's own failure (InternalError, a network error): the route's 500.
 */
const resetRefusals = new Set([
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
]);

/**
 * The lockout that follows repeated wrong passwords is a NotAuthorizedException whose message says so
 * ("Lockout behavior for failed sign-in attempts",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/authentication.html#authentication-flow-lockout-behavior).
 */
const lockedOut = (error: Error): boolean =>
  error.name === 'NotAuthorizedException' && /password attempts exceeded/i.test(error.message);

/**
 * cognito-local answers a wrong password with InvalidPasswordException, which Cognito keeps for a new password
 * its policy refuses; the service checks the policy itself before any call (`newPassword`,
 * lib/domain/session/session.ts), so here it can only mean a refused password.
 */
const wrongPassword = (error: Error): boolean => refusals.has(error.name) || error.name === 'InvalidPasswordException';

function named(error: unknown, accepts: (error: Error) => boolean): Error | undefined {
  return error instanceof Error && accepts(error) ? error : undefined;
}

/**
 * The caller's address for Cognito's threat protection, on the calls made for a person without a token:
 * `UserContextData.IpAddress` ("UserContextDataType",
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserContextDataType.html). Cognito
 * takes it from an app client with a secret that has `EnablePropagateAdditionalUserContextData` ("Collecting data for
 * threat protection in applications",
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-viewing-threat-protection-app.html);
 * there is no `EncodedData`, which only Cognito's browser library collects.
 */
const userContextData = (caller: Caller) =>
  caller.ipAddress === undefined ? undefined : { IpAddress: caller.ipAddress };

/**
 * "Computing secret hash values": Base64(HMAC-SHA256(client secret, user name + client id))
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#cognito-user-pools-computing-secret-hash).
 */
const secretHashOf = (secret: string, clientId: string, userName: string): string =>
  createHmac('sha256', secret)
    .update(userName + clientId)
    .digest('base64');

export function createCognitoClient(
  config: Pick<IdentityConfig, 'endpoint' | 'region'>,
): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    // The local provider checks no signature: the same dummy credentials as for DynamoDB Local.
    ...(config.endpoint === undefined
      ? { region: config.region }
      : {
          endpoint: config.endpoint,
          region: config.region ?? 'eu-west-3',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 4000, throwOnRequestTimeout: true },
  });
}

/** The user pool of the function's configuration (lib/identity/config.ts), one per cold start. */
export function poolIdentityProvider(env: NodeJS.ProcessEnv = process.env): IdentityProvider {
  const config = loadIdentityConfig(env);
  if (config === undefined) throw new Error('Configuration invalide : USER_POOL_ID');
  return createCognitoIdentityProvider(config);
}

export function createCognitoIdentityProvider(
  config: IdentityConfig,
  client: CognitoIdentityProviderClient = createCognitoClient(config),
): IdentityProvider {
  const { userPoolId, clientId } = config;
  // Read once per cold start, on first use, so that the secret lives in no template, variable or log (ADR 0013).
  let secret: Promise<string> | undefined;
  const clientSecret = (): Promise<string> => {
    secret ??= client
      .send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: clientId }))
      .then(({ UserPoolClient }) => {
        if (!UserPoolClient?.ClientSecret) throw new Error('The user pool client has no secret');
        return UserPoolClient.ClientSecret;
      });
    secret.catch(() => (secret = undefined));
    return secret;
  };
  const secretHash = async (userName: string): Promise<string> =>
    secretHashOf(await clientSecret(), clientId, userName);

  const passwordSignIn = async (email: string, password: string, caller: Caller) =>
    client.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password, SECRET_HASH: await secretHash(email) },
        UserContextData: userContextData(caller),
      }),
    );

  const signIn = async (
    email: string,
    password: string,
    newPassword: string | undefined,
    caller: Caller,
  ): Promise<SignInResult> => {
    try {
      const first = await passwordSignIn(email, password, caller);
      if (first.AuthenticationResult) return { kind: 'signed_in', tokens: tokensOf(first.AuthenticationResult) };
      if (first.ChallengeName !== 'NEW_PASSWORD_REQUIRED')
        throw new Error(`Unexpected challenge ${first.ChallengeName}`);
      if (newPassword === undefined) return { kind: 'new_password_required' };
      await client.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: first.Session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: newPassword, SECRET_HASH: await secretHash(email) },
          UserContextData: userContextData(caller),
        }),
      );
      // The session's tokens come from a sign-in with the new password: cognito-local keeps no refresh token
      // issued by a challenge's answer, and one more call on AWS keeps one path for both places.
      const session = await passwordSignIn(email, newPassword, caller);
      if (!session.AuthenticationResult) throw new Error(`Unexpected challenge ${session.ChallengeName}`);
      return { kind: 'signed_in', tokens: tokensOf(session.AuthenticationResult) };
    } catch (error) {
      if (named(error, lockedOut)) return { kind: 'locked_out' };
      if (named(error, wrongPassword)) return { kind: 'refused' };
      throw error;
    }
  };

  return {
    signIn,
    refresh: async (userName, refreshToken) => {
      try {
        const { AuthenticationResult } = await client.send(
          new InitiateAuthCommand({
            ClientId: clientId,
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            AuthParameters: { REFRESH_TOKEN: refreshToken, SECRET_HASH: await secretHash(userName) },
          }),
        );
        if (!AuthenticationResult?.AccessToken) return undefined;
        return accessTokenOf(AuthenticationResult);
      } catch (error) {
        if (named(error, (failure) => refusals.has(failure.name))) return undefined;
        throw error;
      }
    },
    changePassword: async (accessToken, password, newPassword) => {
      try {
        await client.send(
          new ChangePasswordCommand({
            AccessToken: accessToken,
            PreviousPassword: password,
            ProposedPassword: newPassword,
          }),
        );
        return 'changed';
      } catch (error) {
        if (named(error, wrongPassword)) return 'refused';
        throw error;
      }
    },
    signOutEverywhere: async (accessToken) => {
      try {
        // "Invalidates the identity, access, and refresh tokens that Amazon Cognito issued to a user": its refresh
        // tokens, and its access tokens for Cognito's own calls (GetUser, ChangePassword…); the service's authorizer
        // checks its own sign-out record (API_GlobalSignOut.html).
        await client.send(new GlobalSignOutCommand({ AccessToken: accessToken }));
      } catch (error) {
        // cognito-local 5.3.0 has no GlobalSignOut: it answers any operation it lacks with HTTP 500 and `__type`
        // `CognitoLocal#Unsupported` (node_modules/cognito-local/lib/server/server.js), which the SDK throws as
        // `Unsupported` (a server fault, so sent twice), a name Cognito itself never answers. Only that one means
        // "not here".
        if (!named(error, (failure) => failure.name === 'Unsupported')) throw error;
      }
    },
    startPasswordReset: async (email, caller) => {
      try {
        await client.send(
          new ForgotPasswordCommand({
            ClientId: clientId,
            Username: email,
            SecretHash: await secretHash(email),
            UserContextData: userContextData(caller),
          }),
        );
      } catch (error) {
        const refused = named(error, (failure) => resetRefusals.has(failure.name));
        if (refused) return { kind: 'refused', refusal: refused.name };
        throw error;
      }
      const code = config.localPoolFile === undefined ? undefined : await storedResetCode(config.localPoolFile, email);
      return code === undefined ? { kind: 'sent' } : { kind: 'sent', code };
    },
    confirmPasswordReset: async (email, code, newPassword, caller) => {
      try {
        await client.send(
          new ConfirmForgotPasswordCommand({
            ClientId: clientId,
            Username: email,
            ConfirmationCode: code,
            Password: newPassword,
            SecretHash: await secretHash(email),
            UserContextData: userContextData(caller),
          }),
        );
        return 'reset';
      } catch (error) {
        if (named(error, (failure) => badCodes.has(failure.name) || refusals.has(failure.name))) return 'bad_code';
        throw error;
      }
    },
    invite: async (email, temporaryPassword) => {
      const invitation = {
        UserPoolId: userPoolId,
        Username: email,
        TemporaryPassword: temporaryPassword,
        DesiredDeliveryMediums: ['EMAIL' as const],
      };
      const status = await userStatus(email);
      if (status !== undefined) return invitedAgain(invitation, status);
      try {
        await client.send(
          new AdminCreateUserCommand({
            ...invitation,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
        return { kind: 'invited' };
      } catch (error) {
        if (!named(error, (failure) => failure.name === 'UsernameExistsException')) throw error;
        // Created between the read and this call (two invitations at once): invited as the person the pool now knows.
        const created = await userStatus(email);
        if (created === undefined) throw error;
        return invitedAgain(invitation, created);
      }
    },
    setPermanentPassword: async (email, password) => {
      await client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: userPoolId,
          Username: email,
          Password: password,
          Permanent: true,
        }),
      );
    },
    answersDeliveredSecrets: config.localPoolFile !== undefined,
  };

  /**
   * The person's status in the pool, none for a user name it does not know: AdminGetUser's `UserStatus` (Amazon
   * Cognito API reference, https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminGetUser.html:
   * UNCONFIRMED, CONFIRMED, EXTERNAL_PROVIDER, RESET_REQUIRED, FORCE_CHANGE_PASSWORD, and UNKNOWN). cognito-local
   * answers the same call with the status it keeps: FORCE_CHANGE_PASSWORD after AdminCreateUser or a temporary
   * password, CONFIRMED once a password is chosen or set permanent, UNCONFIRMED after a self sign-up.
   */
  async function userStatus(userName: string): Promise<string | undefined> {
    try {
      const { UserStatus } = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: userName }));
      return UserStatus ?? 'UNKNOWN';
    } catch (error) {
      if (named(error, (failure) => failure.name === 'UserNotFoundException')) return undefined;
      throw error;
    }
  }

  /**
   * An invitation to a person the pool knows, by their status: only one invited who never signed in
   * (FORCE_CHANGE_PASSWORD) gets a new temporary password. A person who chose a password (CONFIRMED, or
   * RESET_REQUIRED: confirmed, to reset it with a code) keeps it: a temporary password set on them would replace it,
   * and the local run would hand it to the inviting admin. Any other status is not one the service's invitations
   * make (the pool allows no self sign-up): left as it is.
   */
  async function invitedAgain(invitation: InvitationRequest, status: string): Promise<Invitation> {
    if (status === 'CONFIRMED' || status === 'RESET_REQUIRED') return { kind: 'has_password' };
    if (status !== 'FORCE_CHANGE_PASSWORD') return { kind: 'unsupported_status', status };
    return resend(invitation);
  }

  /**
   * A new temporary password for a user in FORCE_CHANGE_PASSWORD: AdminCreateUser with `MessageAction: RESEND`
   * ("Set to RESEND to resend the invitation message to a user that already exists", API_AdminCreateUser.html of
   * the reference above). Cognito refuses RESEND to a user in another status with UnsupportedUserStateException,
   * one of that call's errors: the person finished their first sign-in since the status was read, and keeps the
   * password they chose. cognito-local lacks RESEND (it answers `CognitoLocal#Unsupported`, named `Unsupported` by
   * the SDK): there the temporary password is set with AdminSetUserPassword (`Permanent: false`), which keeps the
   * user changing it at sign-in, and nothing is sent; only on the status just read, FORCE_CHANGE_PASSWORD.
   */
  async function resend(invitation: InvitationRequest): Promise<Invitation> {
    try {
      await client.send(new AdminCreateUserCommand({ ...invitation, MessageAction: 'RESEND' }));
    } catch (error) {
      if (named(error, (failure) => failure.name === 'UnsupportedUserStateException')) return { kind: 'has_password' };
      if (!named(error, (failure) => failure.name === 'Unsupported')) throw error;
      await client.send(
        new AdminSetUserPasswordCommand({
          UserPoolId: invitation.UserPoolId,
          Username: invitation.Username,
          Password: invitation.TemporaryPassword,
          Permanent: false,
        }),
      );
    }
    return { kind: 'invited' };
  }
}

/** The AdminCreateUser parameters of an invitation, new or sent again. */
type InvitationRequest = {
  UserPoolId: string;
  Username: string;
  TemporaryPassword: string;
  DesiredDeliveryMediums: 'EMAIL'[];
};

function tokensOf(result: AuthenticationResultType): Tokens {
  if (!result.RefreshToken) throw new Error('The identity provider answered no tokens');
  return { ...accessTokenOf(result), refreshToken: result.RefreshToken };
}

/**
 * The access token of a sign-in or refresh, with its `jti` and `iat`, read without verifying it: it comes straight
 * from the provider, in the answer to this call (over TLS on AWS), not from a caller, and only the authorizer's
 * verification of it (lib/identity/member-token.ts) ever lets it in.
 */
function accessTokenOf(result: AuthenticationResultType): AccessToken {
  if (!result.AccessToken) throw new Error('The identity provider answered no tokens');
  const { jti, iat } = decomposeUnverifiedJwt(result.AccessToken).payload;
  if (typeof jti !== 'string' || typeof iat !== 'number') throw new Error('An access token without jti or iat');
  // cognito-local states no ExpiresIn; its access tokens, like Cognito's by default, last one hour or more.
  return { accessToken: result.AccessToken, expiresIn: result.ExpiresIn ?? 3600, tokenId: jti, issuedAt: iat };
}

/**
 * The reset code cognito-local drew for `userName`: it keeps it on the user, in the JSON file of its pool, before it
 * answers ForgotPassword. Its console shows the code too, but its logger writes asynchronously and was seen to hold
 * lines back for good under a test run, so the file it saved is what the local run reads. It rewrites that whole
 * file in place on every change of the pool (stormdb's local engine, node_modules/stormdb/src/engine/local.js:
 * `fs.writeFile`, no temporary file renamed), so a read while another request's change is being written may find
 * it empty or cut short: such a read is made again, the file being whole once that write ends.
 */
async function storedResetCode(poolFile: string, userName: string): Promise<string | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    let pool: { Users?: Record<string, { ConfirmationCode?: unknown }> };
    try {
      pool = JSON.parse(await readFile(poolFile, 'utf8')) as typeof pool;
    } catch (error) {
      if (!(error instanceof SyntaxError) || attempt === tornReadAttempts) throw error;
      await sleep(tornReadPauseMs);
      continue;
    }
    const code = pool.Users?.[userName]?.ConfirmationCode;
    return typeof code === 'string' ? code : undefined;
  }
}

/** A write of the pool file takes milliseconds: five reads 20 ms apart outlast one. */
const [tornReadAttempts, tornReadPauseMs] = [5, 20];
