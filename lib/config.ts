import * as z from 'zod/mini';

const configSchema = z.object({
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'crm-local'),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  AWS_REGION: z.optional(z.string().check(z.minLength(1))),
});

export type Config = {
  tableName: string;
  /** Set for DynamoDB Local; absent on AWS, where the SDK finds the regional endpoint. */
  endpoint: string | undefined;
  region: string | undefined;
};

/** Read once per cold start: a bad configuration fails at start-up, not on the first request. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse({
    TABLE_NAME: env.TABLE_NAME || undefined,
    DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT || undefined,
    AWS_REGION: env.AWS_REGION || undefined,
  });
  if (!parsed.success) {
    throw new Error(`Configuration invalide : ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  }
  return {
    tableName: parsed.data.TABLE_NAME,
    endpoint: parsed.data.DYNAMODB_ENDPOINT,
    region: parsed.data.AWS_REGION,
  };
}

/**
 * A DynamoDB table name: 3 to 255 of `a-z A-Z 0-9 _ - .` ("Supported data types and naming rules in
 * Amazon DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
 */
const dynamoTableName = z.string().check(z.regex(/^[A-Za-z0-9_.-]{3,255}$/));

/**
 * The signing-secrets table (docs/adr/0012-signing-secrets-table.md), read once per cold start by
 * the functions that sign, and by the admin command line; no other function is given it. On
 * DynamoDB Local (an endpoint set) it defaults to `<TABLE_NAME>-secrets`; on AWS the stack sets
 * SECRETS_TABLE_NAME and nothing is guessed. The main table is refused: its change stream would
 * carry every secret written.
 */
export function loadSecretsTableName(env: NodeJS.ProcessEnv = process.env, config: Config = loadConfig(env)): string {
  const name = env.SECRETS_TABLE_NAME || (config.endpoint === undefined ? undefined : `${config.tableName}-secrets`);
  const parsed = dynamoTableName.safeParse(name);
  if (!parsed.success || parsed.data === config.tableName)
    throw new Error('Configuration invalide : SECRETS_TABLE_NAME');
  return parsed.data;
}
