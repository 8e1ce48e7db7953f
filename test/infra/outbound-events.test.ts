import { Template } from 'aws-cdk-lib/assertions';
import { deliveriesFailedMetricName, iteratorAgeThreshold } from '../../infra/cdk/constructs/alarms';
import { keptBatchNoncurrentRetention, keptBatchRetention } from '../../infra/cdk/constructs/outbound-events';
import { concurrencyBudget } from '../../infra/cdk/concurrency';
import { metricNamespace, metricsService } from '../../infra/cdk/observability';
import { CrmStack } from '../../infra/cdk/stack';
import { leadingKeyPatterns } from '../../infra/cdk/table-access';
import { deliveryQueueSettings, sweepSettings } from '../../lib/domain/events/queue-settings';
import { fieldPurgeSettings } from '../../lib/domain/fields/field-purge';
import { followUpDueSettings } from '../../lib/domain/follow-ups/follow-up-settings';
import { eventFunctions, type EventFunction, type ItemAction } from '../../infra/cdk/route-grants';
import { tableDefinition } from '../../infra/cdk/table-definition';
import { testApp } from '../support/cdk-app';
import { tablesOf } from '../support/iam-policies';
import { pageBucketIds } from '../support/settings-page-resources';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stack = new CrmStack(testApp(), 'Crm-events', { stage: 'events' });
const template = Template.fromStack(stack).toJSON();
const resources = template.Resources as Record<string, Json>;
const outputs = template.Outputs as Record<string, Json>;

const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const { tableId, secretsTableId } = tablesOf(resources);
const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });

const eventFunction = (id: EventFunction['id']): EventFunction => eventFunctions.find((f) => f.id === id)!;
const streamSpec = eventFunction('streamHandler');
const deliverySpec = eventFunction('deliverEvent');
const sweepSpec = eventFunction('sweepDeliveries');
const purgeSpec = eventFunction('purgeDeletedFields');
const followUpSweepSpec = eventFunction('sweepFollowUps');
const sendFollowUpSpec = eventFunction('sendFollowUpDue');

function functionByDescription(description: string): [string, Json] {
  const found = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Description === description);
  expect(found).toHaveLength(1);
  return found[0]!;
}
const [streamHandlerId, streamHandler] = functionByDescription(streamSpec.description);
const [deliverEventId, deliverEvent] = functionByDescription(deliverySpec.description);
const [sweepId, sweep] = functionByDescription(sweepSpec.description);
const [purgeId, purge] = functionByDescription(purgeSpec.description);
const [followUpSweepId, followUpSweep] = functionByDescription(followUpSweepSpec.description);
const [sendFollowUpId, sendFollowUp] = functionByDescription(sendFollowUpSpec.description);

/** The queues, told apart by the outputs that name them (DELIVERY_QUEUE_URL, FOLLOW_UP_QUEUE_URL) and their wiring. */
const queues = ofType('AWS::SQS::Queue');
const queueOfOutput = (name: string): [string, Json] => {
  const id = outputs[name]!.Value.Ref as string;
  return [id, resources[id]!];
};
const deadLetterOf = (queue: Json): string =>
  queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
const [deliveryQueueId, deliveryQueue] = queueOfOutput('DeliveryQueueUrl');
const deadLetterQueueId = deadLetterOf(deliveryQueue);
const [followUpQueueId, followUpQueue] = queueOfOutput('FollowUpQueueUrl');
const followUpDeadLetterQueueId = deadLetterOf(followUpQueue);
const deadLetterQueueIds = [deadLetterQueueId, followUpDeadLetterQueueId];
const mappings = ofType('AWS::Lambda::EventSourceMapping');
const mappingOf = (functionId: string): Json => {
  const found = mappings.filter(([, m]) => m.Properties.FunctionName.Ref === functionId);
  expect(found).toHaveLength(1);
  return found[0]![1].Properties as Json;
};
const streamMapping = mappingOf(streamHandlerId);
const deliveryMapping = mappingOf(deliverEventId);
const followUpMapping = mappingOf(sendFollowUpId);
/** Not the settings page's bucket (test/infra/settings-page.test.ts). */
const buckets = ofType('AWS::S3::Bucket').filter(([id]) => !pageBucketIds(resources).has(id));
const [bucketId, bucket] = buckets[0]!;
const keyId = bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
  .KMSMasterKeyID['Fn::GetAtt'][0] as string;

