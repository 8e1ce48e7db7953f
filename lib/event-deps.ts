import { loadConfig, loadSecretsTableName, type Config, productionDeps } from './storage/client';
import type { DeliveryDeps, DeliveryMessage, EventDeps } from './domain/events/ports';
import { createHttpSender } from './outbound/http-sender';
import { createSqsClient, createSqsQueue, loadDeliveryQueueUrl } from './queue/sqs-queue';

/** The dependencies of the outbound-event functions on AWS, created once per cold start. */
export function productionEventDeps(env: NodeJS.ProcessEnv = process.env, config: Config = loadConfig(env)): EventDeps {
  return {
    ...productionDeps(config),
    queue: createSqsQueue<DeliveryMessage>(createSqsClient(config.region), loadDeliveryQueueUrl(env)),
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
