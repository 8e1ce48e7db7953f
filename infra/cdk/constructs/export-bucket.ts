import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { nagResource } from '../nag';

/** An export kept for its download (docs/api.md#exports) is deleted a day after it was written. */
export const exportRetention = Duration.days(1);

/**
 * The exports too large to answer (docs/api.md#exports): each kept under a name of its own, downloaded through a
 * presigned link that works 15 minutes (lib/exports/s3-export-store.ts), deleted by the lifecycle rule a day later
 * ("Expiring objects", https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html).
 * Built as the stream-failure bucket is (./outbound-events.ts): private (Block Public Access on all four settings, ACLs
 * disabled, no statement in its policy but the denial of any request without TLS 1.2 at least), but with S3's own
 * keys: the link's reader holds no credential and no KMS grant, and an object lives a day. Not versioned: an export
 * is written once and never replaced, and a noncurrent version would keep personal data past its day.
 */
export class ExportBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: false,
      lifecycleRules: [
        { id: 'ExpireExports', expiration: exportRetention, abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      /**
       * Retained, like the stream-failure bucket: CloudFormation deletes only an empty bucket, and emptying it would
       * take a custom-resource function; what it holds expires within a day anyway.
       */
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'No server access logs: the exports are written by the export routes’ functions and read through the links they sign, IAM-signed requests that CloudTrail data events record when the account’s trail turns them on; a log bucket would be one more store of personal data to secure.',
    });
  }

  /** What an export route may do there: put an export and sign its GetObject link, on the bucket's objects alone. */
  grantKeep(fn: IFunction): void {
    const objects = this.bucket.arnForObjects('*');
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [objects] }));
    Validations.of(fn.role!).acknowledge({
      id: `AwsSolutions-IAM5[${nagResource(fn, objects)}]`,
      reason:
        'Each export is kept under a name the function makes (<workspace id>/<new id>.json): PutObject and GetObject on the objects of this one bucket, the narrowest the names allow, and nothing on the bucket itself.',
    });
  }
}
