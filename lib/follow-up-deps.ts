import { loadConfig, productionDeps, type Config } from './storage/client';
import type { FollowUpDeps, FollowUpDueMessage, FollowUpQueue } from './domain/follow-ups/ports';
import { createSqsClient, createSqsQueue, loadQueueUrl } from './queue/sqs-queue';

/*
 * The dependencies of the functions that reach the follow-up queue, created once per cold start: apart from
 * lib/event-deps.ts, so that the delivery function and the sweep of deliveries import nothing of follow-ups.
 */

/** The follow-up queue (`FOLLOW_UP_QUEUE_URL`): the sweep's, the send's and the stream handler's. */
export function productionFollowUpQueue(
  env: NodeJS.ProcessEnv = process.env,
  config: Config = loadConfig(env),
): FollowUpQueue {
  return createSqsQueue<FollowUpDueMessage>(createSqsClient(config.region), loadQueueUrl('FOLLOW_UP_QUEUE_URL', env));
}

/** The follow-up functions' (docs/events.md, "Follow-ups falling due"): the table and the follow-up queue. */
export function productionFollowUpDeps(
  env: NodeJS.ProcessEnv = process.env,
  config: Config = loadConfig(env),
): FollowUpDeps {
  return { ...productionDeps(config), followUpQueue: productionFollowUpQueue(env, config) };
}
