import { Stack, Validations } from 'aws-cdk-lib';
import type { IManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
/**
 * cdk-nag's own rendering of a CloudFormation value into the text of a finding: AwsSolutions-IAM4 names a managed
 * policy and AwsSolutions-IAM5 a resource with it (`Policy::…`, `Resource::…`), after resolving the value in the
 * stack. The package's index does not export it, so it is imported by its path, which package.json's exact pin of
 * cdk-nag (3.0.2) holds still; a release that moved it fails the type check and every synthesis at once.
 */
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
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

/**
 * A value as cdk-nag writes it in a finding, from what the stack of `scope` resolves it to. With the account and
 * region of a real deployment (`cdk synth` gives the app CDK_DEFAULT_REGION, and CDK_DEFAULT_ACCOUNT when it has
 * credentials; infra/cdk/app.ts makes them the stack's `env`) an ARN the stack formats holds them as literals, its
 * partition too once the region is known (`arn:aws:s3:::cdk-hnb659fds-assets-123456789012-eu-west-3/*`); without,
 * `<AWS::AccountId>` and the like. An acknowledgement written from it matches the finding either way.
 */
const asNagWritesIt = (scope: IConstruct, value: string): string => flattenCfnReference(Stack.of(scope).resolve(value));

/** `Resource::<the resource's ARN>`, as AwsSolutions-IAM5 names a wildcard resource. */
export const nagResource = (scope: IConstruct, arn: string): string => `Resource::${asNagWritesIt(scope, arn)}`;

/** `Policy::<the policy's ARN>`, as AwsSolutions-IAM4 names an AWS managed policy. */
export const nagPolicy = (scope: IConstruct, policy: IManagedPolicy): string =>
  `Policy::${asNagWritesIt(scope, policy.managedPolicyArn)}`;
