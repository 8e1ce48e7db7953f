import { Aws, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import {
  FilterCriteria,
  MetricType,
  StartingPosition,
  type MetricsConfig,
  type DlqDestinationConfig,
  type IEventSourceDlq,
  type IEventSourceMapping,
  type IFunction,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { changeStreamSettings, deliveryQueueSettings, sweepSettings } from '../../../lib/domain/events/queue-settings';
import { fieldPurgeSettings } from '../../../lib/domain/fields/field-purge';
import { concurrencyBudget } from '../concurrency';
import { keptBatchPrefix } from '../kept-stream-batches';
import { nagResource } from '../nag';
import { queueFedFunction, queueWithDeadLetters } from './queue-function';
import { RouteFunction } from './route-function';
import { denyGrantsButForAwsServices } from '../kms-grants';
import {
  eventFunction,
  grantSigning,
  scheduledFunction,
  signingEnvironment,
  type EventFunctionProps,
} from './scheduled-function';

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
 * The mapping's own counts ("Types of metrics for Lambda functions", "Event source mapping metrics",
 * https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html), by its UUID: among
 * them `OnFailureDestinationDeliveredEventCount`, the records kept in the bucket, and
 * `DroppedEventCount`, those given up and not kept (the bucket refused them), both alarmed.
 */
const eventCountMetrics: MetricsConfig = { metrics: [MetricType.EVENT_COUNT] };

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
  /** Then the whole batch is kept in the on-failure bucket, for `admin stream replay`. */
  retryAttempts: changeStreamSettings.maxRetryAttempts,
  /**
   * Records older than this are given up (to the on-failure bucket) rather than retried. It must stay
   * under the stream's 24-hour retention: a record that expires from the stream reaches no
   * destination (`DroppedEventCount` does not even count it: "Types of metrics for Lambda
   * functions", above).
   */
  maxRecordAge: Duration.hours(12),
  /** Batches of one shard at once: the mapping's concurrency is shards × this (../concurrency.ts). */
  parallelizationFactor: concurrencyBudget.streamHandler.streamParallelization,
  metricsConfig: eventCountMetrics,
} as const;

/**
 * The stream batches given up are kept this long, then expire (docs/events.md, "No event lost"):
 * as long as a dead-letter queue keeps a message, time for the person on call to fix the cause and
 * run `admin stream replay`; less than the deliveries made from them (30 days), which carry the
 * same personal data.
 */
export const keptBatchRetention = Duration.days(14);

/**
 * A batch removed by `stream replay`, or expired, stays a noncurrent version this long (the bucket
 * is versioned): a replay made against the wrong table can be made again, and the data is gone a
 * day later for good.
 */
export const keptBatchNoncurrentRetention = Duration.days(1);

/** The objects Lambda writes a kept batch to: everything under its own prefix, the narrowest its names allow. */
const keptBatchObjects = (bucket: IBucket): string => bucket.arnForObjects(`${keptBatchPrefix}*`);

/**
 * The stream mapping's S3 on-failure destination, with the grants the AWS page names and no more
 * ("Retain discarded records for a DynamoDB event source in Lambda",
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html): Lambda writes with
 * the function's role, which needs s3:PutObject, s3:ListBucket, and kms:GenerateDataKey on the
 * bucket's own KMS key. CDK's S3OnFailureDestination grants read and write on the whole bucket
 * (`grantReadWrite`): the stream handler would then read and delete every batch kept. Here it
 * writes under Lambda's prefix only, may list the bucket, and can read nothing. Every grant is
 * also bound to this account (`s3:ResourceAccount`), the same page's advice against a bucket of
 * that name recreated elsewhere; the key is usable through S3 only (`kms:ViaService`, "AWS KMS
 * condition keys", https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-via-service).
 */
class KeptBatchesDestination implements IEventSourceDlq {
  constructor(
    private readonly bucket: Bucket,
    private readonly key: Key,
  ) {}

  bind(_target: IEventSourceMapping, targetHandler: IFunction): DlqDestinationConfig {
    const ourAccount = { StringEquals: { 's3:ResourceAccount': Aws.ACCOUNT_ID } };
    targetHandler.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject'],
        resources: [keptBatchObjects(this.bucket)],
        conditions: ourAccount,
      }),
    );
    targetHandler.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn], conditions: ourAccount }),
    );
    targetHandler.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:GenerateDataKey'],
        resources: [this.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `s3.${Aws.REGION}.amazonaws.com` } },
      }),
    );
    return { destination: this.bucket.bucketArn };
  }
}

