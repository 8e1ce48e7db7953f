import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  type UserPoolClient,
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolEmail,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { messages } from '../../../lib/messages';

/**
 * The Amazon SES identity the pool sends its e-mails from (docs/deploy.md#member-sign-in): an address
 * (or an address of a domain) verified in SES, in `sesRegion` when that is not the stack's region.
 */
export type SesSender = { fromEmail: string; fromName?: string; replyTo?: string; sesRegion?: string };

export type MemberUserPoolProps = {
  stage: string;
  /** Absent: Cognito's own sender, limited to a few e-mails a day (docs/deploy.md). */
  sesSender?: SesSender;
  /** Cognito's threat protection, full function; it needs the Plus feature plan (docs/deploy.md). */
  threatProtection?: boolean;
};

/** A temporary password's life: the invitation e-mail says it, and Cognito refuses the password after it. */
export const temporaryPasswordValidityDays = 7;

/**
 * What a password must hold, on Cognito and in the e-mail; the local provider is told the same
 * (docs/adr/0013-member-sign-in.md).
 */
export const memberPasswordPolicy = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/**
 * The app client's token lives (docs/api.md#sign-in: `expires_in` of the access token; a refresh token for a month).
 */
export const memberTokenValidity = { accessToken: Duration.hours(1), refreshToken: Duration.days(30) } as const;

/**
 * The members' identity provider (docs/api.md#sign-in, docs/adr/0013-member-sign-in.md): one Cognito user pool per
 * stage and one app client, the service's own, for its sign-in calls.
 */
