import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/deps';
import { createDocumentClient } from '../../lib/storage/client';
import { startLocalServer } from '../local/server';
import { billedUnits, reportedUnits, type Item, type MeteredCall, type Units } from './capacity';
import { apiCall, applicationBody, fresh, newLeadBody, noteBody, phases, sender, webhookCall } from './workspace';
import type { Call, Phase, Send, Workspace } from './workspace';

/** What an operation's calls use: a key and a seeded prospect of its own, a fresh contact number, more prospects on demand, and what `setup` returned. */
export type Fixture = Workspace & { key: string; prospect: string; n: number; nextProspect: () => string } & {
  send: Send;
  prepared: string;
};

/**
 * One measured operation: `target`, the most round trips issue 15 or 16 allows (authorizer included, a budget);
 * `calls`, those expected (`key` and `hook` in its row: the API key's and the webhook's authorizer calls), and the
 * `reason` the data model needs them; `call`, its call of each round, after `setup` made what it needs exist
 * (`repeated`: the same call, made once before).
 */
export type Operation = { id: string; label: string; routeId: string; target: number; calls: readonly string[] } & {
  reason: string;
  setup?: (fixture: Fixture) => Promise<string>;
  repeated?: boolean;
  call: (fixture: Fixture, round: number) => Call;
};

const authorizerCalls: Record<string, string[]> = { key: ['GetItem', 'UpdateItem'], hook: ['UpdateItem'] };

const apiKeyAuthorizer =
  'authorizer: the key by its fingerprint (GetItem, strongly consistent and never cached, so a revoked key fails on the next call); gate: one conditional UpdateItem counts the request and checks both limits';
const webhookAuthorizer =
  'authorizer: one UpdateItem conditional on the token and the status records the last call and returns the endpoint (a refusal returns the stored endpoint, or none for an unknown one), so a regenerated token fails on the next call';
const prospectChange =
  'the prospect (stage or tags, and version) and the configuration item (names) in one eventually consistent BatchGetItem (half the read units); one transaction writes the change with its change-log entry, conditional on the version read, so a stale read loses the condition and is read again';
const prospectUnchanged = (what: string) =>
  `the prospect and the configuration item in one eventually consistent BatchGetItem; ${what}, so nothing is written and no condition would catch a stale read: one more BatchGetItem reads the prospect alone, strongly consistently (an eventually consistent read may miss the last second's write), and answers. Issue 15's targets are for calls that change something; this one's is its round trips before the issue (GetItem, UpdateItem, Query, GetItem, read from the code of the baseline's commit, whose bench did not measure this call)`;

/** Gives the fixture's prospect three notes and three change-log entries: pages of two have a next page. */
async function withHistory({ send, key, prospect }: Fixture): Promise<string> {
  for (const month of ['01', '02', '03']) {
    await send(apiCall(key, 'POST', `/prospects/${prospect}/notes`, noteBody));
    await send(apiCall(key, 'PATCH', `/prospects/${prospect}`, { follow_up_at: `2027-${month}-01T09:30:00+01:00` }));
  }
  return '';
}

/** The calls of an operation in a workspace, round after round, once what they need exists. */
export async function prepare(
  operation: Operation,
  workspace: Workspace,
  send: Send,
): Promise<(round: number) => Call> {
  const nextProspect = () => workspace.prospects(1)[0] ?? '';
  const [key = '', prospect, n] = [workspace.apiKeys(1)[0], nextProspect(), fresh()];
  const fixture: Fixture = { ...workspace, key, prospect, n, nextProspect, send, prepared: '' };
  fixture.prepared = (await operation.setup?.(fixture)) ?? '';
  if (operation.repeated) await send(operation.call(fixture, 0));
  return (round) => operation.call(fixture, round);
}