function statementsOf(fn: Json): Json[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as Json[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[]);
}

/** Each (action, resource) a role is granted, with the statement's leading-key patterns if any. */
function grantsOf(fn: Json, prefix: string): { action: string; resource: unknown; leadingKeys?: string[] }[] {
  return statementsOf(fn).flatMap((statement) =>
    list<string>(statement.Action)
      .filter((action) => action.startsWith(prefix))
      .flatMap((action) =>
        list<unknown>(statement.Resource).map((resource) => ({
          action,
          resource,
          ...(statement.Condition
            ? { leadingKeys: statement.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'] as string[] }
            : {}),
        })),
      ),
  );
}

const streamReadActions = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];

describe('the table’s change stream', () => {
  test('both images, as the table definition says (a change is the difference between them)', () => {
    expect(tableDefinition.streamViewType).toBe('NEW_AND_OLD_IMAGES');
    expect(resources[tableId]!.Properties.StreamSpecification).toEqual({
      StreamViewType: tableDefinition.streamViewType,
    });
  });

  test('read by the stream handler only, through one mapping with partial batch responses and bisection', () => {
    /** The stream's, the delivery queue's and the follow-up queue's. */
    expect(mappings).toHaveLength(3);
    expect(streamMapping.MetricsConfig).toEqual({ Metrics: ['EventCount'] });
    expect(streamMapping).toMatchObject({
      EventSourceArn: getAtt(tableId, 'StreamArn'),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
    });
  });

  test('a batch given up goes whole to the S3 bucket, while still in the stream (24 h)', () => {
    expect(streamMapping.DestinationConfig).toEqual({ OnFailure: { Destination: getAtt(bucketId) } });
    const maxAge = streamMapping.MaximumRecordAgeInSeconds as number;
    expect(maxAge).toBeGreaterThanOrEqual(3600);
    expect(maxAge).toBeLessThan(24 * 3600);
  });

  test('the filters are the route list’s streamFilters, one pattern each, as Lambda reads them', () => {
    const filters = streamMapping.FilterCriteria.Filters as { Pattern: string }[];
    expect(filters.map((filter) => JSON.parse(filter.Pattern) as unknown)).toEqual(streamSpec.streamFilters);
    expect(filters.length).toBeGreaterThan(0);
    /** Deliveries (DELIVERY#) are written by the stream handler itself: never read back, or it would loop. */
    expect(JSON.stringify(filters)).not.toContain('DELIVERY#');
  });
});