export class MemberUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: MemberUserPoolProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Pool', {
      userPoolName: `crm-${props.stage}-members`,
      /**
       * The user name is the e-mail itself, lower-cased by the service (docs/adr/0013-member-sign-in.md §1), and
       * compared ignoring case as well: "When you set user pool case sensitivity to false, Amazon Cognito treats
       * user names ... as the same regardless of case" ("User pool attributes", "User names and preferred
       * user names", https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-attributes.html).
       * The e-mail is not made a sign-in alias: the user name would then be a generated id, a second name
       * the service would have to keep for the client secret's hash ("Computing secret hash values",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#cognito-user-pools-computing-secret-hash).
       */
      signInAliases: { username: true },
      signInCaseSensitive: false,
      standardAttributes: { email: { required: true, mutable: true } },
      /**
       * Admins invite, nobody signs up: "Allow administrators only to create users" turns SignUp off
       * ("Creating user accounts as administrator",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/how-to-create-user-accounts.html).
       */
      selfSignUpEnabled: false,
      /**
       * The invitation AdminCreateUser sends, with the service's temporary password in `{####}`
       * ("Customizing the user invitation message",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-settings-message-customizations.html).
       * The API reference lists InviteMessageTemplate.EmailMessage among the parameters not allowed with Cognito's
       * own sender ("EmailConfigurationType", COGNITO_DEFAULT,
       * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_EmailConfigurationType.html),
       * as it lists the verification message the CDK writes on every pool, which deploys with that sender;
       * docs/deploy.md's checklist (row 16) checks the French invitation arrives on a stage without SES.
       */
      userInvitation: {
        emailSubject: messages.invitationEmail.subject,
        emailBody: messages.invitationEmail.body(temporaryPasswordValidityDays),
      },
      /**
       * The code of a forgotten password or of an e-mail to verify, in French too (the "Verification message"
       * template of "Email settings for Amazon Cognito user pools",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-email.html).
       */
      userVerification: {
        emailStyle: VerificationEmailStyle.CODE,
        emailSubject: messages.verificationEmail.subject,
        emailBody: messages.verificationEmail.body,
      },
      /**
       * Length, the four classes, and how long an administrator's temporary password stays valid
       * ("AWS::Cognito::UserPool PasswordPolicy", MinimumLength, Require*, TemporaryPasswordValidityDays,
       * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-cognito-userpool-passwordpolicy.html).
       */
      passwordPolicy: { ...memberPasswordPolicy, tempPasswordValidity: Duration.days(temporaryPasswordValidityDays) },
      /**
       * A forgotten password is reset with a code sent to the e-mail only, never by SMS: the pool has no phone
       * numbers ("Recovering user accounts",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/how-to-recover-a-user-account.html).
       */
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      autoVerify: { email: true },
      /**
       * A new e-mail takes effect only once its owner has typed the code sent to it: "Amazon Cognito doesn't change
       * the value of the attribute until your user responds to the verification message and confirms the new value";
       * until then the person signs in and receives messages at the old one ("UserAttributeUpdateSettingsType",
       * AttributesRequireVerificationBeforeUpdate,
       * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserAttributeUpdateSettingsType.html;
       * "Verifying updates to email addresses and phone numbers",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/signing-up-users-in-your-app.html#user-pool-settings-verifications-verify-attribute-updates).
       * The setting needs the attribute among the auto-verified ones, just above.
       */
      keepOriginal: { email: true },
      email: props.sesSender
        ? UserPoolEmail.withSES({
            fromEmail: props.sesSender.fromEmail,
            fromName: props.sesSender.fromName,
            replyTo: props.sesSender.replyTo,
            sesRegion: props.sesSender.sesRegion,
          })
        : UserPoolEmail.withCognito(),
      /**
       * Guessing: in every feature plan, "After five failed ... sign-in attempts with a password, Amazon
       * Cognito locks out your user for one second. The lockout duration then doubles after each additional
       * one failed attempt, up to a maximum of approximately 15 minutes" ("Authentication with Amazon Cognito
       * user pools", "Lockout behavior for failed sign-in attempts",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/authentication.html#authentication-flow-lockout-behavior);
       * the service counts failures per e-mail on top (docs/api.md#sign-in). Threat protection (compromised
       * credentials, adaptive authentication) "is available in the Plus feature plan" ("Advanced security with
       * threat protection",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-settings-threat-protection.html),
       * billed per monthly active user: a choice per stage (docs/deploy.md).
       */
      featurePlan: props.threatProtection ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      ...(props.threatProtection ? { standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      /** The people and their passwords outlive the stack, as the table does. */
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.client = this.userPool.addClient('ServiceClient', {
      userPoolClientName: `crm-${props.stage}-service`,
      /**
       * A secret: every call carries SECRET_HASH, so only the service can sign in or refresh with this client
       * (docs/adr/0013-member-sign-in.md §2). The functions read it with DescribeUserPoolClient; it is in no template.
       */
      generateSecret: true,
      /**
       * Password sign-in and refresh, nothing else: no SRP, no custom flow, no admin flow ("Authentication flows",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-authentication-flow-methods.html).
       */
      authFlows: { userPassword: true },
      /** No hosted pages, no OAuth grant: the service calls the user-pools API itself. */
      disableOAuth: true,
      /**
       * Sign-in, reset and confirmation errors do not tell a known e-mail from an unknown one ("Managing user
       * existence error responses",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-managing-errors.html).
       */
      preventUserExistenceErrors: true,
      /**
       * RevokeToken works on this client's refresh tokens, and its tokens carry `jti` and `origin_jti` ("Ending
       * user sessions with token revocation", https://docs.aws.amazon.com/cognito/latest/developerguide/token-revocation.html);
       * the service's own sign-out record is what holds in both places (docs/adr/0013-member-sign-in.md §5).
       */
      enableTokenRevocation: true,
      /**
       * An access token for an hour, a refresh token for 30 days ("Using the refresh token",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-refresh-token.html);
       * the ID token is never used, it lives as long as the access token.
       */
      accessTokenValidity: memberTokenValidity.accessToken,
      idTokenValidity: memberTokenValidity.accessToken,
      refreshTokenValidity: memberTokenValidity.refreshToken,
      /**
       * `email` is not writable with this client's access tokens: "You authorize this API request with the user's
       * access token", no secret ("UpdateUserAttributes",
       * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateUserAttributes.html),
       * so whoever held a member's token could otherwise set `email`, where reset codes go, to an address of theirs.
       * The service itself never changes an attribute (it invites with AdminCreateUser, under IAM). The list is
       * given, and not empty: "When you don't specify the WriteAttributes for your app client, your app can write
       * the values of the Standard attributes of your user pool" ("UserPoolClientType", WriteAttributes,
       * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserPoolClientType.html), and
       * an empty list was seen taken as none (github.com/aws/aws-cdk/issues/30608,
       * github.com/hashicorp/terraform-provider-aws/issues/28684). So it names one attribute that nothing reads, and
       * `zoneinfo` is all a stolen token may change. docs/deploy.md, first deployment check 27, tries `email`.
       */
      writeAttributes: new ClientAttributes().withStandardAttributes({ timezone: true }),
      /**
       * The service signs members in from its functions, so Cognito's threat protection would see the functions'
       * address: with this, it accepts the caller's address when the sign-in calls pass it in UserContextData ("When
       * EnablePropagateAdditionalUserContextData is true, Amazon Cognito accepts an IpAddress value that you send in
       * the UserContextData parameter", "UserPoolClientType";
       * "Adding user device and session data to API requests",
       * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pool-settings-adaptive-authentication.html#user-pool-settings-adaptive-authentication-device-fingerprint).
       * "You can only activate EnablePropagateAdditionalUserContextData in an app client that has a client secret":
       * this one has (`generateSecret`).
       */
      enablePropagateAdditionalUserContextData: true,
    });

    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'No MFA: members sign in with e-mail and password (docs/api.md#sign-in); Cognito locks a guessed account out and the service answers 429 past 10 failures per e-mail in 15 minutes.',
      },
      ...(props.threatProtection
        ? []
        : ['AwsSolutions-COG3', 'AwsSolutions-COG8'].map((id) => ({
            id,
            reason:
              'Threat protection needs the Plus feature plan, billed per monthly active user: a per-stage choice (-c threatProtection=on, docs/deploy.md); the Essentials plan keeps Cognito’s own lockout, and the service answers 429 past 10 failed sign-ins per e-mail in 15 minutes.',
          }))),
    );
  }
}
