import { Template } from 'aws-cdk-lib/assertions';
import {
  memberPasswordPolicy,
  memberTokenValidity,
  temporaryPasswordValidityDays,
} from '../../infra/cdk/constructs/user-pool';
import { authorizerDescription, CrmStack, productionStage } from '../../infra/cdk/stack';
import { messages } from '../../lib/messages';
import { testApp } from '../support/cdk-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stack = new CrmStack(testApp(), 'Crm-members', { stage: 'test' });
const template = Template.fromStack(stack).toJSON();
const resources = template.Resources as Record<string, Json>;
const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const [[poolId, pool]] = ofType('AWS::Cognito::UserPool') as [[string, Json]];
const [[clientId, client]] = ofType('AWS::Cognito::UserPoolClient') as [[string, Json]];

describe('the members’ user pool (docs/api.md#sign-in, docs/adr/0013-member-sign-in.md)', () => {
  test('one pool and one app client, the service’s', () => {
    expect(ofType('AWS::Cognito::UserPool')).toHaveLength(1);
    expect(ofType('AWS::Cognito::UserPoolClient')).toHaveLength(1);
    expect(client.Properties.UserPoolId).toEqual({ Ref: poolId });
  });

  test('the user name is the e-mail, compared ignoring case; no alias, so the name is the e-mail itself', () => {
    expect(pool.Properties.UsernameConfiguration).toEqual({ CaseSensitive: false });
    expect(pool.Properties).not.toHaveProperty('UsernameAttributes');
    expect(pool.Properties).not.toHaveProperty('AliasAttributes');
    expect(pool.Properties.Schema).toEqual([{ Name: 'email', Mutable: true, Required: true }]);
  });

  test('administrators invite, nobody signs up; the invitation is the French one of the catalogue', () => {
    expect(pool.Properties.AdminCreateUserConfig).toEqual({
      AllowAdminCreateUserOnly: true,
      InviteMessageTemplate: {
        EmailSubject: messages.invitationEmail.subject,
        EmailMessage: messages.invitationEmail.body(temporaryPasswordValidityDays),
      },
    });
    const body = messages.invitationEmail.body(temporaryPasswordValidityDays);
    expect(body).toContain('{username}');
    expect(body).toContain('{####}');
    expect(body).toContain(`${temporaryPasswordValidityDays} jours`);
  });

  test('the codes (a forgotten password, an e-mail to verify) in French too', () => {
    expect(pool.Properties.VerificationMessageTemplate).toMatchObject({
      DefaultEmailOption: 'CONFIRM_WITH_CODE',
      EmailSubject: messages.verificationEmail.subject,
      EmailMessage: messages.verificationEmail.body,
    });
    expect(messages.verificationEmail.body).toContain('{####}');
  });

  test('passwords: 12 characters of the four classes; a temporary password lasts 7 days', () => {
    expect(pool.Properties.Policies.PasswordPolicy).toEqual({
      MinimumLength: 12,
      RequireLowercase: true,
      RequireUppercase: true,
      RequireNumbers: true,
      RequireSymbols: true,
      TemporaryPasswordValidityDays: 7,
    });
    expect(memberPasswordPolicy.minLength).toBe(12);
  });

  test('recovery by e-mail only; Essentials plan without threat protection by default', () => {
    expect(pool.Properties.AccountRecoverySetting).toEqual({
      RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }],
    });
    expect(pool.Properties.UserPoolTier).toBe('ESSENTIALS');
    expect(pool.Properties).not.toHaveProperty('UserPoolAddOns');
    expect(pool.Properties).not.toHaveProperty('SmsConfiguration');
  });

  test('Cognito’s own sender unless an SES identity is given', () => {
    expect(pool.Properties.EmailConfiguration).toEqual({ EmailSendingAccount: 'COGNITO_DEFAULT' });
  });

  test('kept: deletion protection, and retained with the stack gone or on replacement', () => {
    expect(pool.Properties.DeletionProtection).toBe('ACTIVE');
    expect(pool).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  test('the app client: a secret, password sign-in and refresh only, no OAuth, no user-existence errors, revocation', () => {
    expect(client.Properties).toMatchObject({
      GenerateSecret: true,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      AllowedOAuthFlowsUserPoolClient: false,
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
    });
    expect(client.Properties).not.toHaveProperty('AllowedOAuthFlows');
    expect(client.Properties).not.toHaveProperty('CallbackURLs');
  });

  test('the app client may not write `email`: WriteAttributes names one attribute nothing reads (absent or empty, every standard one is writable)', () => {
    expect(client.Properties.WriteAttributes).toEqual(['zoneinfo']);
  });

  test('a new e-mail replaces the old one only once verified; the address is auto-verified, as that needs', () => {
    expect(pool.Properties.UserAttributeUpdateSettings).toEqual({
      AttributesRequireVerificationBeforeUpdate: ['email'],
    });
    expect(pool.Properties.AutoVerifiedAttributes).toEqual(['email']);
  });

  test('the client passes the caller’s context (its address) to threat protection; it has the secret that needs', () => {
    expect(client.Properties).toMatchObject({ EnablePropagateAdditionalUserContextData: true, GenerateSecret: true });
  });

  test('an access token for an hour, a refresh token for 30 days', () => {
    expect(client.Properties).toMatchObject({
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
    });
    expect(memberTokenValidity.accessToken.toMinutes()).toBe(60);
  });

  test('the authorizer knows the pool and the client (issuer and client_id of an access token), not the secret', () => {
    const [, authorizer] = ofType('AWS::Lambda::Function').find(
      ([, fn]) => fn.Properties.Description === authorizerDescription,
    )!;
    expect(authorizer.Properties.Environment.Variables).toMatchObject({
      USER_POOL_ID: { Ref: poolId },
      USER_POOL_CLIENT_ID: { Ref: clientId },
    });
    expect(JSON.stringify(template)).not.toContain('ClientSecret');
  });

  test('the pool id and the client id are stack outputs for the platform team, the secret is not', () => {
    expect(template.Outputs.UserPoolId.Value).toEqual({ Ref: poolId });
    expect(template.Outputs.UserPoolClientId.Value).toEqual({ Ref: clientId });
    expect(JSON.stringify(template.Outputs)).not.toMatch(/ClientSecret/);
  });
});

