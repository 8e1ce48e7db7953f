import { createHash, randomBytes } from 'node:crypto';

/** Only this fingerprint is stored; the secret itself is shown once and never kept. */
export const fingerprint = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The prefix tells a leaked secret's kind at a glance (secret scanners key on it). */
export const newApiKeySecret = (): string => `crm_key_${randomBytes(32).toString('base64url')}`;
export const newWebhookToken = (): string => `crm_whk_${randomBytes(32).toString('base64url')}`;
