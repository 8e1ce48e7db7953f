import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export type RoundTripCounter = { calls: string[]; reset: () => void };

/** Records every DynamoDB operation the client sends (one entry per round trip, SDK retries aside). */
export function countRoundTrips(db: DynamoDBDocumentClient): RoundTripCounter {
  const calls: string[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name: 'roundTripCounter' },
  );
  return { calls, reset: () => void calls.splice(0) };
}
