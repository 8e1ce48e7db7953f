import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventSourceMapping, FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption, RedrivePermission, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { changeStreamSettings, deliveryQueueSettings } from '../../../lib/domain/events/queue-settings';
import { eventFunctions, type EventFunction } from '../../../lib/routes';
import { concurrencyBudget } from '../concurrency';
import type { PowertoolsSettings } from '../observability';
import { secretsTableStatements } from '../table-access';
import { RouteFunction } from './route-function';

/**
 * The delivery function's timeout: one POST of at most 10 s (retry-schedule.ts `deliveryTimeoutMs`)
 * and a few DynamoDB and SQS round trips, with room to spare. The queue's visibility timeout is six
 * times this (lib/domain/events/queue-settings.ts).
 */
export const deliveryFunctionTimeout = Duration.seconds(30);

/**
 * The stream handler's timeout: a batch of up to 100 records, each a configuration Query, a few
 * conditional puts and one SendMessageBatch, takes seconds; a minute leaves room for SDK retries
 * under throttling before Lambda ends the call and the mapping retries (bisecting) the batch.
 */
export const streamHandlerTimeout = Duration.seconds(60);

/**
 * How the stream is read ("Using AWS Lambda with Amazon DynamoDB",
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html, and "Configuring partial batch response
 * with DynamoDB and Lambda", https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html).
 */
export const streamMappingSettings = {
  /**
   * TRIM_HORIZON: the mapping starts at the oldest record still in the stream, so the writes made
   * between the stream's creation and the mapping's (the same deployment) still emit their events:
   * the contract is an event if and only if its write happened. A re-read record is harmless, the
   * delivery ids being derived from the record and put only if absent. LATEST would lose those writes.
   */
  startingPosition: StartingPosition.TRIM_HORIZON,
  /** The numbers the local poller uses too (lib/domain/events/queue-settings.ts). */
  batchSize: changeStreamSettings.batchSize,
  /** A failing batch is split in two until the failing record is alone: one bad item cannot block the shard. */
  bisectBatchOnError: true,
  /** The handler names the first failed record; the records before it are not sent again. */
  reportBatchItemFailures: true,
  /** Then the batch's description (shard, sequence numbers) goes to the on-failure queue. */
  retryAttempts: changeStreamSettings.maxRetryAttempts,
  /**
   * Records older than this are given up (to the on-failure queue) rather than retried: the stream
   * keeps records 24 hours, so half a day leaves the other half to read the lost range back from
   * the stream with the shard and sequence numbers of the on-failure message.
   */
  maxRecordAge: Duration.hours(12),
  /** Batches of one shard at once: the mapping's concurrency is shards × this (../concurrency.ts). */
  parallelizationFactor: concurrencyBudget.streamHandler.streamParallelization,
} as const;

/**
 * A queue that only receives what failed: kept SQS's longest retention, time for a person to look
 * (alarms.ts). Its redrive-allow policy, `allowAll`, is SQS's default made explicit: it declares the
 * queue a dead-letter destination, which AWS Control Tower's CT.SQS.PR.1 (every queue has a
 * dead-letter queue) then skips ("Using dead-letter queues in Amazon SQS",
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-dead-letter-queues.html).
 * `byQueue` naming the delivery queue would make the two queues reference each other (a cycle
 * CloudFormation refuses); `denyAll` would fail that control, and would only stop another queue of
 * the account from moving its own failures in here.
 */
const deadLetterQueueProps: QueueProps = {
  retentionPeriod: Duration.days(14),
  redriveAllowPolicy: { redrivePermission: RedrivePermission.ALLOW_ALL },
};

/**
 * SSE-SQS (keys managed by SQS, no charge) rather than KMS: messages hold ids only (workspace,
 * delivery, step, not_before; the on-failure queue a shard and sequence numbers), never a payload
 * or a subscriber's secret, and a customer-managed key would add its monthly fee, KMS calls on
 * every send and receive, and kms:GenerateDataKey / kms:Decrypt grants to both functions and to
 * the event source mapping ("Encryption at rest in Amazon SQS",
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-server-side-encryption.html).
 * `enforceSSL` denies any request not made over TLS (aws:SecureTransport, the queue policy).
 */
const queueSecurity = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

