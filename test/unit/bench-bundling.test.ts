import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build } from 'esbuild';
import { credentialProviderAlias, esbuildOptionsFor, functionBundling } from '../../infra/cdk/bundling';
import { defaultProvider } from '../../lib/lambda-credentials';
import { origin } from '../../tools/bench/functions';

describe('bundling options shared by the stack and the bench', () => {
  const options = esbuildOptionsFor('/app/functions/add-note.ts', '/out/index.mjs');

  it('translates every option the construct deploys with (a new one must be translated too)', () => {
    expect(Object.keys(functionBundling).sort()).toEqual(
      [
        'banner',
        'esbuildArgs',
        'externalModules',
        'format',
        'keepNames',
        'mainFields',
        'minify',
        'sourceMap',
        'target',
      ].sort(),
    );
    expect(functionBundling.format).toBe(OutputFormat.ESM);
    expect(options).toMatchObject({
      entryPoints: ['/app/functions/add-note.ts'],
      outfile: '/out/index.mjs',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: functionBundling.target,
      minify: true,
      keepNames: true,
      sourcemap: false,
      mainFields: functionBundling.mainFields,
      banner: { js: functionBundling.banner },
      external: [],
      alias: credentialProviderAlias,
    });
    expect(functionBundling.esbuildArgs).toEqual({
      '--alias': ['@aws-sdk/credential-provider-node=./lib/lambda-credentials.ts'],
    });
  });

  it('bundles no credential source but the environment: Lambda gives the role there', async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'bundle-'));
    const result = await build({
      ...esbuildOptionsFor(path.resolve('functions/prospect-api/list-pipelines.ts'), path.join(outDir, 'index.mjs')),
      absWorkingDir: process.cwd(),
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('lib/lambda-credentials.ts');
    expect(
      inputs.filter((input) => /credential-provider-(node|ini|sso|process|web-identity)|nested-clients/.test(input)),
    ).toEqual([]);
  });

  it('reads the execution role from the environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
    });
    try {
      await expect(defaultProvider()()).resolves.toMatchObject({
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
        sessionToken: 'session',
      });
    } finally {
      process.env = saved;
    }
  });

  it('attributes bundled bytes to zod, the AWS SDK, the code or the rest', () => {
    expect(origin('node_modules/zod/v4/classic/schemas.js')).toBe('zod');
    expect(origin('node_modules/@aws-sdk/client-dynamodb/dist-es/index.js')).toBe('sdk');
    expect(origin('node_modules/@smithy/core/dist-es/index.js')).toBe('sdk');
    expect(origin('node_modules/@middy/core/index.js')).toBe('other');
    expect(origin('lib/storage/table-items.ts')).toBe('app');
  });
});
