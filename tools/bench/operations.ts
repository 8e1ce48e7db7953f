import { readFile } from 'node:fs/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/storage/client';
import { startLocalServer } from '../local/server';
import {
  billedUnits,
  reportedUnits,
  writeDestinations,
  type BilledUnits,
  type Item,
  type MeteredCall,
  type WritesByDestination,
} from './capacity';
import {
  apiCall,
  applicationBody,
  fresh,
  newLeadBody,
  newLeadWithFieldsBody,
  noteBody,
  phases,
  sender,
  webhookCall,
  type Call,
  type Phase,
  type Send,
  type Workspace,
  type Workspaces,
} from './workspace';

/** What an operation's calls use: a key and a seeded prospect of its own, a fresh contact number, more prospects on demand, and what `setup` returned. */
export type Fixture = Workspace & { key: string; prospect: string; n: number; nextProspect: () => string } & {
  send: Send;
  prepared: string;
};

/**
 * An operation of `operations.json` (report.md, section 2); `setup` makes what it needs, `repeated`: made once first;
 * `fullPage`: a list's page whose read units must not grow with the workspace (docs/adr/0017-lists-of-prospects.md,
 * point 5); `writes`: its own calls (not its authorizer's) write, so section 2 shows where its write units land.
 */
export type Operation = { id: string; label: string; routeId: string; target: number; calls: readonly string[] } & {
  reason: string;
  setup?: (fixture: Fixture) => Promise<string | undefined>;
  repeated?: boolean;
  fullPage?: boolean;
  writes: boolean;
  call: (fixture: Fixture, round: number) => Call;
};

/** Gives the fixture's prospect three notes and three change-log entries: pages of two have a next page. */
async function withHistory({ send, key, prospect }: Fixture): Promise<undefined> {
  for (const month of ['01', '02', '03']) {
    await send(apiCall(key, 'POST', `/prospects/${prospect}/notes`, noteBody));
    await send(apiCall(key, 'PATCH', `/prospects/${prospect}`, { follow_up_at: `2027-${month}-01T09:30:00+01:00` }));
  }
}

/** The calls of an operation in a workspace, round after round, once what they need exists. */
export async function prepare(operation: Operation, workspace: Workspace, send: Send) {
  const nextProspect = () => workspace.prospects(1)[0] ?? '';
  const [key = '', prospect, n] = [workspace.apiKeys(1)[0], nextProspect(), fresh()];
  const fixture: Fixture = { ...workspace, key, prospect, n, nextProspect, send, prepared: '' };
  fixture.prepared = (await operation.setup?.(fixture)) ?? '';
  if (operation.repeated) await send(operation.call(fixture, 0));
  return (round: number) => operation.call(fixture, round);
}

/** Each operation's call; what some need made first. */
const callOf: Record<string, Operation['call']> = {
  newLead: ({ seed }) => webhookCall(seed, 'ingest-lead', newLeadBody(fresh(), seed.tags.vip)),
  newLeadWithFields: ({ seed }) => webhookCall(seed, 'ingest-lead', newLeadWithFieldsBody(fresh(), seed.tags.vip)),
  knownLead: ({ seed, knownLeadEmail }) =>
    webhookCall(seed, 'ingest-lead', { email: knownLeadEmail, first_name: 'Léa' }),
  candidateCreated: ({ seed }) => webhookCall(seed, 'recruitment', applicationBody(fresh())),
  candidateExisting: ({ seed, n }) => webhookCall(seed, 'recruitment', applicationBody(n)),
  listPipelines: ({ key }) => apiCall(key, 'GET', '/pipelines'),
  listAssignableMembers: ({ key }) => apiCall(key, 'GET', '/members'),
  listCustomFields: ({ key }) => apiCall(key, 'GET', '/fields'),
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
  prospectsPage: ({ key }) => listCall(key, {}),
  prospectsCreatedRange: ({ key, prepared }) => listCall(key, prepared),
  prospectsOfStage: ({ key }) => listCall(key, { stage: 'Nouveau', sort: '-updated_at' }),
  prospectsOfPipeline: ({ key }) => listCall(key, { pipeline: 'Ventes', sort: '-updated_at' }),
  prospectsUpdatedFrom: ({ key, prepared }) => listCall(key, prepared),
  prospectsFollowUpDue: ({ key }) => listCall(key, { follow_up: 'due', sort: 'next_follow_up_at' }),
  prospectsByIds: ({ key, prepared }) => listCall(key, prepared),
};

/** A page of 50 of `GET /prospects` (docs/api.md#lists-of-prospects); `query`: its other parameters. */
function listCall(key: string, query: string | Record<string, string>): Call {
  const parameters = new URLSearchParams(query);
  parameters.set('limit', '50');
  return apiCall(key, 'GET', `/prospects?${parameters.toString()}`);
}

