import * as z from 'zod/mini';
import { allScopes } from '../routes';

/*
 * The JSON bodies of a workspace's tags, keys and webhook settings routes as schemas (docs/api.md#settings-api).
 * Unknown fields and wrong types are the route's 400 naming the field (parseJsonBody); what the use case checks itself
 * (a blank name, an unknown scope) it refuses in the same words on the command line.
 */

/**
 * Far above any name a person gives a tag or a key, far below what would crowd the workspace's configuration
 * item (DynamoDB's 400 KB item limit): a name over it is refused before any write.
 */
export const maxSettingsNameLength = 200;

const name = z.string().check(z.maxLength(maxSettingsNameLength));

export const tagNameSchema = z.strictObject({ name });

/** `scopes`: at most the five scopes and `*`, each named once (lib/settings/api-keys.ts checks them). */
export const newApiKeySchema = z.strictObject({
  name,
  scopes: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(allScopes.length + 1))),
});

export const webhookActiveSchema = z.strictObject({ active: z.boolean() });

/** `POST /webhook/token` takes no body; one sent may only be the empty object. */
export const emptyBodySchema = z.strictObject({});
