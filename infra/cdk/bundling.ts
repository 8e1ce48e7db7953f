import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * The SDK's default credential chain replaced by the environment alone (lib/lambda-credentials.ts),
 * resolved from the project root like every esbuild alias ("alias", https://esbuild.github.io/api/#alias).
 */
export const credentialProviderAlias = {
  '@aws-sdk/credential-provider-node': './lib/lambda-credentials.ts',
} as const;

/**
 * The Lambda runtime of every function, and the Node major the project itself runs on (package.json "engines",
 * checked at every entry point by node-major.js): test/infra/node-major.test.ts holds the two, the bundles'
 * target below and the Node that `npm ci` installs to one major.
 */
export const functionRuntime = Runtime.NODEJS_22_X;

/**
 * How every function is bundled. RouteFunction deploys with these options and the benchmark
 * (tools/bench) bundles with them, so the sizes and cold starts it measures are the deployed ones.
 */
export const functionBundling = {
  minify: true,
  /** Domain errors take their `name` from their class: minified class names would reach the logs. */
  keepNames: true,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  /**
   * ESM builds first, so no bundled code calls require() today; the banner keeps a CommonJS
   * dependency added later from failing at cold start ("Dynamic require … is not supported"),
   * which the tests, bundling skipped, would not see.
   */
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  /** A source map would have to be parsed on every cold start (--enable-source-maps): left out. */
  sourceMap: false,
  /**
   * The SDK is bundled rather than taken from the runtime: the functions run the version
   * pinned in package.json and tested here, not whatever the runtime ships that week, and
   * tree-shaking keeps only the DynamoDB client.
   */
  externalModules: [] as string[],
  esbuildArgs: {
    '--alias': Object.entries(credentialProviderAlias).map(([module, replacement]) => `${module}=${replacement}`),
  },
} satisfies BundlingOptions;

/**
 * The esbuild build that CDK's local bundling runs for `functionBundling` (the arguments
 * aws-lambda-nodejs passes to `esbuild --bundle`, as API options), writing index.mjs like CDK.
 */
export function esbuildOptionsFor(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    outfile,
    platform: 'node',
    target: functionBundling.target,
    format: functionBundling.format === OutputFormat.ESM ? 'esm' : 'cjs',
    minify: functionBundling.minify,
    keepNames: functionBundling.keepNames,
    mainFields: functionBundling.mainFields,
    banner: { js: functionBundling.banner },
    sourcemap: functionBundling.sourceMap,
    external: functionBundling.externalModules,
    alias: { ...credentialProviderAlias },
  };
}
