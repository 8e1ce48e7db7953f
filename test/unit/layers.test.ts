import { ESLint } from 'eslint';

/**
 * The import rules of the README's "Layout", held by eslint.config.js: each forbidden import,
 * written in a file of the layer it is forbidden in, must be refused; each allowed one accepted.
 */
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function refusals(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = value;\n`, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test.each([
  ['lib/domain/lead/x.ts', "import { value } from '../../http/response';"],
  ['lib/domain/x.ts', "import { value } from '../auth/context';"],
  ['lib/domain/x.ts', "import { value } from '@aws-sdk/lib-dynamodb';"],
  ['lib/http/x.ts', "import { value } from '@aws-sdk/client-dynamodb';"],
  ['lib/settings/x.ts', "import { value } from '@aws-sdk/lib-dynamodb';"],
  ['functions/x.ts', "import { value } from '@aws-sdk/lib-dynamodb';"],
  ['lib/storage/x.ts', "import { value } from '../domain/webhook-call';"],
  ['lib/storage/x.ts', "import { value } from '../http/response';"],
  ['lib/storage/x.ts', "import { value } from '../domain/lead/placement';"],
  ['lib/domain/model.ts', "import { value } from '../storage/table-items';"],
  ['lib/domain/model.ts', "import { value } from './webhook-call';"],
  ['lib/x.ts', "import { value } from '../tools/local/server';"],
  ['functions/x.ts', "import { value } from '../tools/admin/cli';"],
  ['lib/settings/x.ts', "import { value } from '../../tools/admin/render';"],
  ['lib/x.ts', "import { value } from '../infra/cdk/bundling';"],
  ['functions/x.ts', "import { value } from '../test/support/seed';"],
  ['lib/lambda-credentials.ts', "import { value } from '@aws-sdk/credential-provider-node';"],
  ['infra/cdk/x.ts', "import { value } from '../../tools/openapi/document-file';"],
  ['infra/cdk/x.ts', "import { value } from '../../test/support/seed';"],
  ['tools/bench/x.ts', "import { value } from '../../test/support/local-api';"],
  ['tools/load/x.ts', "import { value } from '../../test/support/seed';"],
  ['lib/identity/x.ts', "import { value } from '@aws-sdk/lib-dynamodb';"],
  ['lib/identity/x.ts', "import { value } from '../storage/people';"],
  ['lib/identity/x.ts', "import { value } from '../auth/context';"],
  ['lib/auth/x.ts', "import { value } from '@aws-sdk/client-cognito-identity-provider';"],
  ['lib/domain/x.ts', "import { value } from '@aws-sdk/client-cognito-identity-provider';"],
])('%s may not %s', async (filePath, source) => {
  expect(await refusals(filePath, source)).toHaveLength(1);
});

test.each([
  ['lib/storage/x.ts', "import { value } from '@aws-sdk/lib-dynamodb';"],
  ['lib/domain/x.ts', "import { value } from '../storage/leads';"],
  ['lib/storage/x.ts', "import type { value } from '../domain/model';"],
  ['lib/domain/x.ts', "import { value } from '../messages';"],
  ['lib/http/x.ts', "import { value } from '../domain/webhook-call';"],
  ['lib/lambda-credentials.ts', "import { value } from '@aws-sdk/credential-provider-env';"],
  ['infra/cdk/x.ts', "import { value } from '../../lib/routes';"],
  ['tools/local/x.ts', "import { value } from '@aws-sdk/client-dynamodb';"],
  ['tools/bench/x.ts', "import { value } from '../../infra/cdk/bundling';"],
  ['test/unit/x.ts', "import { value } from '../../tools/local/server';"],
  ['lib/identity/x.ts', "import { value } from '@aws-sdk/client-cognito-identity-provider';"],
  ['lib/identity/x.ts', "import type { value } from '../domain/identity-provider';"],
])('%s may %s', async (filePath, source) => {
  expect(await refusals(filePath, source)).toEqual([]);
});
