import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { checkBudgets, type BenchResults } from '../../tools/bench/figures';
import {
  benchDeliveryQueueUrl,
  benchFollowUpQueueUrl,
  coldStartEvents,
  prospectCreatedBatch,
  skippedWork,
  succeeded,
  unknownDeliveryBatch,
  unknownFollowUpBatch,
} from '../../tools/bench/functions';
import { parseFollowUpDueMessage } from '../../lib/domain/follow-ups/send-follow-up-due';
import { functionsSection } from '../../tools/bench/report';
import { handOut, type Send } from '../../tools/bench/workspace';
import type { SeedOutput } from '../../tools/seed/seed';
import { parseDeliveryMessage } from '../../lib/domain/events/deliver';
import { subjectOfChange } from '../../lib/domain/events/events-of-change';
import { routes } from '../../lib/routes';
import { eventFunctions } from '../../infra/cdk/route-grants';
import { storedChangeOf } from '../../lib/storage/stream-records';

const seed: SeedOutput = {
  workspace_id: randomUUID(),
  members: {},
  tags: { vip: randomUUID() },
  pipelines: { sales: { id: randomUUID(), stages: { Nouveau: randomUUID() } } },
  recruitment_pipelines: {},
  api_keys: {},
  webhook: { endpoint_id: randomUUID(), token: 'jeton' },
  prospects: {},
};

