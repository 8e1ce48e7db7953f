import type { SeedOutput } from '../../lib/admin/seed';
import { applicationBody, newLeadBody, noteBody } from './payloads';
import { benchWebhook } from './workspace';

/** A string body is sent as is, anything else as JSON. */
export type RequestOptions = { headers?: Record<string, string>; body?: unknown; query?: Record<string, string> };
export type HttpCall = { method: string; path: string; options: RequestOptions };

export type OperationContext = {
  seed: SeedOutput;
  /** The Prospect API key of this run of the operations. */
  apiKey: string;
  /** The API key of the read operations (a key of its own: all operations on one key would pass its 120 a minute). */
  readApiKey: string;
  /** The e-mail of a prospect already in the workspace. */
  knownLeadEmail: string;
  /** Seeded prospects no other measure touches. */
  prospects: (count: number) => string[];
  /** A number no other contact of this bench run has. */
  fresh: () => number;
  /** Sends a call; any answer but a 2xx throws. */
  send: (call: HttpCall) => Promise<{ body: unknown }>;
};

export type OperationId =
  | 'newLead'
  | 'knownLead'
  | 'candidateCreated'
  | 'candidateExisting'
  | 'listPipelines'
  | 'patchStage'
  | 'patchUnchanged'
  | 'addNote'
  | 'addTag'
  | 'tagAlreadyPresent'
  | 'removeTag'
  | 'getProspect'
  | 'findProspect'
  | 'notesPage'
  | 'changesPage';

/**
 * One measured operation: its route; the most DynamoDB round trips it may take (authorizer
 * included: the target of issue 15 or 16, a budget); the calls the code is expected to make and why the data
 * model needs them; and how to build its call for repetition `rep` (after whatever it needs exists).
 */
export type Operation = {
  id: OperationId;
  label: string;
  routeId: string;
  target: number;
  expected: { calls: readonly string[]; reason: string };
  prepare: (context: OperationContext, repetitions: number) => Promise<(rep: number) => HttpCall>;
};

const apiKeyAuthorizer =
  'authorizer: the key by its fingerprint (GetItem, strongly consistent and never cached, so a revoked key fails on the next call); gate: one conditional UpdateItem counts the request and checks both limits';
const webhookAuthorizer =
  'authorizer: one UpdateItem conditional on the token and the status records the last call and returns the endpoint (a refusal returns the stored endpoint, or none for an unknown one), so a regenerated token fails on the next call';
const prospectChange =
  'the prospect (stage or tags, and version) and the configuration item (names) in one eventually consistent BatchGetItem (half the read units); one transaction writes the change with its change-log entry, conditional on the version read, so a stale read loses the condition and is read again';
const prospectUnchanged = (what: string) =>
  `the prospect and the configuration item in one eventually consistent BatchGetItem; ${what}, so nothing is written and no condition would catch a stale read: one more BatchGetItem reads the prospect alone, strongly consistently (an eventually consistent read may miss the last second's write), and answers. Issue 15's targets are for calls that change something; this one's is its round trips before the issue (GetItem, UpdateItem, Query, GetItem, read from the code of the baseline's commit, whose bench did not measure this call)`;

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

function readCall(context: OperationContext, path: string, query: Record<string, string> = {}): HttpCall {
  return { method: 'GET', path, options: { query, headers: { Authorization: `Bearer ${context.readApiKey}` } } };
}

/** A prospect of the bench with three notes and three change-log entries: pages of two have a next page. */
async function aProspectWithHistory(context: OperationContext): Promise<string> {
  const [prospectId] = context.prospects(1);
  for (const month of ['01', '02', '03']) {
    await context.send(apiCall(context, 'POST', `/prospects/${prospectId}/notes`, noteBody));
    await context.send(
      apiCall(context, 'PATCH', `/prospects/${prospectId}`, { follow_up_at: `2027-${month}-01T09:30:00+01:00` }),
    );
  }
  return prospectId as string;
}

function apiCall(context: OperationContext, method: string, path: string, body?: unknown): HttpCall {
  return { method, path, options: { headers: { Authorization: `Bearer ${context.apiKey}` }, body } };
}

