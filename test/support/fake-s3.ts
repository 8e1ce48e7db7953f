import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';

/**
 * One S3 bucket's HTTP side, in memory, below the SDK (as test/support/fake-dynamodb-http.ts does
 * for DynamoDB): the whole SDK runs, XML parsing and pagination included. It answers the three
 * calls `stream replay --aws` makes: ListObjectsV2 (`pageSize` keys a page, in key order, with a
 * continuation token), GetObject and DeleteObject. Path-style requests.
 */

export type FakeBucket = {
  client: S3Client;
  objects: Map<string, string>;
  /** Every request, as `METHOD key-or-query`. */
  requests: string[];
};

const xmlEscaped = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const answer = (statusCode: number, body = '', contentType = 'application/xml') => ({
  response: { statusCode, headers: { 'content-type': contentType }, body: Readable.from([Buffer.from(body)]) },
});

export function fakeBucket(bucket: string, objects: Record<string, string>, pageSize = 1000): FakeBucket {
  const stored = new Map(Object.entries(objects));
  const requests: string[] = [];
  const client = new S3Client({
    region: 'eu-west-3',
    credentials: { accessKeyId: 'fake', secretAccessKey: 'fake' },
    forcePathStyle: true,
    endpoint: 'http://s3.fake.test',
    requestHandler: {
      handle: async (request: { method: string; path: string; query?: Record<string, string | string[] | null> }) => {
        const key = decodeURIComponent(request.path.replace(`/${bucket}`, '').replace(/^\//, ''));
        const query = request.query ?? {};
        requests.push(`${request.method} ${key || new URLSearchParams(query as Record<string, string>).toString()}`);
        if (request.method === 'GET' && key === '') {
          const prefix = String(query.prefix ?? '');
          const after = String(query['continuation-token'] ?? '');
          const keys = [...stored.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
          const page = keys.slice(0, pageSize);
          const truncated = keys.length > page.length;
          return answer(
            200,
            `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlEscaped(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${pageSize}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${
              truncated ? `<NextContinuationToken>${xmlEscaped(page.at(-1) ?? '')}</NextContinuationToken>` : ''
            }${page
              .map(
                (name) =>
                  `<Contents><Key>${xmlEscaped(name)}</Key><Size>${Buffer.byteLength(stored.get(name) ?? '')}</Size></Contents>`,
              )
              .join('')}</ListBucketResult>`,
          );
        }
        if (request.method === 'GET') {
          const body = stored.get(key);
          if (body === undefined) {
            return answer(
              404,
              '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
            );
          }
          return answer(200, body, 'application/octet-stream');
        }
        if (request.method === 'DELETE') {
          stored.delete(key);
          return answer(204);
        }
        return answer(405, '<Error><Code>MethodNotAllowed</Code><Message>not faked</Message></Error>');
      },
    },
  });
  return { client, objects: stored, requests };
}