describe('first events of the outbound-event functions', () => {
  it('gives the stream handler a new prospect of the workspace each run, marshalled as the stream does', () => {
    const [first, second] = [0, 1].map((run) => prospectCreatedBatch(seed, run));
    const change = storedChangeOf(first?.Records[0] ?? {});
    expect(first?.Records).toHaveLength(1);
    expect(first?.Records[0]).toMatchObject({ eventName: 'INSERT', eventSource: 'aws:dynamodb' });
    expect(first?.Records[0]?.dynamodb?.OldImage).toBeUndefined();
    expect(first?.Records[0]?.dynamodb?.NewImage?.tag_ids).toEqual({ SS: [seed.tags.vip] });
    expect(change).toMatchObject({ eventName: 'INSERT', sk: 'PROSPECT', after: { workspace_id: seed.workspace_id } });
    expect(change.after?.tag_ids).toEqual(new Set([seed.tags.vip]));
    // The handler reads it as a new prospect of the workspace: a record it would not would time nothing.
    expect(subjectOfChange(change)).toMatchObject({ workspaceId: seed.workspace_id, types: ['prospect.created'] });
    const other = storedChangeOf(second?.Records[0] ?? {});
    expect(other.pk).not.toBe(change.pk);
    expect(other.sequenceNumber).not.toBe(change.sequenceNumber);
  });

  it('gives the delivery function one readable message per run, each for a different delivery, due now', () => {
    const before = Date.now();
    const messages = [0, 1].map((run) => {
      const event = unknownDeliveryBatch(seed, run);
      expect(event.Records).toHaveLength(1);
      expect(event.Records[0]).toMatchObject({ eventSource: 'aws:sqs', attributes: { ApproximateReceiveCount: '1' } });
      return parseDeliveryMessage(event.Records[0]?.body ?? '');
    });
    expect(messages[0]).toMatchObject({ workspace_id: seed.workspace_id, step: 0 });
    expect(messages[0]?.delivery_id).not.toBe(messages[1]?.delivery_id);
    expect(Date.parse(messages[0]?.not_before ?? '')).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(messages[0]?.not_before ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(benchDeliveryQueueUrl).toMatch(/^https:\/\/sqs\./);
  });

  it('gives the send of follow-ups one readable message per run, each for a different prospect, its time past', () => {
    const messages = [0, 1].map((run) =>
      parseFollowUpDueMessage(unknownFollowUpBatch(seed, run).Records[0]?.body ?? ''),
    );
    expect(messages[0]).toMatchObject({ workspace_id: seed.workspace_id });
    expect(messages[0]?.prospect_id).not.toBe(messages[1]?.prospect_id);
    expect(Date.parse(messages[0]?.follow_up_at ?? '')).toBeLessThan(Date.now());
    expect(benchFollowUpQueueUrl).toMatch(/^https:\/\/sqs\./);
  });

  it('has a first event for every function of the stack, each route from its first operation', async () => {
    const ids = () => Array.from({ length: 400 }, () => randomUUID());
    const workspace = {
      phase: 'empty' as const,
      seed: { ...seed, api_keys: { k: { id: 'key-id', secret: 'key-secret' } } },
      prospects: handOut(ids(), 'prospects'),
      apiKeys: handOut(
        Array.from({ length: 40 }, () => 'key-secret'),
        'API keys',
      ),
      knownLeadEmail: 'lea.connue@banc.test',
    };
    // Every answer at once: a page's cursor, a session, a change-log page, a webhook journal page, a reset code, a
    // member or subscription added, a custom field defined, a lead and an application (a record to erase). The settings
    // routes' workspace is seeded in DynamoDB Local.
    const send = jest.fn<Send>(async () => ({
      prospect_id: 'prospect-id',
      talent_id: 'talent-id',
      next_cursor: 'suite',
      access_token: 'jeton',
      changes: [{ id: 'entry-id' }],
      calls: [{ id: 'call-id' }],
      code: '123456',
      id: 'added-id',
      key: 'champ',
    }));
    const events = await coldStartEvents(workspace, send);
    const functions = [...routes, ...eventFunctions].map((fn) => fn.id);
    for (const name of [...functions, 'authorizer', 'reference']) expect(events.has(name)).toBe(true);
    // A route's event is what its handler receives once the authorizer allowed the key the call carries.
    const event = events.get('getProspect')?.(0) as {
      httpMethod: string;
      requestContext: { authorizer: Record<string, string> };
    };
    expect(event.httpMethod).toBe('GET');
    expect(JSON.stringify(event.requestContext.authorizer)).toContain('key-id');
    expect(events.get('listNotes')?.(0)).toMatchObject({ queryStringParameters: { limit: '2', cursor: 'suite' } });
  });
});

describe('cold-start answers of batch functions', () => {
  it('counts a batch answered without failure as done, one with a failed record as not', () => {
    expect(succeeded({ batchItemFailures: 0 })).toBe(true);
    expect(succeeded({ batchItemFailures: 1 })).toBe(false);
    expect(succeeded({ statusCode: 201 })).toBe(true);
    expect(succeeded({ statusCode: 429 })).toBe(false);
    expect(succeeded({ swept: 0 })).toBe(true);
    expect(succeeded({ walked: 0 })).toBe(true);
    expect(succeeded({ queued: 0 })).toBe(true);
    expect(succeeded({ jobs: 0 })).toBe(true);
  });

  it('takes a batch function that logged an error for one that skipped its work; a route is judged on its answer', () => {
    const line = JSON.stringify({ level: 'ERROR', message: 'Message de livraison illisible : ignoré' });
    expect(skippedWork({ batchItemFailures: 0 }, `${line}\n`)).toBe(true);
    expect(skippedWork({ batchItemFailures: 0 }, '')).toBe(false);
    expect(skippedWork({ batchItemFailures: 0 }, '(node:42) Warning: something about Node itself\n')).toBe(false);
    expect(skippedWork({ statusCode: 200 }, `${line}\n`)).toBe(false);
  });
});

describe('budgets and report with the event functions', () => {
  const fn = (name: string, bytes: number, totalMs: number) =>
    ({ name, bytes, coldStart: { totalMs } }) as unknown as BenchResults['functions'][number];
  const inputs = {
    functions: [fn('ingestLead', 571_900, 140), fn('deliverEvent', 1_200_000, 160)],
    reference: fn('reference', 0, 100),
    operations: { empty: [], bulk: [] },
    load: { empty: [], bulk: [] },
    baseline: { operations: {} } as unknown as BenchResults['baseline'],
  };

  it('holds an event function to the bundle and cold-start budgets when it is the heaviest', () => {
    const [coldStart, bundle] = checkBudgets(inputs);
    expect(coldStart).toMatchObject({ ok: false, measured: 'deliverEvent: 1.60 × (160 ms against 100 ms)' });
    expect(bundle).toMatchObject({ ok: false });
    expect(bundle?.measured).toContain('deliverEvent: 1.20 MB');
  });

  it('shows a dash before for a function the baseline did not bundle', () => {
    const coldStart = (totalMs: number) => ({
      totalMs,
      nodeStartMs: 25,
      loadMs: 80,
      firstAnswerMs: 40,
      cpuMs: 150,
    });
    const fn = (name: string, bytes: number, totalMs: number) => ({
      name,
      file: '',
      bytes,
      parts: { zod: 20_000, sdk: 380_000, app: 30_000, other: 12_600 },
      coldStart: coldStart(totalMs),
    });
    const reference = fn('reference', 366_300, 126);
    const section = functionsSection({
      functions: [fn('streamHandler', 450_478, 150), fn('listPipelines', 423_600, 161)],
      reference,
      environment: { cores: 2, node: 'v20' },
      coldStartLoadAverage: 1.9,
      baseline: {
        commit: 'abcdef0',
        functions: { reference: { coldStartMs: 94.9 }, listPipelines: { coldStartMs: 134.14, bytes: 417_746 } },
      },
    } as unknown as BenchResults);
    expect(section).toMatch(/\| `streamHandler` +\| +— → 450\.5 KB \| .* \| +12\.6 KB \| +30\.0 KB \|/);
    expect(section).toMatch(/\| `listPipelines` +\| +417\.7 KB → 423\.6 KB \|/);
    expect(section).toMatch(/\| `streamHandler` +\| +— → 150 ms \| .* \| +1\.19 × \|/);
    expect(section).toMatch(/\| `listPipelines` +\| +134 ms → 161 ms \|/);
    expect(section).toMatch(/\| _reference_ +\| +— → 366\.3 KB \|/);
    expect(section).toMatch(/\| _reference_ +\| +95 ms → 126 ms \|/);
  });
});
