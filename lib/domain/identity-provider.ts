/**
 * The identity provider as the service uses it (docs/adr/0013): Amazon Cognito on AWS, cognito-local in the
 * local run, both through the Cognito SDK (`lib/identity/cognito.ts`, the adapter; this port is what the domain knows). User names are e-mails lower-cased by
 * the service (`emailKey`). Every outcome a caller must tell apart is a value, never an exception.
 */
export type Tokens = { accessToken: string; refreshToken: string; expiresIn: number };

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

export type IdentityProvider = {
  /** `newPassword` answers the temporary-password challenge in the same call. */
  signIn(email: string, password: string, newPassword?: string): Promise<SignInResult>;
  refresh(email: string, refreshToken: string): Promise<{ accessToken: string; expiresIn: number } | undefined>;
  changePassword(accessToken: string, password: string, newPassword: string): Promise<'changed' | 'refused'>;
  /** Sends a reset code; the local run gets it back (decisions 7.1), AWS never. Unknown e-mail: nothing sent. */
  startPasswordReset(email: string): Promise<{ code?: string }>;
  confirmPasswordReset(email: string, code: string, newPassword: string): Promise<'reset' | 'bad_code'>;
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
