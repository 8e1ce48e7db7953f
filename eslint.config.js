import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers (README, "Layout"): functions → lib/http → lib/domain → lib/storage. Only lib/storage
 * and tools/ talk to the AWS SDK; what ships (functions/, lib/, the CDK app in infra/) never imports
 * tools/ or tests, and product code never imports the CDK app; the domain knows nothing of HTTP;
 * storage knows nothing of the layers above it.
 */
const sdk = {
  group: ['@aws-sdk/*'],
  message:
    'Only lib/storage talks to DynamoDB, only lib/queue to SQS, only lib/identity to Cognito, only lib/lambda to Lambda, only lib/exports to S3 (and tools/ to all).',
};
const sqs = { group: ['@aws-sdk/*', '!@aws-sdk/client-sqs'], message: 'lib/queue talks to SQS only.' };
const lambda = { group: ['@aws-sdk/*', '!@aws-sdk/client-lambda'], message: 'lib/lambda talks to Lambda only.' };
const s3 = {
  group: ['@aws-sdk/*', '!@aws-sdk/client-s3', '!@aws-sdk/s3-request-presigner'],
  message: 'lib/exports talks to S3 only.',
};
const cognito = {
  group: ['@aws-sdk/*', '!@aws-sdk/client-cognito-identity-provider'],
  message: 'lib/identity talks to Cognito only.',
};
const credentials = {
  group: ['@aws-sdk/*', '!@aws-sdk/credential-provider-env'],
  message: 'The bundled credential provider reads the environment only.',
};
const tooling = {
  group: ['**/infra/**', '**/tools/**', '**/test/**'],
  message: 'Product code (functions/, lib/) never imports the CDK app, the tools or tests.',
};
const shipsAlone = {
  group: ['**/tools/**', '**/test/**'],
  message: 'The CDK app never imports the tools or tests: what ships does not depend on them.',
};
/**
 * `except`: paths under those layers that stay allowed. Git-ignore patterns cannot re-include a
 * path whose folder is excluded, so a layer with exceptions excludes its contents, not its folder.
 */
const above = (layers, why, except = []) => ({
  group: [
    ...layers.flatMap((layer) =>
      except.some((path) => path.startsWith(`${layer}/`)) ? [`**/${layer}/**`] : [`**/${layer}`, `**/${layer}/**`],
    ),
    ...except.map((path) => `!**/${path}`),
  ],
  message: why,
});
const layer = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', globalThis: 'readonly' } },
    rules: {
      'no-console': ['error', { allow: ['error', 'warn'] }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['infra/**/*.ts', 'tools/**/*.ts', 'test/**/*.ts', 'test/**/*.js'], rules: { 'no-console': 'off' } },
  layer(
    ['functions/**/*.ts', 'lib/**/*.ts'],
    [sdk, tooling],
    [
      'lib/storage/**',
      'lib/domain/**',
      'lib/queue/**',
      'lib/identity/**',
      'lib/lambda/**',
      'lib/exports/**',
      'lib/lambda-credentials.ts',
    ],
  ),
  layer(['lib/lambda-credentials.ts'], [credentials, tooling]),
  layer(
    ['lib/queue/**/*.ts'],
    [
      sqs,
      tooling,
      above(['http', 'auth', 'settings', 'storage'], 'The queue adapter knows only the domain port it implements.'),
    ],
  ),
  layer(
    ['lib/lambda/**/*.ts'],
    [
      lambda,
      tooling,
      above(
        ['domain', 'http', 'auth', 'settings', 'storage'],
        'The Lambda adapter invokes a function by name with an event: it knows nothing of what the event means.',
      ),
    ],
  ),
  layer(
    ['lib/exports/**/*.ts'],
    [
      s3,
      tooling,
      above(['http', 'auth', 'settings', 'storage'], 'The export adapter knows only the domain port it implements.'),
    ],
  ),
  layer(
    ['lib/identity/**/*.ts'],
    [
      cognito,
      tooling,
      above(['http', 'auth', 'settings', 'storage'], 'The identity adapter knows only the domain port it implements.'),
    ],
  ),
  layer(
    ['lib/domain/**/*.ts'],
    [
      sdk,
      tooling,
      above(
        ['http', 'auth', 'settings'],
        'The domain knows nothing of HTTP, the authorizer or the settings use cases.',
      ),
    ],
  ),
  layer(
    ['lib/storage/**/*.ts'],
    [
      tooling,
      above(
        ['domain', 'http', 'auth', 'settings'],
        'Storage knows nothing of the layers above it but the domain model it maps its items to.',
        ['domain/model'],
      ),
    ],
  ),
  layer(['lib/domain/model.ts'], [{ group: ['**'], message: 'The domain model imports nothing.' }]),
  layer(['infra/**/*.ts'], [shipsAlone]),
  layer(['tools/**/*.ts'], [{ group: ['**/test/**'], message: 'The tools never import tests.' }]),
  layer(
    ['app/**/*.ts', 'app/**/*.tsx'],
    [
      {
        group: ['**/lib/**', '**/functions/**', '**/infra/**', '**/tools/**', '**/test/**', '@aws-sdk/*'],
        message: 'The settings page knows the service by its OpenAPI types only (app/src/settings-api.d.ts).',
      },
    ],
  ),
);
