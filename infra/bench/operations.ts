import type { SeedOutput } from '../../lib/admin/seed';
import type { ApiResponse, RequestOptions } from '../local/api-client';
import { applicationBody, newLeadBody, noteBody } from './payloads';
import { benchWebhook } from './workspace';

export type HttpCall = { method: string; path: string; options: RequestOptions };

export type OperationContext = {
  seed: SeedOutput;
  /** The Prospect API key of this run of the operations. */
  apiKey: string;
  /** The e-mail of a prospect already in the workspace. */
  knownLeadEmail: string;
  /** Seeded prospects no other measure touches. */
  prospects: (count: number) => string[];
  /** A number no other contact of this bench run has. */
  fresh: () => number;
  /** Sends a call; any answer but a 2xx throws. */
  send: (call: HttpCall) => Promise<ApiResponse>;
};

export type OperationId =
  | 'newLead'
  | 'knownLead'
  | 'candidateCreated'
  | 'candidateExisting'
  | 'listPipelines'
  | 'patchStage'
  | 'addNote'
  | 'addTag'
  | 'removeTag';

/**
 * One measured operation: its route, the fewest DynamoDB calls the data model allows (authorizer
 * included) and why, and how to build its call for repetition `rep` (after whatever it needs exists).
 */
export type Operation = {
  id: OperationId;
  label: string;
  routeId: string;
  minimum: { calls: readonly string[]; reason: string };
  prepare: (context: OperationContext, repetitions: number) => Promise<(rep: number) => HttpCall>;
};

const apiKeyAuthorizer =
  'authorizer: the key by its fingerprint (GetItem, strongly consistent and never cached, so a revoked key fails on the next call); gate: one conditional UpdateItem counts the request and checks both limits';
const webhookAuthorizer =
  'authorizer: one UpdateItem conditional on the token and the status records the last call and returns the endpoint (a refusal returns the stored endpoint, or none for an unknown one), so a regenerated token fails on the next call';
const prospectChange =
  'the prospect (stage or tags, and version) and the configuration item (names) in one BatchGetItem; one transaction writes the change, conditional on the version read, with its change-log entry';

function webhookCall(context: OperationContext, path: string, body: unknown): HttpCall {
  const webhook = benchWebhook(context.seed);
  return {
    method: 'POST',
    path,
    options: {
      query: { endpoint_id: webhook.endpoint_id },
      headers: { Authorization: `Bearer ${webhook.token}` },
      body,
    },
  };
}

function apiCall(context: OperationContext, method: string, path: string, body?: unknown): HttpCall {
  return { method, path, options: { headers: { Authorization: `Bearer ${context.apiKey}` }, body } };
}

export const operations: readonly Operation[] = [
  {
    id: 'newLead',
    label: 'Lead webhook, new lead',
    routeId: 'ingestLead',
    minimum: {
      calls: ['UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration (placement, tags) and the e-mail, phone and social markers (one BatchGetItem) in parallel; one transaction creates the prospect and its markers only where absent, so concurrent copies of a lead never make two prospects`,
    },
    prepare: async (context) => () =>
      webhookCall(context, '/webhooks/ingest-lead', newLeadBody(context.fresh(), context.seed.tags.vip)),
  },
  {
    id: 'knownLead',
    label: 'Lead webhook, known lead',
    routeId: 'ingestLead',
    minimum: {
      calls: ['UpdateItem', 'BatchGetItem', 'UpdateItem'],
      reason: `${webhookAuthorizer}; the configuration item and the markers in one BatchGetItem, the e-mail marker naming the prospect; one UpdateItem changes the prospect and returns it for the answer (no marker moves when e-mail and phone stay)`,
    },
    prepare: async (context) => () =>
      webhookCall(context, '/webhooks/ingest-lead', { email: context.knownLeadEmail, first_name: 'Léa' }),
  },
  {
    id: 'candidateCreated',
    label: 'Recruitment webhook, new candidate',
    routeId: 'recruitment',
    minimum: {
      calls: ['UpdateItem', 'GetItem', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration (pipeline and its first column); one transaction writes marker, candidate and answers note, the marker's condition standing for a look-up by e-mail`,
    },
    prepare: async (context) => () => webhookCall(context, '/webhooks/recruitment', applicationBody(context.fresh())),
  },
  {
    id: 'candidateExisting',
    label: 'Recruitment webhook, known candidate',
    routeId: 'recruitment',
    minimum: {
      calls: ['UpdateItem', 'GetItem', 'TransactWriteItems', 'PutItem'],
      reason: `${webhookAuthorizer}; the configuration; the refused transaction returns the existing marker (ReturnValuesOnConditionCheckFailure), so finding the candidate costs no read; one PutItem adds the note`,
    },
    prepare: async (context) => {
      const call = webhookCall(context, '/webhooks/recruitment', applicationBody(context.fresh()));
      await context.send(call);
      return () => call;
    },
  },
  {
    id: 'listPipelines',
    label: 'GET /pipelines',
    routeId: 'listPipelines',
    minimum: {
      calls: ['GetItem', 'UpdateItem', 'GetItem'],
      reason: `${apiKeyAuthorizer}; pipelines, stages and tags live in the workspace's one configuration item: one GetItem`,
    },
    prepare: async (context) => () => apiCall(context, 'GET', '/pipelines'),
  },
  {
    id: 'patchStage',
    label: 'PATCH /prospects/{id} (stage)',
    routeId: 'updateProspect',
    minimum: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; ${prospectChange}`,
    },
    prepare: async (context) => {
      const [prospectId] = context.prospects(1);
      return (rep) =>
        apiCall(context, 'PATCH', `/prospects/${prospectId}`, { stage: rep % 2 === 0 ? 'Relance' : 'Nouveau' });
    },
  },
  {
    id: 'addNote',
    label: 'POST /prospects/{id}/notes',
    routeId: 'addNote',
    minimum: {
      calls: ['GetItem', 'UpdateItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; one transaction writes the note and its log entry and raises the prospect's version, its condition telling a missing prospect (404) without a read`,
    },
    prepare: async (context) => {
      const [prospectId] = context.prospects(1);
      return () => apiCall(context, 'POST', `/prospects/${prospectId}/notes`, noteBody);
    },
  },
  {
    id: 'addTag',
    label: 'POST /prospects/{id}/tags',
    routeId: 'addTag',
    minimum: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; ${prospectChange}`,
    },
    prepare: async (context, repetitions) => {
      const prospectIds = context.prospects(repetitions);
      return (rep) => apiCall(context, 'POST', `/prospects/${prospectIds[rep]}/tags`, { tag: 'VIP' });
    },
  },
  {
    id: 'removeTag',
    label: 'DELETE /prospects/{id}/tags/{tag}',
    routeId: 'removeTag',
    minimum: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; ${prospectChange}`,
    },
    prepare: async (context, repetitions) => {
      const prospectIds = context.prospects(repetitions);
      return (rep) => apiCall(context, 'DELETE', `/prospects/${prospectIds[rep]}/tags/Chaud`);
    },
  },
];
