import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { esbuildOptionsFor, functionBundling } from '../../infra/cdk/bundling';
import { origin } from '../../infra/bench/bundles';

describe('bundling options shared by the stack and the bench', () => {
  const options = esbuildOptionsFor('/app/functions/add-note.ts', '/out/index.mjs');

  it('translates every option the construct deploys with (a new one must be translated too)', () => {
    expect(Object.keys(functionBundling).sort()).toEqual(
      ['banner', 'externalModules', 'format', 'keepNames', 'mainFields', 'minify', 'sourceMap', 'target'].sort(),
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
    });
  });

  it('attributes bundled bytes to zod, the AWS SDK, the code or the rest', () => {
    expect(origin('node_modules/zod/v4/classic/schemas.js')).toBe('zod');
    expect(origin('node_modules/@aws-sdk/client-dynamodb/dist-es/index.js')).toBe('sdk');
    expect(origin('node_modules/@smithy/core/dist-es/index.js')).toBe('sdk');
    expect(origin('node_modules/@middy/core/index.js')).toBe('other');
    expect(origin('lib/storage/keys.ts')).toBe('app');
  });
});
