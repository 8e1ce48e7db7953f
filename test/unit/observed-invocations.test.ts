import { logger, observeInvocation } from '../../lib/observability';
import { captureLogs } from '../support/captured-logs';
import { aLambdaContext } from '../support/events';

/**
 * Each invocation's lines carry its own request id and keys (lib/observability.ts). Lambda runs one at a time per
 * process; the local runtime also runs a function invoked by another inside it (the replay invokes a webhook
 * through the Lambda API the local server serves): the outer one's lines after it are still its own.
 */
const unpublished = { publish: () => undefined };

test('an invocation inside another gives the outer one back its request id, keys and context', async () => {
  const logs = captureLogs('INFO');
  try {
    const outer = { ...aLambdaContext(), functionName: 'replay' };
    const inner = { ...aLambdaContext(), functionName: 'ingest-lead' };
    await observeInvocation(
      unpublished,
      { context: outer, correlationId: 'outer-id', keys: { route: 'replay' } },
      async () => {
        logger.info('before');
        await observeInvocation(
          unpublished,
          { context: inner, correlationId: 'inner-id', keys: { route: 'lead' } },
          async () => logger.info('inside'),
        );
        logger.info('after');
      },
    );
    logger.info('outside');
  } finally {
    logs.restore();
  }
  const seen = logs
    .lines()
    .map(({ message, correlation_id, route, function_name }) => ({ message, correlation_id, route, function_name }));
  expect(seen).toEqual([
    { message: 'before', correlation_id: 'outer-id', route: 'replay', function_name: 'replay' },
    { message: 'inside', correlation_id: 'inner-id', route: 'lead', function_name: 'ingest-lead' },
    { message: 'after', correlation_id: 'outer-id', route: 'replay', function_name: 'replay' },
    expect.objectContaining({ message: 'outside', correlation_id: undefined, route: undefined }),
  ]);
});
