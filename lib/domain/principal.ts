/** Who is calling, as the authorizer established it: the workspace and the credential used. */
export type ApiKeyPrincipal = { kind: 'api-key'; workspaceId: string; keyId: string; scopes: readonly string[] };
export type WebhookPrincipal = { kind: 'webhook'; workspaceId: string; endpointId: string };
export type Principal = ApiKeyPrincipal | WebhookPrincipal;
