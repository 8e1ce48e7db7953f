import * as z from 'zod/mini';

/**
 * Where the user pool is (docs/adr/0013-member-sign-in.md), read once per cold start. On AWS the stack sets
 * USER_POOL_ID and USER_POOL_CLIENT_ID (the region is the function's); the local run sets the same two, plus what only
 * it has: the local provider's endpoint and issuer, the key set it fetched (served over http, which aws-jwt-verify does
 * not fetch), and the file where it keeps its pool, with the codes it delivers (docs/api.md#sign-in: answered locally
 * only).
 */
export type IdentityConfig = {
  userPoolId: string;
  clientId: string;
  region: string | undefined;
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>` on AWS; the local provider's own otherwise. */
  issuer: string;
  /** The local provider's address; absent on AWS, where the SDK finds the regional endpoint. */
  endpoint: string | undefined;
  /** The local provider's key set (JSON), handed to the verifier. */
  jwks: string | undefined;
  /** The local provider's file of its pool, where it keeps the codes it delivers (tools/local/identity-provider.ts). */
  localPoolFile: string | undefined;
};

/** Undefined when no user pool is configured: the service then has no signed-in routes to serve. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig | undefined {
  if (!env.USER_POOL_ID) return undefined;
  const text = z.string().check(z.minLength(1));
  const schema = z.object({
    USER_POOL_ID: text,
    USER_POOL_CLIENT_ID: text,
    AWS_REGION: z.optional(text),
    IDENTITY_ENDPOINT: z.optional(z.url()),
    USER_POOL_ISSUER: z.optional(z.url()),
    USER_POOL_JWKS: z.optional(text),
    IDENTITY_LOCAL_POOL_FILE: z.optional(text),
  });
  const parsed = schema.safeParse(
    Object.fromEntries(Object.keys(schema.def.shape).map((name) => [name, env[name] || undefined])),
  );
  if (!parsed.success) {
    throw new Error(`Configuration invalide : ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  }
  const { data } = parsed;
  const region = data.AWS_REGION;
  return {
    userPoolId: data.USER_POOL_ID,
    clientId: data.USER_POOL_CLIENT_ID,
    region,
    issuer: data.USER_POOL_ISSUER ?? `https://cognito-idp.${region}.amazonaws.com/${data.USER_POOL_ID}`,
    endpoint: data.IDENTITY_ENDPOINT,
    jwks: data.USER_POOL_JWKS,
    localPoolFile: data.IDENTITY_LOCAL_POOL_FILE,
  };
}
