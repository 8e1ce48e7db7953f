import { decodeDecision } from '../../auth/context';
import {
  EndpointIdMalformedError,
  EndpointIdMissingError,
  UnauthorizedError,
  UnknownEndpointError,
} from '../../domain/errors';
import type { WebhookPrincipal } from '../../domain/model';
import type { WebhookCallContext } from '../../domain/webhook-call';
import type { Deps } from '../../deps';
import { messages as catalogue } from '../../messages';
import type { Route } from '../../routes';
import type { RouteContext, RouteMiddleware } from './route';
import { openWebhookCall } from './webhook-journal';

const { access: messages } = catalogue;

/** What a webhook handler is given: the endpoint let in, and the call being answered, which its use case journals with its write. */
export type WebhookContext = RouteContext & { principal: WebhookPrincipal; webhookCall: WebhookCallContext };

/**
 * The gate of both webhooks, before any business code: every authorizer outcome other than
 * `allowed` becomes the route's error (docs/api.md#webhook-endpoint-checks); an allowed call is opened
 * for the journal.
 */
export function webhookGate(route: Route, deps: Deps): RouteMiddleware<WebhookContext> {
  return {
    before: async (request) => {
      request.context.responseHeaders = {};
      const decision = decodeDecision(request.event.requestContext?.authorizer);
      switch (decision.outcome) {
        case 'endpoint_missing':
          throw new EndpointIdMissingError(messages.endpointMissing);
        case 'endpoint_malformed':
          throw new EndpointIdMalformedError(messages.endpointMalformed);
        case 'endpoint_unknown':
          throw new UnknownEndpointError(messages.endpointUnknown);
        case 'failed':
          throw new Error('authorizer failed');
        case 'allowed':
          if (decision.principal.kind === 'webhook') {
            request.context.principal = decision.principal;
            request.context.webhookCall = openWebhookCall(route, request.event, decision.principal, deps.clock);
            return;
          }
          throw new UnauthorizedError(messages.webhookUnauthorized);
        default:
          throw new UnauthorizedError(messages.webhookUnauthorized);
      }
    },
  };
}
