import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { decodeDecision } from '../../auth/context';
import type { Deps } from '../../storage/client';
import {
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  type MemberPrincipal,
} from '../../domain/model';
import { messages as catalogue } from '../../messages';
import type { Route } from '../../routes';
import { admitRequest } from '../../storage/rate-limit';
import {
  responseHeadersAndErrors,
  observed,
  rateLimitHeaders,
  type HttpResponse,
  type RouteContext,
  type RouteMiddleware,
} from './route';

const { session: messages } = catalogue;

/** What the handler of a settings route is given: the signed-in person, with their membership under a workspace. */
export type MemberContext = RouteContext & { principal: MemberPrincipal };

/** What a settings route does once its gate let the member in: its answer, from the request and the member. */
export type SettingsHandler = (event: APIGatewayProxyEvent, context: MemberContext) => Promise<HttpResponse>;

/**
 * A settings route, the one composition of every member-gated function: `responseHeadersAndErrors → memberGate → handler`,
 * observed. Nothing of the Idempotency-Key or of the webhook journal: no settings answer is kept for replay, since
 * several carry a secret shown once (docs/api.md#settings-api).
 */
export const settingsRoute = (route: Route, deps: Deps, handler: SettingsHandler) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(responseHeadersAndErrors(route))
      .use(memberGate(deps))
      .handler(handler),
  );

/**
 * The gate of every settings route, before any business code (docs/api.md#settings-api): check order 401, 404 (a
 * workspace the person is not a member of), 403 (a role below the route's), then 429, 120 requests a minute per member
 * and workspace, with the Prospect API's headers; a 403 still counts, as there. Routes without a workspace (the
 * person's own session and workspaces) are limited by the identity provider and the sign-in count.
 */
function memberGate(deps: Deps): RouteMiddleware<MemberContext> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decodeDecision(request.event.requestContext?.authorizer);
      if (decision.outcome === 'failed') throw new Error('authorizer failed');
      if (decision.outcome === 'not_found') throw new NotFoundError(messages.workspaceNotFound);
      if (!('principal' in decision) || decision.principal.kind !== 'member') {
        throw new UnauthorizedError(messages.unauthorized);
      }
      const { principal } = decision;
      const forbidden = decision.outcome === 'forbidden';
      if (principal.membership !== undefined) {
        const { admitted, state } = await admitRequest(deps, {
          keyId: `MEMBER#${principal.membership.memberId}`,
          now: deps.clock(),
          stageChange: false,
          enforce: !forbidden,
        });
        request.context.responseHeaders = rateLimitHeaders(state);
        if (forbidden) throw new ForbiddenError(messages.forbidden);
        if (!admitted) throw new RateLimitedError(messages.rateLimited, state.resetSeconds);
      } else if (forbidden) {
        throw new ForbiddenError(messages.forbidden);
      }
      request.context.principal = principal;
    },
  };
}

type Membership = NonNullable<MemberPrincipal['membership']>;

/**
 * The membership a settings route under /workspaces/{workspace_id} acts with: the authorizer read it for every such
 * route (lib/auth/authorize.ts) and memberGate let the call through only with it, so its absence is a fault (500).
 */
export function membershipOf(principal: MemberPrincipal): Membership {
  if (principal.membership === undefined) throw new Error('a workspace route reached without its membership');
  return principal.membership;
}

/** The acting member as the admin use cases take it (`Acting`, lib/storage/audit-log.ts): the workspace and who acts in it. */
export function actingMemberOf(principal: MemberPrincipal): { workspaceId: string; actingMemberId: string } {
  const { workspaceId, memberId } = membershipOf(principal);
  return { workspaceId, actingMemberId: memberId };
}
