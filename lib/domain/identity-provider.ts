/**
 * The identity provider as the service uses it (docs/adr/0013): Amazon Cognito on AWS, cognito-local in the
 * local run, both through the Cognito SDK (`lib/identity/cognito.ts`, the adapter; this port is what the domain knows). User names are e-mails lower-cased by
 * the service (`emailKey`). Every outcome a caller must tell apart is a value, never an exception.
 */
/**
 * An access token just issued, with which token it is (`jti`) and when it was issued (`iat`, epoch seconds): what
 * the service records of it to end the other sessions of a person (docs/adr/0013, point 5).
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
 * A reset code sent (the local run gets it back, decisions 7.1; AWS never), or the provider's refusal to send one,
 * named by its error: an unknown e-mail, but also a known one it will not send to now (its limits, an address it
 * cannot deliver to). The service answers both alike.
 */
export type PasswordResetStart = { kind: 'sent'; code?: string } | { kind: 'refused'; refusal: string };

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
   * Creates the person's user with this temporary password, or sets a new temporary password on an existing
   * user (an invitation sent again); on AWS Cognito e-mails it.
   */
  invite(email: string, temporaryPassword: string): Promise<void>;
  /** A permanent password, set by the platform team (`member add --password`, local provider only). */
  setPermanentPassword(email: string, password: string): Promise<void>;
  /** Whether what the provider delivers (temporary passwords, reset codes) may be answered: the local run only. */
  answersDeliveredSecrets: boolean;
};
