import type { Credential } from '../../lib/routes';
import { authorizerEntry, deployedRoutes, eventFunctions, type EventFunction } from './route-grants';
import { methodThrottleOf } from './constructs/crm-api';

/**
 * The concurrency budget of every function of the stack, in one place: RouteFunction reads each
 * function's reservation here (by its entry), the event source mappings their own limits. A function
 * added to `eventFunctions` (infra/cdk/route-grants.ts) fails the type check until it has its line below; a route
 * takes its family's. Table and reasons: docs/deploy.md#concurrency-budget.
 *
 * Reserved concurrency is both a floor and a ceiling: "it reserves the specified capacity exclusively
 * for your function while also preventing it from scaling beyond that limit" ("Configuring reserved
 * concurrency for a function", https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
 * So the event functions, which a slow subscriber can keep busy for 10 s a call, are capped, and the
 * authorizer, which every request runs, is guaranteed its share whatever else the account does.
 */

/** What the budget assumes of the account and Region. */
export const accountConcurrency = {
  /** Concurrent executions, 1,000 per Region by default ("Lambda quotas", https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). */
  limit: 1000,
  /**
   * "You can reserve concurrency for as many functions as you like, as long as you leave at least 100
   * simultaneous executions unreserved for functions that aren't configured with a per-function limit"
   * (PutFunctionConcurrency, https://docs.aws.amazon.com/lambda/latest/api/API_PutFunctionConcurrency.html).
   */
  unreservedMinimum: 100,
  /** Each stage is its own stack and `dev` and `prod` may share one account (docs/deploy.md): both must fit. */
  stagesPerAccount: 2,
} as const;

export type FunctionConcurrency = {
  /** ReservedConcurrentExecutions; absent, the function shares the account's unreserved pool. */
  reserved?: number;
  /** Its SQS event source mapping's ScalingConfig.MaximumConcurrency (at most `reserved`). */
  sqsMaximumConcurrency?: number;
  /** Its DynamoDB stream event source mapping's ParallelizationFactor: batches of one shard at once. */
  streamParallelization?: number;
};

/**
 * The call durations the budget is sized for: warm, the authorizer takes about 15 ms and a handler
 * about 25 ms (docs/deploy.md#cost-per-million-calls); the rest covers cold starts and a slower table.
 */
export const budgetedCallSeconds = { authorizer: 0.05, handler: 0.1 } as const;

/**
 * Every route at its method's full throttle at once (./constructs/crm-api.ts): 9 × 200 + 2 × 25 + 2 × 250 for the
 * Prospect API (`GET /members` and `GET /fields` the 25s) and the webhooks, 20 for each method of the settings API (5
 * for its three edits of custom fields and the change of the workspace's settings).
 */
export const apiPeakRequestsPerSecond = deployedRoutes.reduce(
  (sum, route) => sum + methodThrottleOf(route).rateLimit,
  0,
);

/** The route functions' concurrency at that peak, taken from the unreserved pool: 2,350 × 0.1 s = 235 without settings routes. */
export const routesPeakConcurrency = Math.ceil(apiPeakRequestsPerSecond * budgetedCallSeconds.handler);

export const concurrencyBudget: Readonly<Record<'authorizer' | EventFunction['id'] | Credential, FunctionConcurrency>> =
  {
    /**
     * Every request of every route runs it first, so its reservation holds the API's peak at 50 ms a
     * call: 2,350 × 0.05 s = 118 without settings routes. Past it, API Gateway answers the route's 500 (docs/deploy.md).
     */
    authorizer: { reserved: Math.ceil(apiPeakRequestsPerSecond * budgetedCallSeconds.authorizer) },
    /**
     * One invocation per shard at a time (ParallelizationFactor 1, records of a shard in order): the
     * mapping's concurrency is the number of shards, which DynamoDB sets ("Lambda parameters for Amazon
     * DynamoDB event source mappings", https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-params.html).
     * Ten shards at once; a further shard's batch waits (StreamHandlerThrottles, StreamIteratorAge alarms).
     */
    streamHandler: { reserved: 10, streamParallelization: 1 },
    /**
     * Seven invocations of ten messages, each message one POST of at most 10 s: at worst, every
     * receiver hanging, 7 deliveries a second; the others wait in the queue (seven, not ten: the rest went to the send of
     * follow-ups, the erasures' background and a person's rights' routes, within the account's budget below).
     * MaximumConcurrency keeps
     * the poller from receiving more than the function may run, and AWS asks for a reservation not
     * below the maximum concurrency of the function's SQS sources, or Lambda may throttle their
     * messages ("Configuring scaling behavior for SQS event source mappings",
     * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). A message whose function
     * "can't be invoked because it's at maximum concurrency" is received again later ("Using Lambda with
     * Amazon SQS", https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html), and every receive counts
     * toward the redrive policy's five: throttling could move deliveries to the dead-letter queue.
     */
    deliverEvent: { reserved: 7, sqsMaximumConcurrency: 7 },
    /**
     * One run at a time, every 5 minutes: two runs at once would only race for the same due
     * deliveries (each marked by a conditional write before it is queued again).
     */
    sweepDeliveries: { reserved: 1 },
    /**
     * One run at a time, every minute: a run that overlaps the next (throttled, then dropped) would only walk the same
     * page again; the walk's progress is kept on the tombstone, so the next run goes on.
     */
    purgeDeletedFields: { reserved: 1 },
    /**
     * One run at a time, every minute: two runs at once would queue the same follow-ups twice (each sent once all
     * the same, by its conditional write), and its clock moves forward only.
     */
    sweepFollowUps: { reserved: 1 },
    /**
     * Two invocations of ten messages (SQS's smallest MaximumConcurrency), each message one transaction of
     * milliseconds: some hundreds of follow-ups a second. The reservation is not below the mapping's maximum
     * concurrency, for the reason given for `deliverEvent`.
     */
    sendFollowUpDue: { reserved: 2, sqsMaximumConcurrency: 2 },
    /**
     * One run at a time, every minute: each of its steps is recorded only where the last run left it, so two runs at
     * once would do nothing twice (docs/adr/0019-erasure-in-the-background.md), but only race for the same pages.
     */
    eraseRecords: { reserved: 1 },
    /**
     * Route functions: no reservation. Each is bounded by its method's throttle; together they need
     * `routesPeakConcurrency` of the unreserved pool, which the reservations above leave them. A
     * reservation per route would cap each below a burst of cold starts for no gain.
     */
    'api-key': {},
    'webhook-token': {},
    'member-token': {},
    none: {},
  };

/** The budget of the function built from `entry`: the authorizer's, an event function's, or its route family's. */
export function concurrencyOfEntry(entry: string): FunctionConcurrency {
  if (entry === authorizerEntry) return concurrencyBudget.authorizer;
  const eventFunction = eventFunctions.find((candidate) => candidate.entry === entry);
  if (eventFunction) return concurrencyBudget[eventFunction.id];
  const route = deployedRoutes.find((candidate) => candidate.entry === entry);
  if (route) return concurrencyBudget[route.credential];
  throw new Error(`No concurrency budget for ${entry}: add its line to infra/cdk/concurrency.ts`);
}
