import { Aws, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { denyGrantsButForAwsServices } from '../kms-grants';

export type AlarmTopicProps = { stage: string };

/** The ARN pattern of the stack's alarms: every one is named `<stack name>-<id>` (alarms.ts). */
export const alarmArnPattern = (stackName: string): string =>
  `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${stackName}-*`;

/**
 * The topic every alarm of the stack notifies, on ALARM and on OK; people and chat channels
 * subscribe to it (docs/operations.md, "Receiving the alarms").
 *
 * Encrypted with a key of its own rather than the AWS managed key `alias/aws/sns`: CloudWatch
 * alarms cannot publish to a topic under the AWS managed key, whose policy gives them neither
 * kms:GenerateDataKey* nor kms:Decrypt and cannot be edited ("Enable compatibility between event
 * sources from AWS services and encrypted topics",
 * https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services).
 * The key costs $1 a month; its rotation is yearly and automatic.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    /**
     * CloudWatch acts for this account's alarms of this stack only (confused deputy: "Cross-service
     * confused deputy prevention", https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html).
     */
    const fromOurAlarms = {
      StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
      ArnLike: { 'aws:SourceArn': alarmArnPattern(stackName) },
    };
    this.key = new Key(this, 'Key', {
      description: `Chiffrement du topic SNS des alarmes CRM (${props.stage})`,
      enableKeyRotation: true,
      /** Nothing lasting is encrypted with it (a message lives until delivered): no reason to keep it once the stack is gone. */
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: fromOurAlarms,
      }),
    );
    denyGrantsButForAwsServices(this.key);
    this.topic = new Topic(this, 'Topic', {
      displayName: `CRM ${props.stage} : alarmes`,
      masterKey: this.key,
      /** A topic policy denying any publish made without TLS (aws:SecureTransport), cdk-nag AwsSolutions-SNS3. */
      enforceSSL: true,
    });
    /**
     * A topic policy replaces SNS's default one: CloudWatch, a service principal, must be allowed
     * in it ("Why didn't I receive an SNS notification for my CloudWatch alarm trigger?",
     * https://repost.aws/knowledge-center/cloudwatch-receive-sns-for-alarm-trigger).
     */
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromOurAlarms,
      }),
    );
  }
}