/** One row per operation: id | label | route | target | expected calls | why the data model needs them. */
const described = `
newLead | Lead webhook, new lead | ingestLead | 3 | hook BatchGetItem TransactWriteItems | ${webhookAuthorizer}; the configuration (placement, tags) and the e-mail, phone and social markers (one BatchGetItem) in parallel; one transaction creates the prospect and its markers only where absent, so concurrent copies of a lead never make two prospects, and journals the call
knownLead | Lead webhook, known lead | ingestLead | 3 | hook BatchGetItem TransactWriteItems | ${webhookAuthorizer}; the configuration item and the markers in one BatchGetItem, the e-mail marker naming the prospect and where it stood; one transaction changes the prospect, on the condition that it still stands there (the answer's placement), and journals the call (no marker moves when e-mail and phone stay)
candidateCreated | Recruitment webhook, new candidate | recruitment | 3 | hook GetItem TransactWriteItems | ${webhookAuthorizer}; the configuration (pipeline and its first column); one transaction writes marker, candidate and answers note, the marker's condition standing for a look-up by e-mail
candidateExisting | Recruitment webhook, known candidate | recruitment | 4 | hook GetItem TransactWriteItems TransactWriteItems | ${webhookAuthorizer}; the configuration; the refused transaction returns the existing marker (ReturnValuesOnConditionCheckFailure), so finding the candidate costs no read; one transaction adds the note and journals the call
listPipelines | GET /pipelines | listPipelines | 3 | key GetItem | ${apiKeyAuthorizer}; pipelines, stages and tags live in the workspace's one configuration item: one GetItem
patchStage | PATCH /prospects/{id} (stage) | updateProspect | 4 | key BatchGetItem TransactWriteItems | ${apiKeyAuthorizer}; ${prospectChange}
patchUnchanged | PATCH /prospects/{id} (nothing to change) | updateProspect | 4 | key BatchGetItem BatchGetItem | ${apiKeyAuthorizer}; ${prospectUnchanged('the follow-up sent is the one the prospect has')}
addNote | POST /prospects/{id}/notes | addNote | 3 | key TransactWriteItems | ${apiKeyAuthorizer}; one transaction writes the note and its log entry and raises the prospect's version, its condition telling a missing prospect (404) without a read
addTag | POST /prospects/{id}/tags | addTag | 4 | key BatchGetItem TransactWriteItems | ${apiKeyAuthorizer}; ${prospectChange}
tagAlreadyPresent | POST /prospects/{id}/tags (already present) | addTag | 4 | key BatchGetItem BatchGetItem | ${apiKeyAuthorizer}; ${prospectUnchanged('the prospect already has the tag')}
getProspect | GET /prospects/{id} | getProspect | 3 | key BatchGetItem | ${apiKeyAuthorizer}; the prospect and the configuration item (tag names) in one strongly consistent BatchGetItem
findProspect | GET /prospects?email= | findProspects | 4 | key BatchGetItem GetItem | ${apiKeyAuthorizer}; the lead webhook's matching: the configuration item and the e-mail marker in one strongly consistent BatchGetItem, then the prospect the marker names (GetItem)
notesPage | GET /prospects/{id}/notes (second page) | listNotes | 3 | key Query | ${apiKeyAuthorizer}; one strongly consistent Query of the prospect's partition from NOTE# to PROSPECT reads the page, one item more, and the prospect item (first page) — from the cursor's position on a later page
changesPage | GET /prospects/{id}/changes (first page) | listChanges | 3 | key Query | ${apiKeyAuthorizer}; one strongly consistent Query of the prospect's partition from PROSPECT to the last PROSPECT#LOG# key reads the page, one entry more, and tells a missing prospect from an empty log
removeTag | DELETE /prospects/{id}/tags/{tag} | removeTag | 4 | key BatchGetItem TransactWriteItems | ${apiKeyAuthorizer}; ${prospectChange}
`;

