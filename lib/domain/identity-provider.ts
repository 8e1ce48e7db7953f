/**
 * An access token just issued, with which token it is (`jti`) and when it was issued (`iat`, epoch seconds): what
 * the service records of it to end the other sessions of a person (docs/adr/0013-member-sign-in.md, point 5).
 */
export type AccessToken = { accessToken: string; expiresIn: number; tokenId: string; issuedAt: number };
export type Tokens = AccessToken & { refreshToken: string };

/**
 * Who is asking, for the provider's threat protection: the address API Gateway saw the request come from
 * (`requestContext.identity.sourceIp`). Sent with the calls a person makes before they hold a token: sign-in and
 * the password reset.
 */
export type Caller = { ipAddress: string | undefined };

export type SignInResult =
  | { kind: 'signed_in'; tokens: Tokens }
  /** A temporary password (first sign-in after an invitation): `new_password` is needed. */
  | { kind: 'new_password_required' }
  | { kind: 'refused' }
  /** The provider's own lockout ("Password attempts exceeded"). */
  | { kind: 'locked_out' };

/**
 * What an invitation did, by the person's status in the pool:
 * - `invited`: a new user, or one invited before who never signed in: the temporary password is theirs now;
 * - `has_password`: a person who chose a password (signed in at least once, or must reset it): nothing changed;
 * - `unsupported_status`: a user in a status the service's invitations never make (`status` as the provider names
 *   it): nothing changed.
 */
export type Invitation =
  { kind: 'invited' } | { kind: 'has_password' } | { kind: 'unsupported_status'; status: string };

/**
 * A reset code sent (the local run gets it back, docs/api.md#sign-in; AWS never), or the provider's refusal to send
 * one, named by its error: an unknown e-mail, but also a known one it will not send to now (its limits, an address it
 * cannot deliver to). The service answers both alike.
 */
export type PasswordResetStart = { kind: 'sent'; code?: string } | { kind: 'refused'; refusal: string };

/**
 * The identity provider as the service uses it (docs/adr/0013-member-sign-in.md): Amazon Cognito on AWS, cognito-local
 * in the local run, both through the Cognito SDK (`lib/identity/cognito.ts`, the adapter; this port is what the domain
 * knows). User names are e-mails lower-cased by the service (`emailKey`). Every outcome a caller must tell apart is a
 * value, never an exception.
 */
export type IdentityProvider = {
  /** `newPassword` answers the temporary-password challenge in the same call. */
  signIn(email: string, password: string, newPassword: string | undefined, caller: Caller): Promise<SignInResult>;
  refresh(email: string, refreshToken: string): Promise<AccessToken | undefined>;
  changePassword(accessToken: string, password: string, newPassword: string): Promise<'changed' | 'refused'>;
  /**
   * Ends every session of the person at the provider too (the refresh tokens, and the access tokens for the
   * provider's own calls), from one of their access tokens. Resolves where the provider has no such call (the local
   * one); any other failure throws.
   */
  signOutEverywhere(accessToken: string): Promise<void>;
  startPasswordReset(email: string, caller: Caller): Promise<PasswordResetStart>;
  /** `bad_code` also when the provider stops taking codes for this person for a while (its attempt limits). */
  confirmPasswordReset(email: string, code: string, newPassword: string, caller: Caller): Promise<'reset' | 'bad_code'>;
  /**
   * Invites the person with this temporary password, by their status in the pool: a new user is created, one invited
   * who never signed in gets it instead of the one before (on AWS Cognito e-mails it); a person with a password of
   * their own keeps it, and nothing is sent (docs/api.md, « Members »).
   */
  invite(email: string, temporaryPassword: string): Promise<Invitation>;
  /**
   * A permanent password, set by the platform team (`member add --password`, local provider only): only ever on a
   * person an invitation just reached (`invited`), never on one who chose a password.
   */
  setPermanentPassword(email: string, password: string): Promise<void>;
  /** Whether what the provider delivers (temporary passwords, reset codes) may be answered: the local run only. */
  answersDeliveredSecrets: boolean;
};
