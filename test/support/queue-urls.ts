/**
 * The queue URLs the events wing's modules read when imported (their production handlers are built on a cold start),
 * and the export bucket's name the export routes' modules read the same way: stand-ins a test never calls, set before
 * the import.
 */
export function setTestQueueUrls(): void {
  process.env.DELIVERY_QUEUE_URL ??= 'https://sqs.eu-west-3.amazonaws.com/123456789012/test-deliveries';
  process.env.FOLLOW_UP_QUEUE_URL ??= 'https://sqs.eu-west-3.amazonaws.com/123456789012/test-follow-ups';
  process.env.EXPORT_BUCKET_NAME ??= 'crm-test-exports';
}
