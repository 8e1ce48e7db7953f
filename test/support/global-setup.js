// Plain ESM: jest loads global setup outside its ESM transform, so TypeScript comes in through tsx.
import '../../node-major.js'; // first: another Node major stops the run before DynamoDB Local starts
import { tsImport } from 'tsx/esm/api';

/**
 * One DynamoDB Local and one cognito-local for the whole run, on a free port. Test files isolate themselves by seeding
 * workspaces of their own, never by emptying the table.
 */
export default async function globalSetup() {
  // The functions' logs stay out of the test output (lib/observability.ts); a test that reads
  // them raises the level itself (test/support/captured-logs.ts).
  process.env.POWERTOOLS_LOG_LEVEL ||= 'SILENT';
  const { startTestDynamoDb, startTestIdentityProvider } = await tsImport('./dynamodb.ts', import.meta.url);
  globalThis.__dynamoDbLocal__ = await startTestDynamoDb();
  // The local identity provider, as `npm start` runs it; the functions read its configuration from the environment.
  globalThis.__identityProvider__ = await startTestIdentityProvider();
}
