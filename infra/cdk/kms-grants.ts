import { AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';

/**
 * Only AWS services create grants on the key (AWS Control Tower CT.KMS.PR.3, "AWS KMS controls",
 * https://docs.aws.amazon.com/controltower/latest/controlreference/kms-rules.html): nobody needs one
 * on the stack's keys.
 */
export function denyGrantsButForAwsServices(key: Key): void {
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'GrantsForAwsServicesOnly',
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['kms:CreateGrant'],
      resources: ['*'],
      conditions: {
        BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' },
      },
    }),
  );
}