describe('the delivery queue', () => {
  test('feeds the delivery function in batches, reporting failed messages one by one', () => {
    expect(deliveryMapping).toMatchObject({
      EventSourceArn: getAtt(deliveryQueueId),
      BatchSize: deliveryQueueSettings.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(deliveryMapping).not.toHaveProperty('DestinationConfig');
  });

  test('a message received 5 times goes to the dead-letter queue, kept 14 days', () => {
    expect(deliveryQueue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(deadLetterQueueId),
      maxReceiveCount: deliveryQueueSettings.maxReceiveCount,
    });
    expect(deliveryQueueSettings.maxReceiveCount).toBe(5);
    expect(resources[deadLetterQueueId]!.Properties).toMatchObject({
      MessageRetentionPeriod: 14 * 24 * 3600,
      RedriveAllowPolicy: { redrivePermission: 'allowAll' },
    });
    expect(resources[deadLetterQueueId]!.Properties).not.toHaveProperty('RedrivePolicy');
  });

  test('visibility timeout at least 6 × the delivery function’s timeout (AWS’s advice), which is 30 s', () => {
    expect(deliverEvent.Properties.Timeout).toBe(30);
    expect(deliveryQueue.Properties.VisibilityTimeout).toBe(deliveryQueueSettings.visibilityTimeoutSeconds);
    expect(deliveryQueue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * deliverEvent.Properties.Timeout);
  });

  test('no delay on the queue itself: each message carries its own (the retry schedule)', () => {
    expect(deliveryQueue.Properties).not.toHaveProperty('DelaySeconds');
  });
});

describe('the follow-up queue (prospect.follow_up_due)', () => {
  test('feeds the send function in batches of 10, reporting failed messages one by one, at most 2 invocations', () => {
    expect(followUpDueSettings.queue.batchSize).toBe(10);
    expect(followUpMapping).toMatchObject({
      EventSourceArn: getAtt(followUpQueueId),
      BatchSize: followUpDueSettings.queue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: concurrencyBudget.sendFollowUpDue.sqsMaximumConcurrency },
    });
    expect(concurrencyBudget.sendFollowUpDue.sqsMaximumConcurrency).toBe(2);
    expect(sendFollowUp.Properties.ReservedConcurrentExecutions).toBe(2);
    expect(followUpMapping).not.toHaveProperty('DestinationConfig');
  });

  test('has its own dead-letter queue: a message received 5 times goes there, kept 14 days', () => {
    expect(followUpDueSettings.queue.maxReceiveCount).toBe(5);
    expect(followUpQueue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(followUpDeadLetterQueueId),
      maxReceiveCount: 5,
    });
    expect(followUpDeadLetterQueueId).not.toBe(deadLetterQueueId);
    expect(resources[followUpDeadLetterQueueId]!.Properties).toEqual(resources[deadLetterQueueId]!.Properties);
    expect(resources[followUpDeadLetterQueueId]!.Properties).not.toHaveProperty('RedrivePolicy');
  });

  test('visibility timeout 60 s, 6 × the send function’s 10 s timeout (AWS’s advice)', () => {
    expect(sendFollowUp.Properties.Timeout).toBe(10);
    expect(followUpQueue.Properties.VisibilityTimeout).toBe(60);
    expect(followUpQueue.Properties.VisibilityTimeout).toBe(followUpDueSettings.queue.visibilityTimeoutSeconds);
    expect(followUpQueue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * sendFollowUp.Properties.Timeout);
  });

  test('no delay on the queue itself: each message carries its own (to its second)', () => {
    expect(followUpQueue.Properties).not.toHaveProperty('DelaySeconds');
  });

  test('its URL and its dead-letter queue’s name are outputs', () => {
    expect(outputs.FollowUpQueueUrl!.Description).toContain('FOLLOW_UP_QUEUE_URL');
    expect(outputs.FollowUpDeadLetterQueueName!.Value).toEqual(getAtt(followUpDeadLetterQueueId, 'QueueName'));
  });
});

describe('every queue: encrypted, TLS only', () => {
  test('four queues, each with SSE-SQS', () => {
    expect(queues).toHaveLength(4);
    for (const [, queue] of queues) {
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties).not.toHaveProperty('KmsMasterKeyId');
    }
  });

  test.each(queues.map(([id]) => [id]))('%s: its policy denies every request without TLS', (queueId) => {
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, p]) =>
      (p.Properties.Queues as Json[]).some((queue) => queue.Ref === queueId),
    );
    expect(policies).toHaveLength(1);
    expect(policies[0]![1].Properties.PolicyDocument.Statement).toContainEqual({
      Action: 'sqs:*',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Resource: getAtt(queueId),
    });
  });
});

