import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

/**
 * What the deployed functions' SDK clients resolve credentials with, in place of
 * `@aws-sdk/credential-provider-node` (substituted at bundling: `credentialProviderAlias`,
 * infra/cdk/bundling.ts). Lambda puts the execution role's credentials in AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN ("Defined runtime environment variables",
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime),
 * the first source the default chain tries; the rest of the chain (SSO, INI files, STS web
 * identity, IMDS: about 90 KB minified with their nested clients) never runs in a function, so it
 * is left out of every bundle, and out of every cold start's parse.
 */
export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);
