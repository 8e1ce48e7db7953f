import { randomUUID } from 'node:crypto';
import type { Caller, IdentityProvider } from '../../lib/domain/identity-provider';

/**
 * A TEST DOUBLE of the identity provider port (lib/domain/identity-provider.ts), for the use cases' tests without
 * the Cognito adapter (lib/identity/): it keeps each person's status as the pool would (`FORCE_CHANGE_PASSWORD` once
 * invited, `CONFIRMED` once given a permanent password; `statuses` may plant any other), answers an invitation by it
 * as the Cognito adapter does, records the invitations it made, the permanent passwords it set and the sign-ins. A
 * sign-in with the password set in `passwords` for its e-mail opens a session (tokens of its own making, issued at
 * `issuedAt()`, epoch seconds), any other is refused; the refresh tokens it issued refresh. `answersDeliveredSecrets`
 * as the local run's provider (true) or AWS's (false). `failInvite` makes the next invitations throw, as a provider
 * outage.
 */
export type RecordingIdentityProvider = IdentityProvider & {
  invitations: { email: string; temporaryPassword: string }[];
  permanentPasswords: { email: string; password: string }[];
  statuses: Map<string, string>;
  signIns: { email: string; caller: Caller }[];
  passwords: Map<string, string>;
  issuedAt: () => number;
  failInvite: boolean;
};

export function recordingIdentityProvider(answersDeliveredSecrets = true): RecordingIdentityProvider {
  const issuedRefreshTokens = new Set<string>();
  const anAccessToken = () => ({
    accessToken: `access-${randomUUID()}`,
    expiresIn: 3600,
    tokenId: randomUUID(),
    issuedAt: provider.issuedAt(),
  });
  const provider: RecordingIdentityProvider = {
    invitations: [],
    permanentPasswords: [],
    statuses: new Map(),
    signIns: [],
    passwords: new Map(),
    issuedAt: () => Math.floor(Date.now() / 1000),
    failInvite: false,
    answersDeliveredSecrets,
    async invite(email, temporaryPassword) {
      if (provider.failInvite) throw new Error('identity provider unavailable (test double)');
      const status = provider.statuses.get(email);
      if (status === 'CONFIRMED' || status === 'RESET_REQUIRED') return { kind: 'has_password' };
      if (status !== undefined && status !== 'FORCE_CHANGE_PASSWORD') return { kind: 'unsupported_status', status };
      provider.statuses.set(email, 'FORCE_CHANGE_PASSWORD');
      provider.invitations.push({ email, temporaryPassword });
      return { kind: 'invited' };
    },
    async setPermanentPassword(email, password) {
      provider.statuses.set(email, 'CONFIRMED');
      provider.permanentPasswords.push({ email, password });
    },
    async signIn(email, password, _newPassword, caller) {
      provider.signIns.push({ email, caller });
      if (provider.passwords.get(email) !== password) return { kind: 'refused' };
      const refreshToken = `refresh-${randomUUID()}`;
      issuedRefreshTokens.add(refreshToken);
      return { kind: 'signed_in', tokens: { ...anAccessToken(), refreshToken } };
    },
    async refresh(_email, refreshToken) {
      return issuedRefreshTokens.has(refreshToken) ? anAccessToken() : undefined;
    },
    changePassword: () => Promise.reject(new Error('not recorded by this test double')),
    signOutEverywhere: () => Promise.reject(new Error('not recorded by this test double')),
    startPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
    confirmPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
  };
  return provider;
}
