import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { exportLinkSeconds } from '../../lib/domain/export/export-store';
import { createS3Client, createS3ExportStore } from '../../lib/exports/s3-export-store';

/*
 * The bucket an export too large to answer goes to (lib/exports/s3-export-store.ts), S3 faked at the SDK's client (no
 * AWS here): the document is put as a private attachment, and the link answered is a GetObject presigned for
 * `exportLinkSeconds`, signed with the function's credentials, which the link itself never carries.
 */
const s3 = mockClient(S3Client);
const credentials = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'session' };

beforeAll(() => Object.assign(process.env, credentials));
afterAll(() => {
  for (const name of Object.keys(credentials)) delete process.env[name];
  s3.restore();
});

test('keeps the document under its name, then answers a GetObject link of that object valid 15 minutes', async () => {
  s3.on(PutObjectCommand).resolves({});
  const store = createS3ExportStore(createS3Client('eu-west-3'), 'crm-exports-test');
  const link = new URL(await store.keep('ws/prospect-1.json', '{"prospect":{}}'));

  expect(s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input)).toEqual([
    {
      Bucket: 'crm-exports-test',
      Key: 'ws/prospect-1.json',
      Body: '{"prospect":{}}',
      ContentType: 'application/json; charset=utf-8',
      ContentDisposition: 'attachment; filename="export.json"',
    },
  ]);
  expect(s3.commandCalls(GetObjectCommand)).toEqual([]); // signed, not sent
  expect(link.hostname).toBe('crm-exports-test.s3.eu-west-3.amazonaws.com');
  expect(link.pathname).toBe('/ws/prospect-1.json');
  expect(link.searchParams.get('X-Amz-Expires')).toBe(String(exportLinkSeconds));
  expect(link.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\//);
  expect(link.href).not.toContain('secret');
});

test('a failed upload answers no link', async () => {
  s3.reset();
  s3.on(PutObjectCommand).rejects(new Error('AccessDenied'));
  const store = createS3ExportStore(createS3Client('eu-west-3'), 'crm-exports-test');
  await expect(store.keep('ws/prospect-2.json', '{}')).rejects.toThrow('AccessDenied');
});
