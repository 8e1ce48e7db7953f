import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoClient } from '../../lib/storage/client';

/**
 * DynamoDB's HTTP side, faked below the SDK: unlike aws-sdk-client-mock, the whole SDK runs
 * (serialization, signing, its own retries, error parsing), so a test sees what really goes on
 * the wire and how many times. Each operation is answered by a script of wire responses.
 */

type WireResponse = { status: number; body: object };
type WireRequest = { operation: string; body: Record<string, unknown> };

export const wire = {
  ok: (body: object = {}): WireResponse => ({ status: 200, body }),
  internalServerError: (): WireResponse => ({
    status: 500,
    body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' },
  }),
  throughputExceeded: (): WireResponse => ({
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    },
  }),
};

export type FakeDynamoDb = {
  db: DynamoDBDocumentClient;
  requests: (operation: string) => WireRequest[];
};

/**
 * A document client configured like production (same retry attempts, same marshalling), whose
 * requests are answered by `answer`: per operation (e.g. "TransactWriteItems"), the n-th request
 * gets the n-th response of its script, the last one repeating.
 */
export async function fakeDynamoDb(scripts: Record<string, WireResponse[]>): Promise<FakeDynamoDb> {
  const production = createDynamoClient({ endpoint: 'http://127.0.0.1:9' });
  const maxAttempts = await production.config.maxAttempts();
  production.destroy();
  const seen: WireRequest[] = [];
  const client = new DynamoDBClient({
    region: 'eu-west-3',
    credentials: { accessKeyId: 'fake', secretAccessKey: 'fake' },
    maxAttempts,
    requestHandler: {
      handle: async (request: { headers: Record<string, string>; body?: string | Uint8Array }) => {
        const operation = String(request.headers['x-amz-target'] ?? '').replace('DynamoDB_20120810.', '');
        const count = seen.filter((entry) => entry.operation === operation).length;
        const text = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
        seen.push({ operation, body: JSON.parse(text || '{}') as Record<string, unknown> });
        const script = scripts[operation];
        if (!script || script.length === 0) throw new Error(`fake DynamoDB: nothing scripted for ${operation}`);
        const response = script[Math.min(count, script.length - 1)] as WireResponse;
        return {
          response: {
            statusCode: response.status,
            headers: { 'content-type': 'application/x-amz-json-1.0' },
            body: new TextEncoder().encode(JSON.stringify(response.body)),
          },
        };
      },
    },
  });
  return {
    db: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    requests: (operation) => seen.filter((entry) => entry.operation === operation),
  };
}
