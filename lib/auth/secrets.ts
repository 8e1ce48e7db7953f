import { randomBytes } from 'node:crypto';

/** The prefix tells a leaked secret's kind at a glance (secret scanners key on it). */
export const newApiKeySecret = (): string => `crm_key_${randomBytes(32).toString('base64url')}`;
export const newWebhookToken = (): string => `crm_whk_${randomBytes(32).toString('base64url')}`;