export const operations: readonly Operation[] = [
  {
    id: 'newLead',
    label: 'Lead webhook, new lead',
    routeId: 'ingestLead',
    target: 3,
    expected: {
      calls: ['UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration (placement, tags) and the e-mail, phone and social markers (one BatchGetItem) in parallel; one transaction creates the prospect and its markers only where absent, so concurrent copies of a lead never make two prospects, and journals the call`,
    },
    prepare: async (context) => () =>
      webhookCall(context, '/webhooks/ingest-lead', newLeadBody(context.fresh(), context.seed.tags.vip)),
  },
  {
    id: 'knownLead',
    label: 'Lead webhook, known lead',
    routeId: 'ingestLead',
    target: 3,
    expected: {
      calls: ['UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration item and the markers in one BatchGetItem, the e-mail marker naming the prospect and where it stood; one transaction changes the prospect, on the condition that it still stands there (the answer's placement), and journals the call (no marker moves when e-mail and phone stay)`,
    },
    prepare: async (context) => () =>
      webhookCall(context, '/webhooks/ingest-lead', { email: context.knownLeadEmail, first_name: 'Léa' }),
  },
  {
    id: 'candidateCreated',
    label: 'Recruitment webhook, new candidate',
    routeId: 'recruitment',
    target: 3,
    expected: {
      calls: ['UpdateItem', 'GetItem', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration (pipeline and its first column); one transaction writes marker, candidate and answers note, the marker's condition standing for a look-up by e-mail`,
    },
    prepare: async (context) => () => webhookCall(context, '/webhooks/recruitment', applicationBody(context.fresh())),
  },
  {
    id: 'candidateExisting',
    label: 'Recruitment webhook, known candidate',
    routeId: 'recruitment',
    target: 4,
    expected: {
      calls: ['UpdateItem', 'GetItem', 'TransactWriteItems', 'TransactWriteItems'],
      reason: `${webhookAuthorizer}; the configuration; the refused transaction returns the existing marker (ReturnValuesOnConditionCheckFailure), so finding the candidate costs no read; one transaction adds the note and journals the call`,
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
    target: 3,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'GetItem'],
      reason: `${apiKeyAuthorizer}; pipelines, stages and tags live in the workspace's one configuration item: one GetItem`,
    },
    prepare: async (context) => () => apiCall(context, 'GET', '/pipelines'),
  },
  {
    id: 'patchStage',
    label: 'PATCH /prospects/{id} (stage)',
    routeId: 'updateProspect',
    target: 4,
    expected: {
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
    id: 'patchUnchanged',
    label: 'PATCH /prospects/{id} (nothing to change)',
    routeId: 'updateProspect',
    target: 4,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'BatchGetItem'],
      reason: `${apiKeyAuthorizer}; ${prospectUnchanged('the follow-up sent is the one the prospect has')}`,
    },
    prepare: async (context) => {
      const [prospectId] = context.prospects(1);
      // Not a stage: the 30 stage changes a minute of the key are patchStage's.
      const call = apiCall(context, 'PATCH', `/prospects/${prospectId}`, { follow_up_at: '2026-12-01T09:30:00+01:00' });
      await context.send(call);
      return () => call;
    },
  },
  {
    id: 'addNote',
    label: 'POST /prospects/{id}/notes',
    routeId: 'addNote',
    target: 3,
    expected: {
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
    target: 4,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; ${prospectChange}`,
    },
    prepare: async (context, repetitions) => {
      const prospectIds = context.prospects(repetitions);
      return (rep) => apiCall(context, 'POST', `/prospects/${prospectIds[rep]}/tags`, { tag: 'VIP' });
    },
  },
  {
    id: 'tagAlreadyPresent',
    label: 'POST /prospects/{id}/tags (already present)',
    routeId: 'addTag',
    target: 4,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'BatchGetItem'],
      reason: `${apiKeyAuthorizer}; ${prospectUnchanged('the prospect already has the tag')}`,
    },
    prepare: async (context) => {
      // Seeded with the tag Chaud.
      const [prospectId] = context.prospects(1);
      return () => apiCall(context, 'POST', `/prospects/${prospectId}/tags`, { tag: 'Chaud' });
    },
  },
  {
    id: 'getProspect',
    label: 'GET /prospects/{id}',
    routeId: 'getProspect',
    target: 3,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem'],
      reason: `${apiKeyAuthorizer}; the prospect and the configuration item (tag names) in one strongly consistent BatchGetItem`,
    },
    prepare: async (context) => {
      const [prospectId] = context.prospects(1);
      return () => readCall(context, `/prospects/${prospectId}`);
    },
  },
  {
    id: 'findProspect',
    label: 'GET /prospects?email=',
    routeId: 'findProspects',
    target: 4,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'GetItem'],
      reason: `${apiKeyAuthorizer}; the lead webhook's matching: the configuration item and the e-mail marker in one strongly consistent BatchGetItem, then the prospect the marker names (GetItem)`,
    },
    prepare: async (context) => () => readCall(context, '/prospects', { email: context.knownLeadEmail }),
  },
  {
    id: 'notesPage',
    label: 'GET /prospects/{id}/notes (second page)',
    routeId: 'listNotes',
    target: 3,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'Query'],
      reason: `${apiKeyAuthorizer}; one strongly consistent Query of the prospect's partition from NOTE# to PROSPECT reads the page, one item more, and the prospect item (first page) — from the cursor's position on a later page`,
    },
    prepare: async (context) => {
      const path = `/prospects/${await aProspectWithHistory(context)}/notes`;
      const first = await context.send(readCall(context, path, { limit: '2' }));
      const cursor = (first.body as { next_cursor: string }).next_cursor;
      return () => readCall(context, path, { limit: '2', cursor });
    },
  },
  {
    id: 'changesPage',
    label: 'GET /prospects/{id}/changes (first page)',
    routeId: 'listChanges',
    target: 3,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'Query'],
      reason: `${apiKeyAuthorizer}; one strongly consistent Query of the prospect's partition from PROSPECT to the last PROSPECT#LOG# key reads the page, one entry more, and tells a missing prospect from an empty log`,
    },
    prepare: async (context) => {
      const path = `/prospects/${await aProspectWithHistory(context)}/changes`;
      return () => readCall(context, path, { limit: '2' });
    },
  },
  {
    id: 'removeTag',
    label: 'DELETE /prospects/{id}/tags/{tag}',
    routeId: 'removeTag',
    target: 4,
    expected: {
      calls: ['GetItem', 'UpdateItem', 'BatchGetItem', 'TransactWriteItems'],
      reason: `${apiKeyAuthorizer}; ${prospectChange}`,
    },
    prepare: async (context, repetitions) => {
      const prospectIds = context.prospects(repetitions);
      return (rep) => apiCall(context, 'DELETE', `/prospects/${prospectIds[rep]}/tags/Chaud`);
    },
  },
];