export type OutboundEventsProps = EventFunctionProps;

/**
 * Outbound events (docs/events.md): the table's change stream → stream handler (one delivery
 * item and one queue message per matching subscription) → delivery queue → delivery function
 * (the signed POST, and the next attempt re-queued with its delay). What no code handles is kept:
 * a message whose function keeps failing in the delivery queue's dead-letter queue, a stream batch
 * given up whole in the mapping's on-failure bucket (`admin stream replay`); a delivery whose
 * message was lost is queued again by the sweep, every few minutes. All are watched (alarms.ts).
 * Beside them, the events wing's other scheduled function: the purge of deleted custom fields, every minute.
 */
export class OutboundEvents extends Construct {
  readonly deliveryQueue: Queue;
  readonly deliveryDeadLetterQueue: Queue;
  readonly streamFailureBucket: Bucket;
  readonly streamFailureKey: Key;
  readonly streamHandler: RouteFunction;
  /** The stream mapping's UUID, the dimension of its own metrics (alarms.ts). */
  readonly streamMappingId: string;
  readonly deliverEvent: RouteFunction;
  readonly sweepDeliveries: RouteFunction;
  /** The purge of deleted custom fields (docs/data-model.md, "The purge of a deleted field"), scheduled like the sweep. */
  readonly purgeDeletedFields: RouteFunction;

