import type { PhoneSettings } from './model';

/** Who is calling, as the authorizer established it: the workspace and the credential used. */
export type ApiKeyPrincipal = { kind: 'api-key'; workspaceId: string; keyId: string; scopes: readonly string[] };
/**
 * A webhook call also carries its workspace's phone settings, copied onto the endpoint item and
 * returned by the authorizer's one write: the lead webhook knows how to match phones before its
 * first read (docs/api.md#phone-matching); absent, the defaults (exact matching, region FR).
 */
export type WebhookPrincipal = { kind: 'webhook'; workspaceId: string; endpointId: string; phone?: PhoneSettings };
export type Principal = ApiKeyPrincipal | WebhookPrincipal;