/** Each operation's call; the operations whose call is made once before measuring; what some need made first. */
const callOf: Record<string, Operation['call']> = {
  newLead: ({ seed }) => webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), seed.tags.vip)),
  knownLead: ({ seed, knownLeadEmail }) =>
    webhookCall(seed, 'ingest-lead', { email: knownLeadEmail, first_name: 'Léa' }),
  candidateCreated: ({ seed }) => webhookCall(seed, 'recruitment', applicationBody(fresh())),
  candidateExisting: ({ seed, n }) => webhookCall(seed, 'recruitment', applicationBody(n)),
  listPipelines: ({ key }) => apiCall(key, 'GET', '/pipelines'),
  patchStage: ({ key, prospect }, round) =>
    apiCall(key, 'PATCH', `/prospects/${prospect}`, { stage: round % 2 === 0 ? 'Relance' : 'Nouveau' }),
  // Not a stage: the 30 stage changes a minute of a key are for patchStage's kind.
  patchUnchanged: ({ key, prospect }) =>
    apiCall(key, 'PATCH', `/prospects/${prospect}`, { follow_up_at: '2026-12-01T09:30:00+01:00' }),
  addNote: ({ key, prospect }) => apiCall(key, 'POST', `/prospects/${prospect}/notes`, noteBody),
  addTag: ({ key, nextProspect }) => apiCall(key, 'POST', `/prospects/${nextProspect()}/tags`, { tag: 'VIP' }),
  // Seeded with the tag Chaud.
  tagAlreadyPresent: ({ key, prospect }) => apiCall(key, 'POST', `/prospects/${prospect}/tags`, { tag: 'Chaud' }),
  getProspect: ({ key, prospect }) => apiCall(key, 'GET', `/prospects/${prospect}`),
  findProspect: ({ key, knownLeadEmail }) =>
    apiCall(key, 'GET', `/prospects?email=${encodeURIComponent(knownLeadEmail)}`),
  notesPage: ({ key, prospect, prepared }) =>
    apiCall(key, 'GET', `/prospects/${prospect}/notes?limit=2&cursor=${encodeURIComponent(prepared)}`),
  changesPage: ({ key, prospect }) => apiCall(key, 'GET', `/prospects/${prospect}/changes?limit=2`),
  removeTag: ({ key, nextProspect }) => apiCall(key, 'DELETE', `/prospects/${nextProspect()}/tags/Chaud`),
};
const repeated = new Set(['candidateExisting', 'patchUnchanged']);
const setups: Record<string, Operation['setup']> = {
  notesPage: async (fixture) => {
    await withHistory(fixture);
    const page = await fixture.send(apiCall(fixture.key, 'GET', `/prospects/${fixture.prospect}/notes?limit=2`));
    return (page as { next_cursor: string }).next_cursor;
  },
  changesPage: withHistory,
};

export const operations: readonly Operation[] = described
  .trim()
  .split('\n')
  .map((line) => {
    const [id = '', label = '', routeId = '', target = '', calls = '', reason = ''] = line.split(' | ');
    const [authorizer = '', ...own] = calls.split(' ');
    const [call, expected] = [callOf[id], [...(authorizerCalls[authorizer] ?? []), ...own]];
    if (call === undefined) throw new Error(`${id}: no call described`);
    const how = { call, setup: setups[id], repeated: repeated.has(id) };
    return { id, label, routeId, target: Number(target), calls: expected, reason, ...how };
  });

/** Measured rounds of each operation in each workspace, after `warmUpRounds` unmeasured ones that warm the code up. */
export const [repetitions, warmUpRounds] = [10, 5];

export type CallUnits = { operation: string; units: Units; reported: number };

/** `calls`, `breakdown`: one round's calls in the order they left; `stable`: every round made the same; the rest: medians. */
export type OperationMeasure = { id: string; calls: string[]; stable: boolean; roundTrips: number } & {
  breakdown: CallUnits[];
  billed: Units;
  reported: number;
  latencyMs: number;
};

/** The operations that accept ReturnConsumedCapacity (DynamoDB API reference). */
const reportingOperations = new Set(
  `GetItem BatchGetItem Query Scan PutItem UpdateItem DeleteItem BatchWriteItem TransactGetItems TransactWriteItems
  ExecuteStatement BatchExecuteStatement ExecuteTransaction`.split(/\s+/),
);

