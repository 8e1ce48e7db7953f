import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { NotFoundError } from '../domain/errors';
import type { MemberPrincipal } from '../domain/model';
import { isUuid } from '../ids';
import { allScopes } from '../routes';
import { decodePathParameter } from './middleware/route';

/*
 * What the settings routes of the workspace, its tags, keys and webhook read from a request (decisions 7.2): the
 * ids of their paths and the schemas of their JSON bodies. Unknown fields and wrong types are the route's 400
 * naming the field (parseJsonBody); what the use case checks itself (a blank name, an unknown scope) it refuses
 * in the same words on the command line.
 */

/**
 * Far above any name a person gives a tag or a key, far below what would crowd the workspace's configuration
 * item (DynamoDB's 400 KB item limit): a name over it is refused before any write.
 */
export const maxSettingsNameLength = 200;

const name = z.string().check(z.maxLength(maxSettingsNameLength));

export const tagNameSchema = z.strictObject({ name });

/** `scopes`: at most the five scopes and `*`, each named once (lib/admin/api-keys.ts checks them). */
export const newApiKeySchema = z.strictObject({
  name,
  scopes: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(allScopes.length + 1))),
});

export const webhookActiveSchema = z.strictObject({ active: z.boolean() });

/** `POST /webhook/token` takes no body; one sent may only be the empty object. */
export const emptyBodySchema = z.strictObject({});

/**
 * An id in a settings path (a tag, a key): decoded once; one that is not a UUID names nothing, a 404 before any
 * read (decisions 7.2: "Unknown ids in the path: 404"). Ids are stored lowercase.
 */
export function settingsPathId(
  event: Pick<APIGatewayProxyEvent, 'pathParameters'>,
  parameter: string,
  unknown: (id: string) => string,
): string {
  const decoded = decodePathParameter(event.pathParameters?.[parameter] ?? '');
  const text = decoded.readable ? decoded.value : decoded.raw;
  if (!decoded.readable || !isUuid(text)) throw new NotFoundError(unknown(text));
  return text.toLowerCase();
}

/**
 * The membership of the person calling a route under /workspaces/{workspace_id}: the authorizer allows such a
 * call only with one (lib/auth/authorize.ts), so its absence is an internal failure, never an answer.
 */
export function membershipOf(principal: MemberPrincipal): NonNullable<MemberPrincipal['membership']> {
  if (principal.membership === undefined) throw new Error('a workspace route allowed without a membership');
  return principal.membership;
}
