import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
  type UserStatusType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { createCognitoIdentityProvider } from '../../lib/identity/cognito';
import { awsPoolConfig } from '../support/aws-user-pool';

/*
 * Invitations by the person's status in the pool (docs/api.md, « Members »), on what Cognito answers and
 * cognito-local does not: RESEND, and its refusal for a user no longer in FORCE_CHANGE_PASSWORD. Whatever the
 * status, a person who chose a password is never given another: no AdminSetUserPassword, no AdminCreateUser.
 */

const config = awsPoolConfig;
const email = 'p@acme.test';
const temporary = 'Provisoire-Passw0rd!';

const fault = (name: string, message: string) =>
  new CognitoIdentityProviderServiceException({ name, message, $fault: 'client', $metadata: {} });

function onAws() {
  const client = new CognitoIdentityProviderClient({ region: 'eu-west-3' });
  const mock = mockClient(client);
  const provider = createCognitoIdentityProvider(config, client);
  const sent = () => ({
    created: mock.commandCalls(AdminCreateUserCommand).map((call) => call.args[0].input.MessageAction ?? 'create'),
    passwordsSet: mock.commandCalls(AdminSetUserPasswordCommand).length,
  });
  return { mock, provider, sent };
}

describe('an invitation on AWS, by the status AdminGetUser reads', () => {
  it('creates a person the pool does not know, with the temporary password, e-mailed', async () => {
    const { mock, provider, sent } = onAws();
    mock.on(AdminGetUserCommand).rejects(fault('UserNotFoundException', 'User does not exist.'));
    await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'invited' });
    expect(sent()).toEqual({ created: ['create'], passwordsSet: 0 });
    expect(mock.commandCalls(AdminCreateUserCommand)[0]?.args[0].input).toMatchObject({
      Username: email,
      TemporaryPassword: temporary,
      DesiredDeliveryMediums: ['EMAIL'],
    });
  });

  it.each<UserStatusType>(['CONFIRMED', 'RESET_REQUIRED'])(
    'leaves a person in %s as they are: has_password, nothing sent, no password set',
    async (status) => {
      const { mock, provider, sent } = onAws();
      mock.on(AdminGetUserCommand).resolves({ Username: email, UserStatus: status });
      await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'has_password' });
      expect(sent()).toEqual({ created: [], passwordsSet: 0 });
    },
  );

  it.each<UserStatusType>(['UNCONFIRMED', 'EXTERNAL_PROVIDER', 'UNKNOWN'])(
    'leaves a user in %s, which no invitation makes, as it is: unsupported_status',
    async (status) => {
      const { mock, provider, sent } = onAws();
      mock.on(AdminGetUserCommand).resolves({ Username: email, UserStatus: status });
      await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'unsupported_status', status });
      expect(sent()).toEqual({ created: [], passwordsSet: 0 });
    },
  );

  it('sends the invitation again (RESEND) to a person invited who never signed in', async () => {
    const { mock, provider, sent } = onAws();
    mock.on(AdminGetUserCommand).resolves({ Username: email, UserStatus: 'FORCE_CHANGE_PASSWORD' });
    await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'invited' });
    expect(sent()).toEqual({ created: ['RESEND'], passwordsSet: 0 });
  });

  it('reads the refusal of RESEND to a person who finished signing in meanwhile as has_password, setting nothing', async () => {
    const { mock, provider, sent } = onAws();
    mock.on(AdminGetUserCommand).resolves({ Username: email, UserStatus: 'FORCE_CHANGE_PASSWORD' });
    mock
      .on(AdminCreateUserCommand)
      .rejects(fault('UnsupportedUserStateException', 'Resend not possible. User status is not FORCE_CHANGE_PASSWORD'));
    await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'has_password' });
    expect(sent()).toEqual({ created: ['RESEND'], passwordsSet: 0 });
  });

  it('invites a person created meanwhile (UsernameExistsException) by the status read again', async () => {
    const { mock, provider, sent } = onAws();
    mock
      .on(AdminGetUserCommand)
      .rejectsOnce(fault('UserNotFoundException', 'User does not exist.'))
      .resolves({ Username: email, UserStatus: 'CONFIRMED' });
    mock.on(AdminCreateUserCommand).rejects(fault('UsernameExistsException', 'User account already exists'));
    await expect(provider.invite(email, temporary)).resolves.toEqual({ kind: 'has_password' });
    expect(sent()).toEqual({ created: ['create'], passwordsSet: 0 });
  });

  it('lets a failure to read the status through, having sent nothing', async () => {
    const { mock, provider, sent } = onAws();
    mock.on(AdminGetUserCommand).rejects(fault('InternalErrorException', 'boom'));
    await expect(provider.invite(email, temporary)).rejects.toThrow('boom');
    expect(sent()).toEqual({ created: [], passwordsSet: 0 });
  });
});
