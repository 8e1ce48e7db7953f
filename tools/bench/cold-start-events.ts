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

type Request = { method: string; target: string; headers?: Record<string, string>; body?: unknown };

/** The proxy event API Gateway builds for a request, as the local server builds it (tools/local/api-gateway.ts). */
function gatewayEvent({ method, target, headers = {}, body }: Request) {
  const match = matchRoute(routes, method, target.split('?')[0] ?? '');
  if (match === undefined) throw new Error(`no route for ${method} ${target}`);
  const rawHeaders = Object.entries({ 'Content-Type': 'application/json', ...headers }).flat();
  const incoming = { method, target, rawHeaders, sourceIp: '127.0.0.1', httpVersion: '1.1' };
  const ids = { requestId: randomUUID(), extendedRequestId: randomUUID(), now: new Date() };
  return proxyEvent({ ...incoming, body: body === undefined ? '' : JSON.stringify(body) }, match, ids);
}

/**
 * One first event per function: each run's does the function's real work (a new lead, a new
 * candidate, a tag on a prospect that lacks it, a prospect found, a new prospect's stream record, a
 * sweep's reads), never a no-op; the delivery function's is the exception told at `unknownDeliveryBatch`.
 */
export function coldStartEvents(context: ColdStartContext, runs: number): Map<string, ColdStartEvent> {
  const { seed } = context;
  const webhook = benchWebhook(seed);
  const hook = (path: string) => `${path}?endpoint_id=${webhook.endpoint_id}`;
  const [changed, noted] = context.prospects(2);
  const [tagged, untagged] = [context.prospects(runs), context.prospects(runs)];
  const at = (id: string | undefined, rest = '') => `/prospects/${id}${rest}`;
  // The request each route's handler receives, once the authorizer allowed it (the webhooks' as a webhook).
  const requests: Record<string, (run: number) => Request> = {
    listPipelines: () => ({ method: 'GET', target: '/pipelines' }),
    updateProspect: (run) => ({
      method: 'PATCH',
      target: at(changed),
      body: { follow_up_at: new Date(Date.UTC(2027, 0, 1 + run, 9, 30)).toISOString() },
    }),
    getProspect: () => ({ method: 'GET', target: at(changed) }),
    findProspects: () => ({ method: 'GET', target: `/prospects?email=${encodeURIComponent(knownLead.email)}` }),
    listNotes: () => ({ method: 'GET', target: at(noted, '/notes') }),
    listChanges: () => ({ method: 'GET', target: at(changed, '/changes') }),
    addNote: () => ({ method: 'POST', target: at(noted, '/notes'), body: noteBody }),
    addTag: (run) => ({ method: 'POST', target: at(tagged[run], '/tags'), body: { tag: 'VIP' } }),
    removeTag: (run) => ({ method: 'DELETE', target: at(untagged[run], '/tags/Chaud') }),
    ingestLead: () => ({
      method: 'POST',
      target: hook('/webhooks/ingest-lead'),
      body: newLeadBody(context.fresh(), seed.tags.vip),
    }),
    recruitment: () => ({
      method: 'POST',
      target: hook('/webhooks/recruitment'),
      body: applicationBody(context.fresh()),
    }),
  };
  const decision = (routeId: string): AuthDecision =>
    routeId === 'ingestLead' || routeId === 'recruitment'
      ? {
          outcome: 'allowed',
          principal: { kind: 'webhook', workspaceId: seed.workspace_id, endpointId: webhook.endpoint_id },
        }
      : {
          outcome: 'allowed',
          principal: {
            kind: 'api-key',
            workspaceId: seed.workspace_id,
            keyId: context.keyIdOf(routeId),
            scopes: ['*'],
          },
        };
  return new Map<string, ColdStartEvent>([
    ...Object.entries(requests).map(([routeId, request]): [string, ColdStartEvent] => [
      routeId,
      (run) =>
        authorizedEvent(gatewayEvent(request(run)), { ...encodeDecision(decision(routeId)), principalId: 'bench' }),
    ]),
    // The lead webhook's: endpoint read, then the last call recorded.
    [
      authorizerName,
      () =>
        requestAuthorizerEvent(
          gatewayEvent({
            method: 'POST',
            target: hook('/webhooks/ingest-lead'),
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
