import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { NotFoundError } from '../domain/errors';
import type { MemberPrincipal } from '../domain/model';
import { isUuid } from '../ids';
import { allScopes } from '../routes';
import { decodePathParameter } from './middleware/route';

/*
 * What a settings route of a workspace reads from its request (decisions 7.2): the acting membership, the ids of its
 * path, and the JSON bodies of the workspace's tags, keys and webhook routes as schemas. Unknown fields and wrong
 * types are the route's 400 naming the field (parseJsonBody); what the use case checks itself (a blank name, an
 * unknown scope) it refuses in the same words on the command line.
 */

/**
 * The membership the member gate admitted (lib/http/middleware/member-gate.ts): every route under
 * /workspaces/{workspace_id} has one, or the gate answered 404 before the handler.
 */
export function actingMembership(principal: MemberPrincipal): NonNullable<MemberPrincipal['membership']> {
  if (principal.membership === undefined) throw new Error('settings route without a membership');
  return principal.membership;
}

/**
 * A record id of the path, decoded: anything but a UUID names nothing, a 404 before any read (decisions 7.2,
 * "a non-UUID id → 404"); `notFound` is the message of the route's unknown record.
 */
export function pathIdOf(event: Pick<APIGatewayProxyEvent, 'pathParameters'>, name: string, notFound: string): string {
  const parameter = decodePathParameter(event.pathParameters?.[name] ?? '');
  if (!parameter.readable || !isUuid(parameter.value)) throw new NotFoundError(notFound);
  return parameter.value.toLowerCase();
}

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
