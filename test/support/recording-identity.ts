import type { IdentityProvider } from '../../lib/domain/identity-provider';

/**
 * A TEST DOUBLE of the identity provider port (lib/domain/identity-provider.ts), for the member use cases' tests on
 * DynamoDB Local alone: it keeps each person's status as the pool would (`FORCE_CHANGE_PASSWORD` once invited,
 * `CONFIRMED` once given a permanent password; `statuses` may plant any other), answers an invitation by it as the
 * Cognito adapter does, records the invitations it made and the permanent passwords it set, and signs no one in.
 * `answersDeliveredSecrets` as the local run's provider (true) or AWS's (false). `failInvite` makes the next
 * invitations throw, as a provider outage.
 */
export type RecordingIdentityProvider = IdentityProvider & {
  invitations: { email: string; temporaryPassword: string }[];
  permanentPasswords: { email: string; password: string }[];
  statuses: Map<string, string>;
  failInvite: boolean;
};

export function recordingIdentityProvider(answersDeliveredSecrets = true): RecordingIdentityProvider {
  const provider: RecordingIdentityProvider = {
    invitations: [],
    permanentPasswords: [],
    statuses: new Map(),
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
    signIn: () => Promise.reject(new Error('not recorded by this test double')),
    refresh: () => Promise.reject(new Error('not recorded by this test double')),
    changePassword: () => Promise.reject(new Error('not recorded by this test double')),
    startPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
    confirmPasswordReset: () => Promise.reject(new Error('not recorded by this test double')),
  };
  return provider;
}
