import { randomUUID } from 'node:crypto';
import type { Caller, IdentityProvider } from '../../lib/domain/identity-provider';

/**
 * A TEST DOUBLE of the identity provider port (lib/domain/identity-provider.ts), for the use cases' tests without
 * the Cognito adapter (lib/identity/): it records invitations, permanent passwords and sign-ins. A sign-in with the
 * password set in `passwords` for its e-mail opens a session (tokens of its own making), any other is refused.
 * `answersDeliveredSecrets` as the local run's provider (true) or AWS's (false). `failInvite` makes the next
 * invitations throw, as a provider outage.
 */
export type RecordingIdentityProvider = IdentityProvider & {
  invitations: { email: string; temporaryPassword: string }[];
  permanentPasswords: { email: string; password: string }[];
  signIns: { email: string; caller: Caller }[];
  passwords: Map<string, string>;
  failInvite: boolean;
};

export function recordingIdentityProvider(answersDeliveredSecrets = true): RecordingIdentityProvider {
  const provider: RecordingIdentityProvider = {
    invitations: [],
    permanentPasswords: [],
    signIns: [],
    passwords: new Map(),
    failInvite: false,
    answersDeliveredSecrets,
    async invite(email, temporaryPassword) {
      if (provider.failInvite) throw new Error('identity provider unavailable (test double)');
      provider.invitations.push({ email, temporaryPassword });
    },
    async setPermanentPassword(email, password) {
      provider.permanentPasswords.push({ email, password });
    },
    async signIn(email, password, _newPassword, caller) {
      provider.signIns.push({ email, caller });
      if (provider.passwords.get(email) !== password) return { kind: 'refused' };
      const tokens = {
        accessToken: `access-${randomUUID()}`,
        refreshToken: `refresh-${randomUUID()}`,
        expiresIn: 3600,
      };
      return { kind: 'signed_in', tokens };
    },
    refresh: () => Promise.reject(new Error('not recorded by this test double')),
    changePassword: () => Promise.reject(new Error('not recorded by this test double')),
    signOutEverywhere: () => Promise.reject(new Error('not recorded by this test double')),
    startPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
    confirmPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
  };
  return provider;
}