  constructor(scope: Construct, id: string, props: OutboundEventsProps) {
    super(scope, id);
    const deliveries = queueWithDeadLetters(this, 'Delivery', deliveryQueueSettings);
    this.deliveryQueue = deliveries.queue;
    this.deliveryDeadLetterQueue = deliveries.deadLetterQueue;
    this.streamFailureKey = new Key(this, 'StreamFailureKey', {
      description: 'Chiffrement des lots du flux DynamoDB abandonnés et gardés (données personnelles)',
      enableKeyRotation: true,
      /** The bucket outlives the stack with what it holds: so does the key they are encrypted with. */
      removalPolicy: RemovalPolicy.RETAIN,
    });
    denyGrantsButForAwsServices(this.streamFailureKey);
    /**
     * The stream batches given up, whole (docs/events.md, "No event lost"): personal data. SSE-KMS
     * with a key of the stack rather than S3-managed keys: reading a batch then takes kms:Decrypt
     * on this key besides s3:GetObject, which a broad read grant of the account (ReadOnlyAccess and
     * the like give s3:Get*, not kms:Decrypt) does not carry, and every use of the key is in
     * CloudTrail; Control Tower's CT.S3.PR.10 asks for it too. The key costs $1 a month; an S3
     * Bucket Key cuts the requests S3 makes to KMS for it ("Reducing the cost of SSE-KMS with
     * Amazon S3 Bucket Keys", https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html).
     * Private: Block Public Access on all four settings, ACLs disabled, no statement in its policy
     * but the denial of any request without TLS 1.2 at least. Versioned, with a lifecycle: a batch
     * expires `keptBatchRetention` after Lambda wrote it, and a version removed or expired is gone
     * `keptBatchNoncurrentRetention` later ("Expiring objects",
     * https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html).
     * Retained with the stack's removal, like the table: it may hold the only copy of lost events.
     */
    this.streamFailureBucket = new Bucket(this, 'StreamFailureBucket', {
      encryption: BucketEncryption.KMS,
      encryptionKey: this.streamFailureKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      lifecycleRules: [
        {
          id: 'ExpireKeptBatches',
          expiration: keptBatchRetention,
          noncurrentVersionExpiration: keptBatchNoncurrentRetention,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        /** A delete marker left alone once its noncurrent version is gone (S3 refuses it beside `expiration`). */
        { id: 'RemoveExpiredDeleteMarkers', expiredObjectDeleteMarker: true },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.streamFailureBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'No server access logs: the bucket is written by Lambda with the stream handler’s role and read by the admin command line only, all IAM-signed API calls that CloudTrail data events record when the account’s trail turns them on; a log bucket would be one more store to secure.',
    });

    const environment = { DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl };
    const stream = eventFunction('streamHandler');
    this.streamHandler = new RouteFunction(this, 'StreamHandler', {
      entry: stream.entry,
      description: stream.description,
      table: props.table,
      tableActions: stream.tableActions,
      tableKeys: stream.tableKeys,
      timeout: streamHandlerTimeout,
      environment: { ...environment, ...signingEnvironment(stream, props.secretsTable) },
      powertools: props.powertools,
      noDeadLetterQueueReason:
        "Invoked synchronously by the stream's event source mapping: a batch that keeps failing goes whole to the mapping's on-failure bucket (StreamFailureBucket); a function dead-letter queue only receives failed asynchronous invocations.",
    });
    const streamSource = new DynamoEventSource(props.table, {
      ...streamMappingSettings,
      onFailure: new KeptBatchesDestination(this.streamFailureBucket, this.streamFailureKey),
      filters: (stream.streamFilters ?? []).map((pattern) => FilterCriteria.filter(pattern)),
    });
    this.streamHandler.addEventSource(streamSource);
    this.streamMappingId = streamSource.eventSourceMappingId;
    Validations.of(this.streamHandler.role!).acknowledge({
      id: `AwsSolutions-IAM5[${nagResource(this, keptBatchObjects(this.streamFailureBucket))}]`,
      reason:
        'Lambda names each kept batch itself (aws/lambda/<mapping UUID>/<shard>/<date>-<random UUID>): PutObject is granted under that prefix, the narrowest the names allow, and nothing else on the objects.',
    });
    grantSigning(this.streamHandler, stream, props.secretsTable);
    this.deliveryQueue.grant(this.streamHandler, 'sqs:SendMessage');

    /** The next attempt of a delivery is a new message on the same queue. */
    this.deliverEvent = queueFedFunction(this, props, {
      spec: eventFunction('deliverEvent'),
      id: 'DeliverEvent',
      queue: this.deliveryQueue,
      deadLetterQueueName: 'DeliveryDeadLetterQueue',
      settings: deliveryQueueSettings,
      /** ScalingConfig.MaximumConcurrency: a slow subscriber holds at most this many invocations (../concurrency.ts). */
      maxConcurrency: concurrencyBudget.deliverEvent.sqsMaximumConcurrency,
      timeout: deliveryFunctionTimeout,
      environment,
    });

    this.sweepDeliveries = scheduledFunction(this, props, {
      spec: eventFunction('sweepDeliveries'),
      id: 'SweepDeliveries',
      scheduleId: 'SweepSchedule',
      scheduleDescription: 'Balayage des livraisons en attente dont le message est perdu',
      intervalMinutes: sweepSettings.intervalMinutes,
      /** 16 Queries and up to 1 600 conditional updates, 16 at a time, and a few SendMessageBatch: seconds. */
      timeout: Duration.seconds(60),
      environment,
      noDeadLetterQueueReason:
        'Invoked by its schedule every few minutes: a failed run is done again by the next one, which finds the same deliveries still due; its errors are alarmed (SweepDeliveriesErrors).',
      nextRunRedoes:
        'A run that fails or is never made loses nothing: the deliveries it would have queued are still due at the next run, minutes later; errors are alarmed (SweepDeliveriesErrors), and a destination would only keep scheduled events, which carry nothing.',
    });
    this.deliveryQueue.grant(this.sweepDeliveries, 'sqs:SendMessage');

    this.purgeDeletedFields = scheduledFunction(this, props, {
      spec: eventFunction('purgeDeletedFields'),
      id: 'PurgeDeletedFields',
      scheduleId: 'FieldPurgeSchedule',
      scheduleDescription: 'Purge des valeurs et du journal des champs personnalisés supprimés',
      intervalMinutes: fieldPurgeSettings.intervalMinutes,
      /**
       * 20 pages of 100 prospects, each prospect one Query and its few conditional writes, 16 at a time: seconds. Less
       * than the minute between two runs, so a run always ends before the next is asked for; one cut short redoes a
       * page at most.
       */
      timeout: Duration.seconds(fieldPurgeSettings.timeoutSeconds),
      environment: {},
      noDeadLetterQueueReason:
        'Invoked by its schedule every minute: a failed run is done again by the next one, from the last page recorded on the tombstone; its errors are alarmed (PurgeDeletedFieldsErrors).',
      nextRunRedoes:
        'A run that fails or is never made loses nothing: the walk goes on at the next run, a minute later, from the last page recorded on the tombstone; errors are alarmed (PurgeDeletedFieldsErrors), and a destination would only keep scheduled events, which carry nothing.',
    });
  }
}
