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