const eventFunction = (id: EventFunction['id']): EventFunction => {
  const found = eventFunctions.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No event function ${id} in lib/routes.ts`);
  return found;
};

export type OutboundEventsProps = {
  table: Table;
  /** The signing-secrets table (./secrets-table.ts): named and granted to the functions that sign only. */
  secretsTable: ITable;
  powertools: PowertoolsSettings;
};

/**
 * Outbound events (docs/events.md): the table's change stream → stream handler (one delivery
 * item and one queue message per matching subscription) → delivery queue → delivery function
 * (the signed POST, and the next attempt re-queued with its delay). Failures that no code
 * handles land in a dead-letter queue each: the delivery queue's, and the stream mapping's
 * on-failure queue; both are watched (alarms.ts).
 */
export class OutboundEvents extends Construct {
  readonly deliveryQueue: Queue;
  readonly deliveryDeadLetterQueue: Queue;
  readonly streamFailureQueue: Queue;
  readonly streamHandler: RouteFunction;
  readonly deliverEvent: RouteFunction;

  constructor(scope: Construct, id: string, props: OutboundEventsProps) {
    super(scope, id);
    this.deliveryDeadLetterQueue = new Queue(this, 'DeliveryDeadLetterQueue', {
      ...queueSecurity,
      ...deadLetterQueueProps,
    });
    this.deliveryQueue = new Queue(this, 'DeliveryQueue', {
      ...queueSecurity,
      visibilityTimeout: Duration.seconds(deliveryQueueSettings.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deliveryDeadLetterQueue, maxReceiveCount: deliveryQueueSettings.maxReceiveCount },
    });
    this.streamFailureQueue = new Queue(this, 'StreamFailureQueue', {
      ...queueSecurity,
      ...deadLetterQueueProps,
    });
    const deadLetterItself = (what: string) => ({
      id: 'AwsSolutions-SQS3',
      reason: `This queue is itself a dead-letter destination (${what}): a queue of its own behind it would only move the messages once more; its depth is alarmed instead (alarms.ts).`,
    });
    Validations.of(this.deliveryDeadLetterQueue).acknowledge(deadLetterItself("the delivery queue's redrive target"), {
      ...deadLetterItself("the delivery queue's redrive target"),
      id: 'Serverless-SQSRedrivePolicy',
    });
    Validations.of(this.streamFailureQueue).acknowledge(
      deadLetterItself("the stream mapping's on-failure destination"),
      { ...deadLetterItself("the stream mapping's on-failure destination"), id: 'Serverless-SQSRedrivePolicy' },
    );

    const environment = { DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl };
    /** A function that signs (`secretsTableActions`) gets the secrets table's name and its reads; any other, neither. */
    const signing = (spec: EventFunction): Record<string, string> =>
      spec.secretsTableActions === undefined ? {} : { SECRETS_TABLE_NAME: props.secretsTable.tableName };
    const grantSigning = (fn: RouteFunction, spec: EventFunction) => {
      for (const statement of secretsTableStatements(props.secretsTable, spec.secretsTableActions ?? []))
        fn.addToRolePolicy(statement);
    };

    const stream = eventFunction('streamHandler');
    this.streamHandler = new RouteFunction(this, 'StreamHandler', {
      entry: stream.entry,
      description: stream.description,
      table: props.table,
      tableActions: stream.tableActions,
      tableKeys: stream.tableKeys,
      timeout: streamHandlerTimeout,
      environment: { ...environment, ...signing(stream) },
      powertools: props.powertools,
      noDeadLetterQueueReason:
        "Invoked synchronously by the stream's event source mapping: a batch that keeps failing goes to the mapping's on-failure queue (StreamFailureQueue); a function dead-letter queue only receives failed asynchronous invocations.",
    });
    grantSigning(this.streamHandler, stream);
    this.streamHandler.addEventSource(
      new DynamoEventSource(props.table, {
        ...streamMappingSettings,
        onFailure: new SqsDlq(this.streamFailureQueue),
        filters: (stream.streamFilters ?? []).map((pattern) => FilterCriteria.filter(pattern)),
      }),
    );
    this.deliveryQueue.grant(this.streamHandler, 'sqs:SendMessage');

    const delivery = eventFunction('deliverEvent');
    this.deliverEvent = new RouteFunction(this, 'DeliverEvent', {
      entry: delivery.entry,
      description: delivery.description,
      table: props.table,
      tableActions: delivery.tableActions,
      tableKeys: delivery.tableKeys,
      timeout: deliveryFunctionTimeout,
      environment: { ...environment, ...signing(delivery) },
      powertools: props.powertools,
      noDeadLetterQueueReason:
        "Invoked synchronously by the queue's event source mapping: a message that keeps failing is moved by the queue's redrive policy to DeliveryDeadLetterQueue; a function dead-letter queue only receives failed asynchronous invocations.",
    });
    grantSigning(this.deliverEvent, delivery);
    this.deliverEvent.addEventSource(
      new SqsEventSource(this.deliveryQueue, {
        batchSize: deliveryQueueSettings.batchSize,
        reportBatchItemFailures: true,
        /** ScalingConfig.MaximumConcurrency: a slow subscriber holds at most this many invocations (../concurrency.ts). */
        maxConcurrency: concurrencyBudget.deliverEvent.sqsMaximumConcurrency,
      }),
    );
    for (const mapping of this.deliverEvent.node.children.filter((child) => child instanceof EventSourceMapping)) {
      Validations.of(mapping).acknowledge({
        id: 'Serverless-LambdaEventSourceMappingDestination',
        reason:
          "Lambda supports no on-failure destination for an SQS event source: a message that keeps failing is moved by the queue's own redrive policy (maxReceiveCount) to DeliveryDeadLetterQueue, which is alarmed.",
      });
    }
    /** The next attempt of a delivery is a new message on the same queue. */
    this.deliveryQueue.grant(this.deliverEvent, 'sqs:SendMessage');
  }
}
