import { Webhook } from 'standardwebhooks';
import type { SigningSecrets } from '../model';

/** How long the secret a rotation replaces goes on signing beside the new one (docs/api.md#outbound-events). */
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

/**
 * The secrets that sign an attempt made at `at`: the current one, and the one the last rotation
 * replaced while its 24 hours last (never more than these two).
 */
export function secretsSigningAt(secrets: SigningSecrets, at: Date): string[] {
  const { secret, previous_secret: previous, previous_until: until } = secrets;
  return previous !== undefined && until !== undefined && at.getTime() < Date.parse(until)
    ? [secret, previous]
    : [secret];
}

/**
 * `webhook-signature` of one attempt (Standard Webhooks, "Webhook headers"): a space-delimited list
 * of signatures, one per secret, each `v1,<base64 HMAC-SHA256 of id.timestamp.body>` as the
 * `standardwebhooks` library makes it. A receiver verifying with either secret finds its own
 * among them, so a rotation needs no downtime.
 */
export const signatureHeader = (secrets: readonly string[], eventId: string, at: Date, payload: string): string =>
  secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(' ');
