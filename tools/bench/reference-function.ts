import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lib/storage/client';

/**
 * The cold-start yardstick: bundled like the functions, it only creates the DynamoDB document
 * client the functions use and answers after one GetItem, so the SDK's first request costs it
 * what it costs them. A function's cold start divided by this one is what its own code adds.
 */
const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION });

export const handler = async () => {
  await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'REFERENCE', sk: 'REFERENCE' } }));
  return { statusCode: 200, body: '{}' };
};
