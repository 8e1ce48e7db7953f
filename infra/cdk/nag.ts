import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export const nagPacks = (scope?: IConstruct): NagPack[] => [
  new AwsSolutionsChecks(scope, { verbose: true }),
  new ServerlessChecks(scope, { verbose: true }),
];

/**
 * cdk-nag 3 runs as a CDK validation plugin: any finding not acknowledged (with its reason, via
 * Validations.of(construct).acknowledge) stops `cdk synth`. The infra tests run the same packs.
 */
export function applyNagPacks(app: IConstruct): void {
  Validations.of(app).addPlugins(...nagPacks(app));
}
