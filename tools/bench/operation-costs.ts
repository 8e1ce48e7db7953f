import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/deps';
import { createDocumentClient } from '../../lib/storage/client';
import { startLocalServer } from '../local/server';
import { sameCalls } from './budgets';
import { billedUnits, type Item, type Units } from './capacity';
import { meterCapacity, type MeteredRecord } from './meter';
import { operations, type OperationContext, type OperationId } from './operations';
import { median } from './stats';
import { phases, type Phase } from './workspace';

export type CallUnits = { operation: string; units: Units; reported: number };

export type OperationMeasure = {
  id: OperationId;
  /** DynamoDB calls of one repetition, in the order sent (parallel ones in the order they left). */
  calls: string[];
  /** Every repetition made the same calls. */
  stable: boolean;
  /** Median over the repetitions of the calls' count: what the round-trip budget judges. */
  roundTrips: number;
  /** One repetition, call by call. */
  breakdown: CallUnits[];
  billed: Units;
  reported: number;
  /** Median over the repetitions, through the local API, one request at a time. */
  latencyMs: number;
};

/** Unmeasured first rounds: they load and warm up the code, as a warm Lambda instance has run it. */
export const warmUpRounds = 5;

type Run = { breakdown: CallUnits[]; ms: number };

/**
 * Sections 2 and 4: every operation once per round in each workspace, `repetitions` measured
 * rounds after the warm-up ones. Interleaved (operation after operation, workspace after
 * workspace) so that neither a slow moment of the machine nor the code warming up falls on one
 * of them only. Through the local API, whose one DynamoDB client (authorizer and handlers
 * alike) is metered, its calls being the round trips counted; items an update wrote are read
 * back between requests, with a client of their own, to size them.
 */
export async function measureOperations(
  contexts: Record<Phase, Omit<OperationContext, 'send'>>,
  repetitions: number,
  endpoint: string,
): Promise<Record<Phase, OperationMeasure[]>> {
  const deps = productionDeps();
  const meter = meterCapacity(deps.db);
  const inspector = createDocumentClient({ endpoint });
  const server = await startLocalServer({ deps, port: 0 });
  // A refused call measures nothing: the answer's exact status is the end-to-end tests' business.
  const send: OperationContext['send'] = async ({ method, path, options }) => {
    const url = new URL(path, server.url);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.append(name, value);
    const headers = new Headers(options.headers);
    const json = options.body !== undefined && typeof options.body !== 'string';
    if (json && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const body = json ? JSON.stringify(options.body) : (options.body as string | undefined);
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return { body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const rounds = warmUpRounds + repetitions;
  try {
    const prepared = [];
    for (const operation of operations) {
      for (const phase of phases) {
        prepared.push({ operation, phase, callOf: await operation.prepare({ ...contexts[phase], send }, rounds) });
      }
    }
    const runs = new Map(prepared.map(({ operation, phase }) => [`${phase} ${operation.id}`, [] as Run[]]));
    for (let round = 0; round < rounds; round += 1) {
      for (const { operation, phase, callOf } of prepared) {
        const call = callOf(round);
        meter.reset();
        const started = performance.now();
        await send(call);
        const ms = performance.now() - started;
        const sizes = await storedItems(inspector, deps.tableName, meter.calls);
        const breakdown = meter.calls.map((record) => ({
          operation: record.operation,
          units: billedUnits(record, (key) => sizes.get(keyOf(key))),
          reported: record.reported,
        }));
        if (round >= warmUpRounds) runs.get(`${phase} ${operation.id}`)?.push({ breakdown, ms });
      }
    }
    const measuresOf = (phase: Phase) =>
      operations.map((operation) => summarize(operation.id, runs.get(`${phase} ${operation.id}`) ?? []));
    return { empty: measuresOf('empty'), bulk: measuresOf('bulk') };
  } finally {
    await server.close();
    deps.db.destroy();
    inspector.destroy();
  }
}

function summarize(id: OperationId, runs: readonly Run[]): OperationMeasure {
  const first = runs[0];
  if (first === undefined) throw new Error(`${id}: no measured repetition`);
  const callsOf = (run: Run) => run.breakdown.map((call) => call.operation);
  return {
    id,
    calls: callsOf(first),
    stable: runs.every((run) => sameCalls(callsOf(run), callsOf(first))),
    roundTrips: median(runs.map((run) => run.breakdown.length)),
    breakdown: first.breakdown,
    billed: {
      read: median(runs.map((run) => total(run.breakdown, 'read'))),
      write: median(runs.map((run) => total(run.breakdown, 'write'))),
    },
    reported: median(runs.map((run) => run.breakdown.reduce((units, call) => units + call.reported, 0))),
    latencyMs: median(runs.map((run) => run.ms)),
  };
}

const total = (breakdown: readonly CallUnits[], kind: keyof Units) =>
  breakdown.reduce((units, call) => units + call.units[kind], 0);

const keyOf = (key: Item) => `${String(key.pk)}\n${String(key.sk)}`;

/** The items updated without their new value in the answer, as they are now. */
async function storedItems(
  inspector: ReturnType<typeof createDocumentClient>,
  tableName: string,
  calls: readonly MeteredRecord[],
): Promise<Map<string, Item>> {
  const keys: Item[] = [];
  for (const call of calls) {
    if (call.operation === 'UpdateItem') keys.push(call.input.Key as Item);
    if (call.operation === 'TransactWriteItems') {
      for (const entry of call.input.TransactItems as { Update?: { Key: Item } }[]) {
        if (entry.Update) keys.push(entry.Update.Key);
      }
    }
  }
  const items = new Map<string, Item>();
  for (const key of keys) {
    const { Item: item } = await inspector.send(
      new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    if (item) items.set(keyOf(key), item);
  }
  return items;
}
