import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** cdk.json's context: the feature flags `cdk synth` applies. */
const cdkContext = (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as Json).context;

/**
 * An app built as `cdk synth` builds it (cdk.json's feature flags), bundling skipped so that no esbuild
 * runs in the tests.
 *
 * The CDK validates every template it synthesizes against CloudFormation's schemas by default
 * ("builtinCloudFormationValidation ... Default: true", AppProps, AWS CDK API reference:
 * https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.AppProps.html). It changes nothing in the
 * template and only reports (as warnings, which no test reads), yet it takes about 4 s of each synthesis
 * (a WebAssembly engine). So it is off here, and on in the one test that asserts its report is empty
 * (test/infra/template-validity.test.ts).
 *
 * Nor does any test read the stack traces the CDK records in the cloud assembly's metadata, of each
 * CloudFormation element's creation and of each annotation or acknowledgement: off, they leave every
 * template as it was and take a third less of a synthesis (about 0.4 s of CPU each, more under jest,
 * whose source maps every captured trace goes through).
 */
export function testApp({ builtinValidation = false }: { builtinValidation?: boolean } = {}): App {
  return new App({
    context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], 'aws:cdk:disable-creation-stack-traces': true },
    builtinCloudFormationValidation: builtinValidation,
    stackTraces: false,
  });
}
