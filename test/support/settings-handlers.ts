import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { createHandler as createApiKey } from '../../functions/create-api-key';
import { createHandler as createTag } from '../../functions/create-tag';
import { createHandler as generateWebhookToken } from '../../functions/generate-webhook-token';
import { createHandler as getWebhook } from '../../functions/get-webhook';
import { createHandler as getWorkspace } from '../../functions/get-workspace';
import { createHandler as listApiKeyChanges } from '../../functions/list-api-key-changes';
import { createHandler as listApiKeys } from '../../functions/list-api-keys';
import { createHandler as listTags } from '../../functions/list-tags';
import { createHandler as renameTag } from '../../functions/rename-tag';
import { createHandler as revokeApiKey } from '../../functions/revoke-api-key';
import { createHandler as setWebhookActive } from '../../functions/set-webhook-active';
import type { Deps } from '../../lib/deps';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * The settings routes' handler factories, by route id (decisions 7.2), apart from `handlerFactories`
 * (./route-calls.ts), whose callers decide for an API key or a webhook: these take a member's access token.
 */
export const settingsHandlerFactories: Record<string, (deps: Deps) => Handler> = {
  getWorkspace,
  listTags,
  createTag,
  renameTag,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  listApiKeyChanges,
  getWebhook,
  generateWebhookToken,
  setWebhookActive,
};
