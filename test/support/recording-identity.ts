import type { IdentityProvider } from '../../lib/domain/identity-provider';

/**
 * A TEST DOUBLE of the identity provider port (lib/domain/identity-provider.ts), for the member use
 * cases' tests before the Cognito adapter (lib/identity/) is merged: it records invitations and
 * permanent passwords and signs no one in. `answersDeliveredSecrets` as the local run's provider
 * (true) or AWS's (false). `failInvite` makes the next invitations throw, as a provider outage.
 */
export type RecordingIdentityProvider = IdentityProvider & {
  invitations: { email: string; temporaryPassword: string }[];
  permanentPasswords: { email: string; password: string }[];
  failInvite: boolean;
};

export function recordingIdentityProvider(answersDeliveredSecrets = true): RecordingIdentityProvider {
  const provider: RecordingIdentityProvider = {
    invitations: [],
    permanentPasswords: [],
    failInvite: false,
    answersDeliveredSecrets,
    async invite(email, temporaryPassword) {
      if (provider.failInvite) throw new Error('identity provider unavailable (test double)');
      provider.invitations.push({ email, temporaryPassword });
    },
    async setPermanentPassword(email, password) {
      provider.permanentPasswords.push({ email, password });
    },
    signIn: () => Promise.reject(new Error('not recorded by this test double')),
    refresh: () => Promise.reject(new Error('not recorded by this test double')),
    changePassword: () => Promise.reject(new Error('not recorded by this test double')),
    startPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
    confirmPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
  };
  return provider;
}