/**
 * Sections 2 and 4: every operation once per round in each workspace, interleaved so that neither a slow moment nor
 * warming code falls on one only. The local API's one DynamoDB client is metered by an SDK middleware that asks for
 * ReturnConsumedCapacity and records each call as it leaves (one per round trip) with its input and output (a refused
 * write keeps none: DynamoDB bills it still); items an update wrote are read back by a client of their own, to size them.
 */
export async function measureOperations(
  workspaces: Record<Phase, Workspace>,
  endpoint: string,
): Promise<Record<Phase, OperationMeasure[]>> {
  const deps = productionDeps();
  const calls: MeteredCall[] = [];
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName).replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      if (reportingOperations.has(operation)) input.ReturnConsumedCapacity = 'TOTAL';
      const call: MeteredCall = { operation, input, output: undefined };
      calls.push(call);
      const result = await next(args);
      call.output = result.output as Record<string, unknown>;
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  const inspector = createDocumentClient({ endpoint });
  const server = await startLocalServer({ deps, port: 0 });
  const send = sender(server.url);
  try {
    const prepared: { id: string; phase: Phase; runs: Run[]; callOf: (round: number) => Call }[] = [];
    for (const operation of operations) {
      for (const phase of phases) {
        const callOf = await prepare(operation, workspaces[phase], send);
        prepared.push({ id: operation.id, phase, runs: [], callOf });
      }
    }
    for (let round = 0; round < warmUpRounds + repetitions; round += 1) {
      for (const { callOf, runs } of prepared) {
        calls.splice(0);
        const started = performance.now();
        await send(callOf(round));
        const ms = performance.now() - started;
        // The items updated without their new value in the answer, as they are now.
        const updated = calls.flatMap(({ operation, input }): Item[] => {
          if (operation === 'UpdateItem') return [input.Key as Item];
          const entries = operation === 'TransactWriteItems' ? (input.TransactItems as { Update?: Item }[]) : [];
          return entries.flatMap((entry) => (entry.Update ? [entry.Update.Key as Item] : []));
        });
        const stored = new Map<string, Item>();
        for (const Key of updated) {
          const read = await inspector.send(new GetCommand({ TableName: deps.tableName, Key, ConsistentRead: true }));
          if (read.Item) stored.set(keyOf(Key), read.Item);
        }
        const breakdown = calls.map((call) => ({
          operation: call.operation,
          units: billedUnits(call, (key) => stored.get(keyOf(key))),
          reported: reportedUnits(call.output),
        }));
        if (round >= warmUpRounds) runs.push({ breakdown, ms });
      }
    }
    const measuresOf = (phase: Phase) =>
      prepared.filter((entry) => entry.phase === phase).map((entry) => summarize(entry.id, entry.runs));
    return { empty: measuresOf('empty'), bulk: measuresOf('bulk') };
  } finally {
    await server.close();
    deps.db.destroy();
    inspector.destroy();
  }
}

type Run = { breakdown: CallUnits[]; ms: number };

const keyOf = (key: Item) => `${String(key.pk)}\n${String(key.sk)}`;

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/** The same DynamoDB calls, in any order: calls made in parallel leave in no fixed order. */
export const sameCalls = (calls: readonly string[], others: readonly string[]) =>
  [...calls].sort().join() === [...others].sort().join();

function summarize(id: string, runs: readonly Run[]): OperationMeasure {
  const first = runs[0];
  if (first === undefined) throw new Error(`${id}: no measured round`);
  const callsOf = (run: Run) => run.breakdown.map((call) => call.operation);
  const total = (of: (call: CallUnits) => number) =>
    median(runs.map((run) => run.breakdown.reduce((sum, call) => sum + of(call), 0)));
  return {
    id,
    calls: callsOf(first),
    stable: runs.every((run) => sameCalls(callsOf(run), callsOf(first))),
    roundTrips: median(runs.map((run) => run.breakdown.length)),
    breakdown: first.breakdown,
    billed: { read: total((call) => call.units.read), write: total((call) => call.units.write) },
    reported: total((call) => call.reported),
    latencyMs: median(runs.map((run) => run.ms)),
  };
}