describe('the functions of outbound events and follow-ups', () => {
  test('timeouts: 60 s for a stream batch and the sweeps, 30 s for a delivery (one 10 s POST and a few round trips), 10 s for a follow-up', () => {
    expect(streamHandler.Properties.Timeout).toBe(60);
    expect(deliverEvent.Properties.Timeout).toBe(30);
    expect(sweep.Properties.Timeout).toBe(60);
    expect(followUpSweep.Properties.Timeout).toBe(60);
    expect(sendFollowUp.Properties.Timeout).toBe(10);
  });

  test.each([
    ['StreamHandler', streamHandler],
    ['DeliverEvent', deliverEvent],
    ['SweepDeliveries', sweep],
  ])('%s: TABLE_NAME, the delivery queue’s URL and the Powertools variables', (service, fn) => {
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: tableId },
      DELIVERY_QUEUE_URL: { Ref: deliveryQueueId },
      // The stream handler queues the follow-ups set within minutes.
      ...(fn === streamHandler ? { FOLLOW_UP_QUEUE_URL: { Ref: followUpQueueId } } : {}),
      POWERTOOLS_SERVICE_NAME: service,
      POWERTOOLS_METRICS_NAMESPACE: 'Crm/events',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      // The one that signs is told where the signing secrets are; no other function of the stack is.
      ...(fn === deliverEvent ? { SECRETS_TABLE_NAME: { Ref: secretsTableId } } : {}),
    });
  });

  test.each([
    ['SweepFollowUps', followUpSweep],
    ['SendFollowUpDue', sendFollowUp],
  ])('%s: TABLE_NAME, the follow-up queue’s URL and the Powertools variables, no delivery queue', (service, fn) => {
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: tableId },
      FOLLOW_UP_QUEUE_URL: { Ref: followUpQueueId },
      POWERTOOLS_SERVICE_NAME: service,
      POWERTOOLS_METRICS_NAMESPACE: 'Crm/events',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
  });

  test('no function but the delivery function is given the signing-secrets table, by name or otherwise', () => {
    const told = ofType('AWS::Lambda::Function')
      .filter(([, fn]) => JSON.stringify(fn.Properties.Environment).includes(secretsTableId))
      .map(([id]) => id);
    expect(told).toEqual([deliverEventId]);
  });
});

