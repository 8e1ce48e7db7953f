import * as z from 'zod/mini';
import { loadConfig, loadSecretsTableName, type Config } from './storage/client';
import { productionDeps } from './deps';
import type { DeliveryDeps, EventDeps } from './domain/events/ports';
import { createHttpSender } from './outbound/http-sender';
import { createSqsClient, createSqsDeliveryQueue } from './queue/sqs-delivery-queue';

const eventConfigSchema = z.object({ DELIVERY_QUEUE_URL: z.url() });

/** The queue's URL, read once per cold start: a missing or malformed one fails at start-up. */
export function loadDeliveryQueueUrl(env: NodeJS.ProcessEnv = process.env): string {
  const parsed = eventConfigSchema.safeParse({ DELIVERY_QUEUE_URL: env.DELIVERY_QUEUE_URL || undefined });
  if (!parsed.success) {
    throw new Error(`Configuration invalide : ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  }
  return parsed.data.DELIVERY_QUEUE_URL;
}

/** The dependencies of the outbound-event functions on AWS, created once per cold start. */
export function productionEventDeps(env: NodeJS.ProcessEnv = process.env, config: Config = loadConfig(env)): EventDeps {
  return {
    ...productionDeps(config),
    queue: createSqsDeliveryQueue(createSqsClient(config.region), loadDeliveryQueueUrl(env)),
    send: createHttpSender('aws'),
    network: 'aws',
  };
}

/** The delivery function's: the stream handler's and the signing-secrets table, both read at cold start. */
export function productionDeliveryDeps(
  env: NodeJS.ProcessEnv = process.env,
  config: Config = loadConfig(env),
): DeliveryDeps {
  return { ...productionEventDeps(env, config), secretsTableName: loadSecretsTableName(env, config) };
}