describe('options of a stage', () => {
  const synthesized = (props: Partial<ConstructorParameters<typeof CrmStack>[2]>) => {
    const built = Object.values(
      Template.fromStack(new CrmStack(testApp(), 'Crm-members-options', { stage: 'test', ...props })).toJSON()
        .Resources as Record<string, Json>,
    );
    const propertiesOf = (type: string) => built.find((resource) => resource.Type === type)!.Properties as Json;
    return { pool: propertiesOf('AWS::Cognito::UserPool'), client: propertiesOf('AWS::Cognito::UserPoolClient') };
  };

  test('the prod stage with an SES identity, in a real account and region: the developer account sends, from the verified address; the client and the updates as without', () => {
    const { pool: properties, client: prodClient } = synthesized({
      stage: productionStage,
      env: { account: '123456789012', region: 'eu-west-3' },
      sesSender: { fromEmail: 'acces@crm.example', fromName: 'CRM' },
    });
    expect(prodClient).toMatchObject({ WriteAttributes: ['zoneinfo'], EnablePropagateAdditionalUserContextData: true });
    expect(properties.UserAttributeUpdateSettings).toEqual({ AttributesRequireVerificationBeforeUpdate: ['email'] });
    expect(properties.EmailConfiguration).toMatchObject({
      EmailSendingAccount: 'DEVELOPER',
      From: 'CRM <acces@crm.example>',
    });
    expect(JSON.stringify(properties.EmailConfiguration.SourceArn)).toMatch(
      /:ses:.*eu-west-3.*123456789012.*:identity\/acces@crm\.example/,
    );
  });

  test('the prod stage without an SES identity stops the synthesis, saying why in French', () => {
    const app = testApp();
    expect(() => new CrmStack(app, 'Crm-prod', { stage: productionStage })).toThrow(
      messages.deployment.productionWithoutSesSender(productionStage),
    );
    expect(messages.deployment.productionWithoutSesSender(productionStage)).toMatch(
      /^Le stage prod exige un expéditeur Amazon SES : ajoutez -c sesFromEmail=/,
    );
    // Refused before anything is built: no half-made stack is left in the app.
    expect(app.node.findAll().filter((construct) => construct.node.path.startsWith('Crm-prod/'))).toEqual([]);
  });

  test('threat protection: the Plus plan, enforced', () => {
    const { pool: properties } = synthesized({ threatProtection: true });
    expect(properties.UserPoolTier).toBe('PLUS');
    expect(properties.UserPoolAddOns).toEqual({ AdvancedSecurityMode: 'ENFORCED' });
  });
});
