import { randomUUID } from 'node:crypto';
import type { SeedOutput } from '../../lib/admin/seed';
import { encodeDecision, type AuthDecision } from '../../lib/auth/context';
import { routes } from '../../lib/routes';
import { authorizedEvent, matchRoute, proxyEvent, requestAuthorizerEvent } from '../local/api-gateway';
import { authorizerName, referenceName } from './bundles';
import { prospectCreatedBatch, unknownDeliveryBatch } from './event-function-events';
import { applicationBody, newLeadBody, noteBody } from './payloads';
import { benchWebhook, knownLead } from './workspace';

/** The first event of a function's cold start number `run`. */
export type ColdStartEvent = (run: number) => unknown;

export type ColdStartContext = {
  seed: SeedOutput;
  /** The key each route's calls are counted on, by route id. */
  keyIdOf: (routeId: string) => string;
  prospects: (count: number) => string[];
  fresh: () => number;
};

type Request = { method: string; target: string; headers: Record<string, string>; body?: unknown };

/** The proxy event API Gateway builds for a request (tools/local/api-gateway.ts, as the local server does). */
function gatewayEvent(request: Request) {
  const path = request.target.split('?')[0] ?? '';
  const match = matchRoute(routes, request.method, path);
  if (match === undefined) throw new Error(`no route for ${request.method} ${path}`);
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const headers = { 'Content-Type': 'application/json', ...request.headers };
  return proxyEvent(
    {
      method: request.method,
      target: request.target,
      rawHeaders: Object.entries(headers).flat(),
      body,
      sourceIp: '127.0.0.1',
      httpVersion: '1.1',
    },
    match,
    { requestId: randomUUID(), extendedRequestId: randomUUID(), now: new Date() },
  );
}

/** What the handler receives once the authorizer allowed the request. */
function allowedEvent(request: Request, decision: AuthDecision) {
  return authorizedEvent(gatewayEvent(request), { ...encodeDecision(decision), principalId: 'bench' });
}

/**
 * One first event per function: each run's does the function's real work (a new lead, a new
 * candidate, a tag on a prospect that lacks it, a prospect found, a new prospect's stream record, a
 * sweep's reads), never a no-op; the delivery function's is the exception told at `unknownDeliveryBatch`.
 */
export function coldStartEvents(context: ColdStartContext, runs: number): Map<string, ColdStartEvent> {
  const { seed } = context;
  const webhook = benchWebhook(seed);
  const webhookTarget = (path: string) => `${path}?endpoint_id=${webhook.endpoint_id}`;
  const webhookDecision: AuthDecision = {
    outcome: 'allowed',
    principal: { kind: 'webhook', workspaceId: seed.workspace_id, endpointId: webhook.endpoint_id },
  };
  const keyDecision = (routeId: string): AuthDecision => ({
    outcome: 'allowed',
    principal: { kind: 'api-key', workspaceId: seed.workspace_id, keyId: context.keyIdOf(routeId), scopes: ['*'] },
  });
  const [changed, noted] = context.prospects(2);
  const tagged = context.prospects(runs);
  const untagged = context.prospects(runs);
  const prospectPath = (id: string | undefined) => `/prospects/${id}`;

  return new Map<string, ColdStartEvent>([
    [
      'listPipelines',
      () => allowedEvent({ method: 'GET', target: '/pipelines', headers: {} }, keyDecision('listPipelines')),
    ],
    [
      'updateProspect',
      (run) =>
        allowedEvent(
          {
            method: 'PATCH',
            target: prospectPath(changed),
            headers: {},
            body: { follow_up_at: new Date(Date.UTC(2027, 0, 1 + run, 9, 30)).toISOString() },
          },
          keyDecision('updateProspect'),
        ),
    ],
    [
      'getProspect',
      () => allowedEvent({ method: 'GET', target: prospectPath(changed), headers: {} }, keyDecision('getProspect')),
    ],
    [
      'findProspects',
      () =>
        allowedEvent(
          { method: 'GET', target: `/prospects?email=${encodeURIComponent(knownLead.email)}`, headers: {} },
          keyDecision('findProspects'),
        ),
    ],
    [
      'listNotes',
      () =>
        allowedEvent({ method: 'GET', target: `${prospectPath(noted)}/notes`, headers: {} }, keyDecision('listNotes')),
    ],
    [
      'listChanges',
      () =>
        allowedEvent(
          { method: 'GET', target: `${prospectPath(changed)}/changes`, headers: {} },
          keyDecision('listChanges'),
        ),
    ],
    [
      'addNote',
      () =>
        allowedEvent(
          { method: 'POST', target: `${prospectPath(noted)}/notes`, headers: {}, body: noteBody },
          keyDecision('addNote'),
        ),
    ],
    [
      'addTag',
      (run) =>
        allowedEvent(
          { method: 'POST', target: `${prospectPath(tagged[run])}/tags`, headers: {}, body: { tag: 'VIP' } },
          keyDecision('addTag'),
        ),
    ],
    [
      'removeTag',
      (run) =>
        allowedEvent(
          { method: 'DELETE', target: `${prospectPath(untagged[run])}/tags/Chaud`, headers: {} },
          keyDecision('removeTag'),
        ),
    ],
    [
      'ingestLead',
      () =>
        allowedEvent(
          {
            method: 'POST',
            target: webhookTarget('/webhooks/ingest-lead'),
            headers: {},
            body: newLeadBody(context.fresh(), seed.tags.vip),
          },
          webhookDecision,
        ),
    ],
    [
      'recruitment',
      () =>
        allowedEvent(
          {
            method: 'POST',
            target: webhookTarget('/webhooks/recruitment'),
            headers: {},
            body: applicationBody(context.fresh()),
          },
          webhookDecision,
        ),
    ],
    [
      authorizerName,
      // The lead webhook's: endpoint read, then the last call recorded.
      () =>
        requestAuthorizerEvent(
          gatewayEvent({
            method: 'POST',
            target: webhookTarget('/webhooks/ingest-lead'),
            headers: { Authorization: `Bearer ${webhook.token}` },
            body: newLeadBody(context.fresh(), undefined),
          }),
        ),
    ],
    ['streamHandler', (run) => prospectCreatedBatch(seed, run)],
    ['deliverEvent', (run) => unknownDeliveryBatch(seed, run)],
    // A scheduled event carries nothing the sweep reads: it queries the due deliveries of every
    // shard (none in the bench's table) and answers how many it found.
    ['sweepDeliveries', () => ({ source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} })],
    [referenceName, () => ({})],
  ]);
}