describe('the kept stream batches: one S3 bucket, personal data', () => {
  const properties = bucket.Properties as Json;
  const bucketPolicy = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === bucketId)?.[1];

  test('encrypted with a KMS key of the stack (Bucket Key on), the key rotated yearly and kept with the bucket', () => {
    expect(buckets).toHaveLength(1);
    expect(properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [
        {
          ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: getAtt(keyId) },
          BucketKeyEnabled: true,
        },
      ],
    });
    expect(resources[keyId]).toMatchObject({
      Type: 'AWS::KMS::Key',
      Properties: { EnableKeyRotation: true },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  test('private: every Block Public Access setting on, ACLs disabled, no statement in its policy but denials', () => {
    expect(properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    const statements = bucketPolicy!.Properties.PolicyDocument.Statement as Json[];
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(statement.Effect).toBe('Deny');
  });

  test('TLS only (1.2 at least): every request without it is denied, by anyone', () => {
    const statements = bucketPolicy!.Properties.PolicyDocument.Statement as Json[];
    const everything = [getAtt(bucketId), { 'Fn::Join': ['', [getAtt(bucketId), '/*']] }];
    expect(statements).toContainEqual({
      Action: 's3:*',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Resource: everything,
    });
    expect(statements).toContainEqual({
      Action: 's3:*',
      Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Resource: everything,
    });
  });

  test('a batch expires after 14 days; a version removed or expired is gone a day later; the bucket outlives the stack', () => {
    expect(keptBatchRetention.toDays()).toBe(14);
    expect(keptBatchNoncurrentRetention.toDays()).toBe(1);
    expect(properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(properties.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'ExpireKeptBatches',
        Status: 'Enabled',
        ExpirationInDays: 14,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      },
      { Id: 'RemoveExpiredDeleteMarkers', Status: 'Enabled', ExpiredObjectDeleteMarker: true },
    ]);
    expect(resources[bucketId]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

/** The schedules: one rule per scheduled function, each invoking it alone. */
const rules = ofType('AWS::Events::Rule');
const ruleOf = (functionId: string): [string, Json] => {
  const found = rules.filter(([, rule]) =>
    (rule.Properties.Targets as Json[]).some(
      (target) => JSON.stringify(target.Arn) === JSON.stringify(getAtt(functionId)),
    ),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** Run every `intervalMinutes`, one run at a time, never retried (the next run redoes it), invoked by its rule alone. */
function expectScheduled(functionId: string, fn: Json, intervalMinutes: number, rate: string): void {
  const [ruleId, rule] = ruleOf(functionId);
  expect(rule.Properties).toMatchObject({
    ScheduleExpression: rate,
    State: 'ENABLED',
    Targets: [{ Arn: getAtt(functionId), RetryPolicy: { MaximumRetryAttempts: 0 } }],
  });
  expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
  const invokeConfigs = ofType('AWS::Lambda::EventInvokeConfig').filter(
    ([, config]) => config.Properties.FunctionName.Ref === functionId,
  );
  expect(invokeConfigs.map(([, config]) => config.Properties)).toEqual([
    expect.objectContaining({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 * intervalMinutes }),
  ]);
  const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) =>
    JSON.stringify(p.Properties.FunctionName).includes(functionId),
  );
  expect(permissions.map(([, p]) => p.Properties)).toEqual([
    expect.objectContaining({
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      SourceArn: getAtt(ruleId),
    }),
  ]);
}

test('three schedules, the sweep’s, the purge’s and the follow-up sweep’s', () => {
  expect(rules).toHaveLength(3);
});

describe('the sweep', () => {
  test(`runs every ${sweepSettings.intervalMinutes} minutes, one run at a time, never retried (the next run redoes it)`, () => {
    expectScheduled(sweepId, sweep, sweepSettings.intervalMinutes, `rate(${sweepSettings.intervalMinutes} minutes)`);
  });

  test('a delivery is due 16 minutes past its next attempt: past the queue’s 5 × 180 s of redeliveries and the 60 s of a claim', () => {
    expect(sweepSettings.overdueAfterSeconds).toBe(960);
    expect(sweepSettings.overdueAfterSeconds).toBeGreaterThan(
      deliveryQueueSettings.visibilityTimeoutSeconds * deliveryQueueSettings.maxReceiveCount,
    );
  });
});

describe('the purge of deleted custom fields', () => {
  test('runs every minute, one run at a time, never retried (the next run goes on from the last page recorded)', () => {
    expect(fieldPurgeSettings.intervalMinutes).toBe(1);
    expectScheduled(purgeId, purge, fieldPurgeSettings.intervalMinutes, 'rate(1 minute)');
  });

  test('ends before the next run is asked for: its timeout is under the interval', () => {
    expect(purge.Properties.Timeout).toBe(fieldPurgeSettings.timeoutSeconds);
    expect(purge.Properties.Timeout).toBeLessThan(60 * fieldPurgeSettings.intervalMinutes);
  });

  test('is told the table alone: no queue, no signing-secrets table', () => {
    expect(
      Object.keys(purge.Properties.Environment.Variables as Json).filter((name) => !name.startsWith('POWERTOOLS_')),
    ).toEqual(['TABLE_NAME']);
    expect(grantsOf(purge, 'sqs:')).toEqual([]);
  });

  test('reads gsi3 and gsi4, its configuration and prospect partitions; deletes under PROSPECT# alone, the one role that may', () => {
    const tableArn = getAtt(tableId);
    const byText = (grants: object[]) => grants.map((grant) => JSON.stringify(grant)).sort();
    expect(byText(grantsOf(purge, 'dynamodb:'))).toEqual(
      byText([
        { action: 'dynamodb:GetItem', resource: tableArn, leadingKeys: ['WS#*'] },
        { action: 'dynamodb:UpdateItem', resource: tableArn, leadingKeys: ['WS#*', 'PROSPECT#*'] },
        { action: 'dynamodb:Query', resource: tableArn, leadingKeys: ['PROSPECT#*'] },
        { action: 'dynamodb:DeleteItem', resource: tableArn, leadingKeys: ['PROSPECT#*'] },
        { action: 'dynamodb:Query', resource: { 'Fn::Join': ['', [tableArn, '/index/gsi3']] } },
        { action: 'dynamodb:Query', resource: { 'Fn::Join': ['', [tableArn, '/index/gsi4']] } },
      ]),
    );
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      if (id === purgeId) continue;
      const prospectDeletes = grantsOf(fn, 'dynamodb:').filter(
        (grant) => grant.action === 'dynamodb:DeleteItem' && (grant.leadingKeys ?? []).includes('PROSPECT#*'),
      );
      expect({ id, prospectDeletes }).toEqual({ id, prospectDeletes: [] });
    }
  });
});

describe('the follow-up sweep', () => {
  test('runs every minute, one run at a time, never retried (the next run queues the same minutes)', () => {
    expect(followUpDueSettings.intervalMinutes).toBe(1);
    expectScheduled(followUpSweepId, followUpSweep, followUpDueSettings.intervalMinutes, 'rate(1 minute)');
  });

  test('queues at most SQS’s 15 minutes ahead, and beyond two intervals (two runs may be two minutes apart)', () => {
    expect(followUpDueSettings.horizonSeconds).toBeLessThanOrEqual(900);
    expect(followUpDueSettings.horizonSeconds).toBeGreaterThan(2 * 60 * followUpDueSettings.intervalMinutes);
  });
});

describe('least privilege of the event functions', () => {
  const tableArn = getAtt(tableId);

  /** What the route list declares: per item action, exactly its key prefixes, on the table itself (a Query of indexes only: none). */
  const declared = (spec: EventFunction) =>
    spec.tableActions
      .filter((action): action is ItemAction => action !== 'TransactWriteItems')
      .filter((action) => (spec.tableKeys[action] ?? []).length > 0)
      .map((action) => ({
        action: `dynamodb:${action}`,
        resource: tableArn,
        leadingKeys: leadingKeyPatterns(spec.tableKeys[action] ?? []).sort(),
      }))
      .sort((a, b) => a.action.localeCompare(b.action));

  const tableGrants = (fn: Json) =>
    grantsOf(fn, 'dynamodb:')
      .filter((grant) => JSON.stringify(grant.resource) === JSON.stringify(tableArn))
      .map((grant) => ({ ...grant, leadingKeys: [...(grant.leadingKeys ?? [])].sort() }))
      .sort((a, b) => a.action.localeCompare(b.action));

  test.each([
    ['stream handler', streamHandler, streamSpec],
    ['delivery function', deliverEvent, deliverySpec],
    ['sweep', sweep, sweepSpec],
    ['follow-up sweep', followUpSweep, followUpSweepSpec],
    ['follow-up send', sendFollowUp, sendFollowUpSpec],
  ])('%s: exactly the declared table actions, each confined to its declared prefixes', (_, fn, spec) => {
    expect(tableGrants(fn)).toEqual(declared(spec));
    const actions = grantsOf(fn, 'dynamodb:').map((grant) => grant.action);
    expect(actions).not.toContain('dynamodb:DeleteItem');
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  test('sweep: UpdateItem on deliveries, Query on index gsi4 alone (never the table), SendMessage on the delivery queue', () => {
    expect(grantsOf(sweep, 'dynamodb:')).toEqual([
      { action: 'dynamodb:UpdateItem', resource: tableArn, leadingKeys: ['DELIVERY#*'] },
      { action: 'dynamodb:Query', resource: { 'Fn::Join': ['', [tableArn, '/index/gsi4']] } },
    ]);
    expect(grantsOf(sweep, 'sqs:')).toEqual([{ action: 'sqs:SendMessage', resource: getAtt(deliveryQueueId) }]);
  });

  test('the stream is read by the stream handler only, on the table’s stream ARN', () => {
    const streamGrants = grantsOf(streamHandler, 'dynamodb:').filter((grant) =>
      streamReadActions.includes(grant.action),
    );
    expect(streamGrants.map((grant) => grant.action).sort()).toEqual(streamReadActions);
    for (const grant of streamGrants) expect(grant.resource).toEqual(getAtt(tableId, 'StreamArn'));
    /** ListStreams supports no resource-level permission ("*"), acknowledged on the role. */
    expect(grantsOf(streamHandler, 'dynamodb:').filter((grant) => grant.resource === '*')).toEqual([
      { action: 'dynamodb:ListStreams', resource: '*' },
    ]);
    const deliveryStreamActions = grantsOf(deliverEvent, 'dynamodb:').filter(
      (grant) => streamReadActions.includes(grant.action) || grant.action === 'dynamodb:ListStreams',
    );
    expect(deliveryStreamActions).toEqual([]);
  });

  test('stream handler: SendMessage on the delivery queue and the follow-up queue, nothing else on SQS', () => {
    expect(grantsOf(streamHandler, 'sqs:')).toEqual([
      { action: 'sqs:SendMessage', resource: getAtt(deliveryQueueId) },
      { action: 'sqs:SendMessage', resource: getAtt(followUpQueueId) },
    ]);
  });

  test('follow-up sweep: its clock (FOLLOWUP#), Query on index gsi4 alone (never the table), SendMessage on the follow-up queue alone', () => {
    const tableArn = getAtt(tableId);
    const byText = (grants: object[]) => grants.map((grant) => JSON.stringify(grant)).sort();
    expect(byText(grantsOf(followUpSweep, 'dynamodb:'))).toEqual(
      byText([
        { action: 'dynamodb:GetItem', resource: tableArn, leadingKeys: ['FOLLOWUP#*'] },
        { action: 'dynamodb:UpdateItem', resource: tableArn, leadingKeys: ['FOLLOWUP#*'] },
        { action: 'dynamodb:Query', resource: { 'Fn::Join': ['', [tableArn, '/index/gsi4']] } },
      ]),
    );
    expect(grantsOf(followUpSweep, 'sqs:')).toEqual([{ action: 'sqs:SendMessage', resource: getAtt(followUpQueueId) }]);
  });

  test('only the stream handler, the follow-up sweep and the follow-up send may send to the follow-up queue', () => {
    const senders = ofType('AWS::Lambda::Function')
      .filter(([, fn]) =>
        grantsOf(fn, 'sqs:').some(
          (grant) =>
            grant.action === 'sqs:SendMessage' &&
            JSON.stringify(grant.resource) === JSON.stringify(getAtt(followUpQueueId)),
        ),
      )
      .map(([id]) => id)
      .sort();
    expect(senders).toEqual([streamHandlerId, followUpSweepId, sendFollowUpId].sort());
  });

  test('stream handler: what Lambda needs to keep a batch (PutObject under its prefix, ListBucket, the key through S3), nothing to read or delete', () => {
    const statements = statementsOf(streamHandler).filter((statement) =>
      list<string>(statement.Action).some((action) => action.startsWith('s3:') || action.startsWith('kms:')),
    );
    const ourAccount = { StringEquals: { 's3:ResourceAccount': { Ref: 'AWS::AccountId' } } };
    expect(statements).toEqual([
      {
        Action: 's3:PutObject',
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [getAtt(bucketId), '/aws/lambda/*']] },
        Condition: ourAccount,
      },
      { Action: 's3:ListBucket', Effect: 'Allow', Resource: getAtt(bucketId), Condition: ourAccount },
      {
        Action: 'kms:GenerateDataKey',
        Effect: 'Allow',
        Resource: getAtt(keyId),
        Condition: {
          StringEquals: { 'kms:ViaService': { 'Fn::Join': ['', ['s3.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } },
        },
      },
    ]);
  });

  test('no other function may touch the kept batches or their key', () => {
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      if (id === streamHandlerId) continue;
      const touching = statementsOf(fn).filter((statement) =>
        [statement.Resource]
          .flat(2)
          .some((resource) => [bucketId, keyId].some((target) => JSON.stringify(resource).includes(target))),
      );
      expect({ id, touching }).toEqual({ id, touching: [] });
    }
  });

  test.each([
    ['delivery function', 'delivery', deliverEvent, deliveryQueueId],
    ['follow-up send', 'follow-up', sendFollowUp, followUpQueueId],
  ])('%s: consumes and sends on the %s queue, nothing on any other queue', (_name, _queue, fn, queueId) => {
    const grants = grantsOf(fn, 'sqs:');
    for (const grant of grants) expect(grant.resource).toEqual(getAtt(queueId));
    expect(grants.map((grant) => grant.action).sort()).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
  });

  test('no function may touch a dead-letter queue, and no sqs:* wildcard anywhere', () => {
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      const grants = grantsOf(fn, 'sqs:');
      for (const grant of grants) {
        expect(grant.action).not.toContain('*');
        for (const id of deadLetterQueueIds) expect(grant.resource).not.toEqual(getAtt(id));
      }
    }
  });
});

describe('alarms of the event pipeline', () => {
  const alarms = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties as Json);
  const alarmOn = (metricName: string, dimension?: unknown): Json[] =>
    alarms.filter(
      (alarm) =>
        alarm.MetricName === metricName &&
        (dimension === undefined || JSON.stringify(alarm.Dimensions).includes(JSON.stringify(dimension))),
    );

  test.each([
    ['a batch kept in S3', 'OnFailureDestinationDeliveredEventCount'],
    ['records given up and not even kept', 'DroppedEventCount'],
  ])('the stream mapping’s own count, by its UUID: %s, one is enough', (_, metricName) => {
    const mappingId = mappings.find(([, m]) => m.Properties.FunctionName.Ref === streamHandlerId)![0];
    const found = alarmOn(metricName, { Name: 'EventSourceMappingUUID', Value: { Ref: mappingId } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test.each([
    ['delivery', () => deadLetterQueueId],
    ['follow-up', () => followUpDeadLetterQueueId],
  ])('the %s dead-letter queue: one message visible is enough', (_, queueId) => {
    const found = alarmOn('ApproximateNumberOfMessagesVisible', getAtt(queueId(), 'QueueName'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Namespace: 'AWS/SQS',
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test('the delivery and follow-up queues themselves are not alarmed on depth: messages wait there by design (delays)', () => {
    expect(alarmOn('ApproximateNumberOfMessagesVisible', getAtt(deliveryQueueId, 'QueueName'))).toEqual([]);
    expect(alarmOn('ApproximateNumberOfMessagesVisible', getAtt(followUpQueueId, 'QueueName'))).toEqual([]);
  });

  test('deliveries given up: the delivery code’s own EMF count, alarmed from one; no log metric filter', () => {
    expect(ofType('AWS::Logs::MetricFilter')).toEqual([]);
    const found = alarmOn(deliveriesFailedMetricName);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Namespace: metricNamespace('events'),
      Dimensions: [{ Name: 'service', Value: metricsService }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect([metricNamespace('events'), metricsService]).toEqual(['Crm/events', 'crm-ingest']);
  });

  test.each([
    ['stream handler', () => streamHandlerId],
    ['delivery function', () => deliverEventId],
    ['sweep', () => sweepId],
    ['purge of deleted fields', () => purgeId],
    ['follow-up sweep', () => followUpSweepId],
    ['follow-up send', () => sendFollowUpId],
  ])('%s: any error is alarmed (a receiver’s refusal is handled, not an error)', (_, functionId) => {
    const found = alarmOn('Errors', { Name: 'FunctionName', Value: { Ref: functionId() } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 1 });
  });

  test('the stream read falling 5 minutes behind', () => {
    const found = alarmOn('IteratorAge', { Name: 'FunctionName', Value: { Ref: streamHandlerId } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: iteratorAgeThreshold.toMilliseconds(),
    });
    expect(iteratorAgeThreshold.toMilliseconds()).toBe(300_000);
  });

  test('every alarm described, pointing at its procedure (its notifications: test/infra/observability.test.ts)', () => {
    for (const alarm of alarms)
      expect(alarm.AlarmDescription).toMatch(/Procédure : docs\/operations\.md, alarme \w+\.$/);
  });
});
