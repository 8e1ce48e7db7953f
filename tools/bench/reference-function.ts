import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lib/storage/client';

/** The cold-start yardstick of report.md's section 1: the SDK's first request costs it what it costs the functions. */
const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION });

export const handler = async () => {
  await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'REFERENCE', sk: 'REFERENCE' } }));
  return { statusCode: 200, body: '{}' };
};
