import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import * as z from 'zod/mini';
import { exportLinkSeconds, type ExportStore } from '../domain/export/export-store';

/** The bucket of exports too large to answer (infra/cdk/constructs/export-bucket.ts), read once per cold start. */
export function loadExportBucketName(env: NodeJS.ProcessEnv = process.env): string {
  // A bucket name: 3 to 63 lower-case letters, digits, dots and hyphens ("General purpose bucket naming rules",
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
  const parsed = z
    .string()
    .check(z.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/))
    .safeParse(env.EXPORT_BUCKET_NAME);
  if (!parsed.success) throw new Error('Configuration invalide : EXPORT_BUCKET_NAME');
  return parsed.data;
}

/**
 * One client per cold start, with explicit timeouts like the DynamoDB one (lib/storage/client.ts): a 5 MB upload
 * within the region takes well under a second, and a stalled one must fail inside the function's 10 s.
 */
export function createS3Client(region: string | undefined): S3Client {
  return new S3Client({
    region,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 3000, throwOnRequestTimeout: true },
  });
}

/**
 * The export kept in the bucket (PutObject), and a presigned GetObject URL that works `exportLinkSeconds`: the link
 * needs no credential of its reader, and the bucket stays private ("Download and upload objects with presigned URLs",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-presigned-url.html). The URL is signed with the
 * function's role, which may only put and get objects of that bucket; it stops working when its time is up, or earlier
 * if the role's session credentials expire first (the same page, "Expiration time for presigned URLs"). The bucket
 * deletes the object a day later (its lifecycle rule).
 */
export function createS3ExportStore(client: S3Client, bucket: string): ExportStore {
  return {
    async keep(name, document) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: name,
          Body: document,
          ContentType: 'application/json; charset=utf-8',
          ContentDisposition: 'attachment; filename="export.json"',
        }),
      );
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: name }), {
        expiresIn: exportLinkSeconds,
      });
    },
  };
}
