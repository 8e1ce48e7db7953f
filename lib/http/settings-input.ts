import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFoundError } from '../domain/errors';
import type { MemberPrincipal } from '../domain/model';
import { isUuid } from '../ids';
import { decodePathParameter } from './middleware/route';

/*
 * What a settings route of a workspace reads from its request besides its body (decisions 7.2): the acting
 * membership, and the ids of its path.
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