/** The last week: every prospect of the workspaces, seeded minutes before the measures or written by them. */
const weekAgo = () => new Date(Date.now() - 7 * 24 * 3_600_000).toISOString();

const setups: Record<string, Operation['setup']> = {
  notesPage: async (fixture) => {
    await withHistory(fixture);
    const page = await fixture.send(apiCall(fixture.key, 'GET', `/prospects/${fixture.prospect}/notes?limit=2`));
    return (page as { next_cursor: string }).next_cursor;
  },
  changesPage: withHistory,
  // Created from a week ago to a day ahead: every prospect, within a range that bounds the index read on both sides.
  prospectsCreatedRange: async () => {
    const created_to = new Date(Date.now() + 24 * 3_600_000).toISOString();
    return new URLSearchParams({ created_from: weekAgo(), created_to }).toString();
  },
  prospectsUpdatedFrom: async () => new URLSearchParams({ updated_from: weekAgo(), sort: '-updated_at' }).toString(),
  prospectsByIds: async ({ nextProspect }) =>
    new URLSearchParams(Array.from({ length: 5 }, (): [string, string] => ['id', nextProspect()])).toString(),
};

/** The DynamoDB operations that write. */
const writing = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

type Described = Omit<Operation, 'call' | 'setup' | 'writes'> & { authorizer: 'key' | 'hook' };
const described = JSON.parse(await readFile(new URL('./operations.json', import.meta.url), 'utf8')) as {
  authorizers: Record<Described['authorizer'], { calls: string[]; reason: string }>;
  operations: Described[];
  returnConsumedCapacity: string[];
};

export const operations: readonly Operation[] = described.operations.map(({ authorizer, ...operation }) => {
  const [call, { calls, reason }] = [callOf[operation.id], described.authorizers[authorizer]];
  if (call === undefined) throw new Error(`${operation.id}: no call described`);
  const expected = { calls: [...calls, ...operation.calls], reason: `${reason}; ${operation.reason}` };
  const writes = operation.calls.some((name) => writing.has(name));
  return { ...operation, ...expected, writes, call, setup: setups[operation.id] };
});

/** Measured rounds of each operation in each workspace, after `warmUpRounds` unmeasured ones that warm the code up. */
export const [repetitions, warmUpRounds] = [10, 5];

export type CallUnits = { operation: string; units: BilledUnits; reported: number };

export type OperationMeasure = ReturnType<typeof summarize>;

/** The DynamoDB operations that accept ReturnConsumedCapacity (DynamoDB API reference). */
const reportingOperations = new Set(described.returnConsumedCapacity);

/**
 * Sections 2 and 4 (report.md says how): rounds interleaved so that neither a slow moment nor warming code falls on
 * one operation only; a refused write keeps no output, DynamoDB bills it still.
 */
export async function measureOperations(workspaces: Workspaces): Promise<Record<Phase, OperationMeasure[]>> {
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
        const [ms, made] = [performance.now() - started, calls.splice(0)];
        // The items updated or checked without their value in the answer, as they are now (read back, metered, not counted).
        const updates = made.flatMap(({ operation, input }) => {
          const entries = (input.TransactItems ?? []) as { Update?: Item; ConditionCheck?: Item }[];
          return operation === 'UpdateItem'
            ? [input]
            : entries.flatMap((entry) => entry.Update ?? entry.ConditionCheck ?? []);
        });
        const stored: Item[] = [];
        for (const { Key } of updates as { Key: Item }[]) {
          const read = await deps.db.send(new GetCommand({ TableName: deps.tableName, Key, ConsistentRead: true }));
          if (read.Item) stored.push(read.Item);
        }
        const lookup = (key: Item) => stored.find((item) => item.pk === key.pk && item.sk === key.sk);
        const breakdown = made.map((call) => ({
          operation: call.operation,
          units: billedUnits(call, lookup),
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
  }
}

type Run = { breakdown: CallUnits[]; ms: number };

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return ((sorted[Math.floor(middle)] as number) + (sorted[Math.ceil(middle)] as number)) / 2;
}

/** The same DynamoDB calls, in any order: calls made in parallel leave in no fixed order. */
export const sameCalls = (calls: readonly string[], others: readonly string[]) =>
  [...calls].sort().join() === [...others].sort().join();

/**
 * `calls`, `breakdown`: one round's calls in the order they left; `stable`: every round made the same; the rest:
 * medians, `writes` destination by destination.
 */
function summarize(id: string, runs: readonly Run[]) {
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
    writes: Object.fromEntries(
      writeDestinations.map((destination) => [destination, total((call) => call.units.writes[destination])]),
    ) as WritesByDestination,
    reported: total((call) => call.reported),
    latencyMs: median(runs.map((run) => run.ms)),
  };
}
