import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers (README, "Layout"): functions → lib/http → lib/domain → lib/storage. Only lib/storage
 * and infra/ tooling talk to the AWS SDK; product code never imports tooling or tests; the domain
 * knows nothing of HTTP; storage knows nothing of the layers above it.
 */
const sdk = {
  group: ['@aws-sdk/*'],
  message: 'Only lib/storage talks to DynamoDB, only lib/queue to SQS (and infra/ tooling to both).',
};
const sqs = { group: ['@aws-sdk/*', '!@aws-sdk/client-sqs'], message: 'lib/queue talks to SQS only.' };
const tooling = {
  group: ['**/infra/**', '**/test/**'],
  message: 'Product code (functions/, lib/) never imports tooling or tests.',
};
const above = (layers, why) => ({ group: layers.flatMap((layer) => [`**/${layer}`, `**/${layer}/**`]), message: why });
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
  { files: ['infra/**/*.ts', 'test/**/*.ts', 'test/**/*.js'], rules: { 'no-console': 'off' } },
  layer(['functions/**/*.ts', 'lib/**/*.ts'], [sdk, tooling], ['lib/storage/**', 'lib/domain/**', 'lib/queue/**']),
  layer(
    ['lib/queue/**/*.ts'],
    [
      sqs,
      tooling,
      above(
        ['http', 'auth', 'admin', 'openapi', 'storage'],
        'The queue adapter knows only the domain port it implements.',
      ),
    ],
  ),
  layer(
    ['lib/domain/**/*.ts'],
    [sdk, tooling, above(['http', 'auth', 'admin', 'openapi'], 'The domain knows nothing of HTTP or the admin tool.')],
  ),
  layer(
    ['lib/storage/**/*.ts'],
    [tooling, above(['domain', 'http', 'auth', 'admin', 'openapi'], 'Storage knows nothing of the layers above it.')],
  ),
  layer(['infra/bench/**/*.ts'], [{ group: ['**/test/**'], message: 'The bench never imports tests.' }]),
);
